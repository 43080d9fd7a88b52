package io.rigscope.rig.cloud.template;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rigscope.rig.cloud.CloudSpec;
import io.rigscope.rig.pricing.PriceTable;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What {@code cloud plan} prints: every resource of the template with its hourly price, the total, the region, AZ and
 * expiry. A resource AWS does not bill by the hour costs 0; one whose price the table does not know has a null price
 * and says why (the total then counts what is known and says so).
 *
 * @param template where the template was written
 * @param region the region
 * @param availabilityZone the AZ
 * @param expiresAt when the rig deletes itself, if stood up now
 * @param resources every resource, in template order
 * @param pricesFrom the price table's date and source
 * @param publicIpv4Addresses how many public IPv4 addresses the nodes hold (billed hourly; not in the price table)
 */
public record CloudPlan(Path template, String region, String availabilityZone, Instant expiresAt,
                        List<Priced> resources, String pricesFrom, int publicIpv4Addresses) {

    public CloudPlan {
        Objects.requireNonNull(template, "template");
        resources = List.copyOf(resources);
    }

    /**
     * One resource's price.
     *
     * @param logicalId its id in the template
     * @param type its CloudFormation type
     * @param hourlyUsd USD per hour, or null when unknown
     * @param why why it is unknown (null when known)
     * @param detail how the figure is made up (printed in the table), or empty
     */
    public record Priced(String logicalId, String type, Double hourlyUsd, String why, String detail) {
    }

    /** The sum of the known hourly prices, USD. */
    public double hourlyUsdTotal() {
        return resources.stream().filter(r -> r.hourlyUsd() != null).mapToDouble(Priced::hourlyUsd).sum();
    }

    /** True when some resource's price is unknown (the total is then a lower bound). */
    public boolean totalIsPartial() {
        return resources.stream().anyMatch(r -> r.hourlyUsd() == null);
    }

    /** Prices every resource of {@code template}. */
    public static CloudPlan of(CloudSpec spec, StackTemplate template, Path written, Instant expiresAt,
                              PriceTable prices) {
        List<Priced> out = new ArrayList<>();
        for (StackTemplate.Resource r : template.resources()) {
            out.add(switch (r.type()) {
                case "AWS::RDS::DBInstance" -> database(spec, r, prices);
                case "AWS::EC2::Instance" -> node(spec, r, prices);
                default -> new Priced(r.logicalId(), r.type(), 0.0, null, "");
            });
        }
        int nodes = 1 + spec.load().count();
        return new CloudPlan(written, spec.region(), spec.availabilityZone(), expiresAt, out,
                "price table " + prices.date() + " (" + prices.source() + ")", nodes);
    }

    private static Priced database(CloudSpec spec, StackTemplate.Resource r, PriceTable prices) {
        CloudSpec.Database db = spec.database();
        CloudSpec.Storage s = db.storage();
        PriceTable.RdsShape shape = new PriceTable.RdsShape(spec.region(), db.instanceClass(), false, s.type(),
                s.sizeGb(), s.iops() == null ? s.includedIops() : s.iops(),
                s.throughputMibps() == null ? s.includedThroughputMibps() : s.throughputMibps());
        return prices.rdsHourlyCost(shape)
                .map(c -> new Priced(r.logicalId(), r.type(), c.usd(), null, c.basis()))
                .orElseGet(() -> new Priced(r.logicalId(), r.type(), null,
                        String.join("; ", prices.rdsMissingPrices(shape)), ""));
    }

    private static Priced node(CloudSpec spec, StackTemplate.Resource r, PriceTable prices) {
        String type = (String) r.properties().get("InstanceType");
        OptionalDouble instance = prices.ec2InstanceHourlyUsd(spec.region(), type);
        OptionalDouble gbMonth = prices.ebsGbMonthUsd(spec.region(), "gp3");
        List<String> missing = new ArrayList<>();
        if (instance.isEmpty()) {
            missing.add("no known price for EC2 " + type + " Linux");
        }
        if (gbMonth.isEmpty()) {
            missing.add("no known price for EBS gp3");
        }
        if (!missing.isEmpty()) {
            return new Priced(r.logicalId(), r.type(), null, String.join("; ", missing) + " in " + spec.region()
                    + " (price table " + prices.date() + ")", "");
        }
        double volume = StackTemplate.ROOT_VOLUME_GB * gbMonth.getAsDouble() / PriceTable.HOURS_PER_MONTH;
        return new Priced(r.logicalId(), r.type(), instance.getAsDouble() + volume, null, String.format(Locale.ROOT,
                "price table %s: %s %s $%.4f/h + %d GB gp3 root x $%.4f/GB-month, per month of %d h", prices.date(),
                type, spec.region(), instance.getAsDouble(), StackTemplate.ROOT_VOLUME_GB, gbMonth.getAsDouble(),
                (int) PriceTable.HOURS_PER_MONTH));
    }

    /** The plan as {@code cloud plan --json} prints it. */
    public String toJson() {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = json.createObjectNode();
        root.put("template", template.toString());
        root.put("region", region);
        root.put("availability_zone", availabilityZone);
        root.put("expires_at", expiresAt.toString());
        root.put("hourly_usd_total", round(hourlyUsdTotal()));
        ArrayNode rs = root.putArray("resources");
        for (Priced p : resources) {
            ObjectNode n = rs.addObject();
            n.put("logical_id", p.logicalId());
            n.put("type", p.type());
            if (p.hourlyUsd() == null) {
                n.putNull("hourly_usd");
                n.put("why", p.why());
            } else {
                n.put("hourly_usd", round(p.hourlyUsd()));
            }
        }
        try {
            return json.writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The plan as the console table. */
    public String toTable(String series, String lifetime) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "rigscope cloud plan: series %s, %s (%s), expires %s if stood up now "
                + "(lifetime %s)%n", series, region, availabilityZone, expiresAt, lifetime));
        b.append(String.format(Locale.ROOT, "%-22s %-40s %10s  %s%n", "LOGICAL ID", "TYPE", "USD/HOUR", "MADE OF"));
        for (Priced p : resources) {
            b.append(String.format(Locale.ROOT, "%-22s %-40s %10s  %s%n", p.logicalId(), p.type(),
                    p.hourlyUsd() == null ? "unknown" : String.format(Locale.ROOT, "%.4f", p.hourlyUsd()),
                    p.hourlyUsd() == null ? p.why() : p.detail()));
        }
        b.append(String.format(Locale.ROOT, "total %.4f USD/hour%s; prices: %s%n", hourlyUsdTotal(),
                totalIsPartial() ? " (lower bound: a price above is unknown)" : "", pricesFrom));
        b.append(String.format(Locale.ROOT, "not in the total: %d public IPv4 addresses (billed hourly by AWS), S3 and "
                + "CloudWatch Logs storage, Enhanced Monitoring's log ingestion, data transfer%n", publicIpv4Addresses));
        b.append("template: ").append(template).append(System.lineSeparator());
        return b.toString();
    }

    private static double round(double usd) {
        return Math.round(usd * 1e6) / 1e6;
    }
}
