package io.rigscope.rig.pricing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import io.rigscope.collectors.aws.AwsSettings;
import java.net.URI;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.pricing.PricingClient;
import software.amazon.awssdk.services.pricing.model.Filter;
import software.amazon.awssdk.services.pricing.model.FilterType;
import software.amazon.awssdk.services.pricing.model.GetProductsResponse;

/**
 * AWS on-demand list prices (USD) for what a rig is made of: RDS for PostgreSQL instances and storage, EC2 Linux
 * instances and EBS volumes, by region. Immutable and thread safe.
 *
 * <p>The bundled table ({@link #bundled()}) is {@code prices.json} beside this class: its {@link #date()} is when
 * it was compiled and its {@link #source()} says where the figures came from; every entry names its own page. A
 * figure that no source gave is absent, and its lookup is empty: the caller says "no known price" rather than
 * guess. Lookups are case-insensitive on region, class and type.
 *
 * <p>Billing rules this class implements (from the RDS user guide, "Amazon RDS DB instance storage", and its
 * pricing page):
 * <ul>
 *   <li>storage is billed per GB-month; {@link #HOURS_PER_MONTH} hours make a month;</li>
 *   <li>gp3 on RDS for PostgreSQL includes a baseline of 3,000 IOPS and 125 MiB/s below 400 GiB allocated, and
 *       12,000 IOPS and 500 MiB/s at 400 GiB and above; only IOPS and throughput provisioned above the baseline
 *       are billed ({@link #billableIops}, {@link #billableThroughputMibps});</li>
 *   <li>io1 and io2 bill every provisioned IOPS; gp2 and magnetic bill none;</li>
 *   <li>Multi-AZ (one standby) bills the instance at its Multi-AZ price and the storage, IOPS and throughput
 *       twice, once per copy.</li>
 * </ul>
 *
 * <pre>{@code
 * PriceTable prices = PriceTable.bundled();
 * prices.rdsHourlyCost(new RdsShape("us-east-1", "db.t4g.micro", false, "gp3", 100, 3000, 125))
 *       .map(HourlyCost::usd);   // 0.016 + 100 x 0.115 / 730
 * }</pre>
 */
public final class PriceTable {

    /** Hours in the month AWS prices a GB-month or an IOPS-month over. */
    public static final double HOURS_PER_MONTH = 730;

    private static final String RESOURCE = "prices.json";

    private final String date;
    private final String source;
    private final Map<String, Priced> rdsInstances;
    private final Map<String, StoragePrice> rdsStorage;
    private final Map<String, Priced> ec2Instances;
    private final Map<String, Priced> ebsVolumes;

    /**
     * An hourly cost and how it was reached.
     *
     * @param usd US dollars per hour
     * @param basis the figures it adds up, and the table's date ("price table 2026-12-06: ...")
     */
    public record HourlyCost(double usd, String basis) {
        public HourlyCost {
            Objects.requireNonNull(basis, "basis");
            if (!(usd >= 0)) {
                throw new IllegalArgumentException("usd must be >= 0: " + usd);
            }
        }
    }

    /**
     * What an RDS instance is, as far as its price goes ({@code DescribeDBInstances} gives each field).
     *
     * @param region e.g. us-east-1
     * @param dbInstanceClass e.g. db.m7g.large
     * @param multiAz true with a standby
     * @param storageType gp2, gp3, io1, io2 or standard
     * @param allocatedGb allocated storage in GiB
     * @param iops provisioned IOPS, 0 when none was set
     * @param throughputMibps provisioned throughput (gp3), 0 when none was set
     */
    public record RdsShape(String region, String dbInstanceClass, boolean multiAz, String storageType,
                           int allocatedGb, int iops, int throughputMibps) {
        public RdsShape {
            Objects.requireNonNull(region, "region");
            Objects.requireNonNull(dbInstanceClass, "dbInstanceClass");
            Objects.requireNonNull(storageType, "storageType");
        }
    }

    private record Priced(double usd, String source) {
    }

    private record StoragePrice(OptionalDouble gbMonthUsd, OptionalDouble iopsMonthUsd,
                                OptionalDouble throughputMibpsMonthUsd, String source) {
    }

    private PriceTable(JsonNode root) {
        this.date = text(root, "date");
        this.source = text(root, "source");
        this.rdsInstances = new TreeMap<>();
        for (JsonNode n : root.path("rds_postgresql_instance_hourly_usd")) {
            rdsInstances.put(key(text(n, "region"), text(n, "class"), n.path("multi_az").asBoolean() ? "multi" : "single"),
                    new Priced(n.path("usd").asDouble(), text(n, "source")));
        }
        this.rdsStorage = new TreeMap<>();
        for (JsonNode n : root.path("rds_storage_month_usd")) {
            rdsStorage.put(key(text(n, "region"), text(n, "storage_type")), new StoragePrice(
                    optional(n, "gb_month_usd"), optional(n, "iops_month_usd"),
                    optional(n, "throughput_mibps_month_usd"), text(n, "source")));
        }
        this.ec2Instances = new TreeMap<>();
        for (JsonNode n : root.path("ec2_linux_instance_hourly_usd")) {
            ec2Instances.put(key(text(n, "region"), text(n, "instance_type")),
                    new Priced(n.path("usd").asDouble(), text(n, "source")));
        }
        this.ebsVolumes = new TreeMap<>();
        for (JsonNode n : root.path("ebs_month_usd")) {
            ebsVolumes.put(key(text(n, "region"), text(n, "volume_type")),
                    new Priced(n.path("gb_month_usd").asDouble(), text(n, "source")));
        }
    }

    private PriceTable(PriceTable from) {
        this.date = from.date;
        this.source = from.source;
        this.rdsInstances = new TreeMap<>(from.rdsInstances);
        this.rdsStorage = from.rdsStorage;
        this.ec2Instances = from.ec2Instances;
        this.ebsVolumes = from.ebsVolumes;
    }

    /**
     * This table with one RDS for PostgreSQL instance price set (e.g. read now from the AWS Price List API,
     * {@link LivePrices}); {@code source} is what {@link #rdsInstanceSource} then says.
     */
    public PriceTable withRdsInstance(String region, String dbInstanceClass, boolean multiAz, double usd,
                                      String source) {
        if (!(usd >= 0)) {
            throw new IllegalArgumentException("usd must be >= 0: " + usd);
        }
        PriceTable t = new PriceTable(this);
        t.rdsInstances.put(key(region, dbInstanceClass, multiAz ? "multi" : "single"),
                new Priced(usd, Objects.requireNonNull(source, "source")));
        return t;
    }

    /** The table bundled with this build. */
    public static PriceTable bundled() {
        try (InputStream in = PriceTable.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE + " beside " + PriceTable.class.getName());
            }
            return parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + RESOURCE, e);
        }
    }

    /** A table in the bundled file's format (tests, or a newer table a user keeps). */
    public static PriceTable parse(InputStream json) throws IOException {
        JsonNode root = new ObjectMapper().readTree(json);
        if (root == null || !root.isObject() || !root.hasNonNull("date") || !root.hasNonNull("source")) {
            throw new IOException("a price table is a JSON object with \"date\" and \"source\"");
        }
        return new PriceTable(root);
    }

    /** When the table was compiled (ISO date). */
    public String date() {
        return date;
    }

    /** Where its figures come from, in one sentence. */
    public String source() {
        return source;
    }

    /** RDS for PostgreSQL, on demand, USD per instance-hour; Multi-AZ counts the standby. */
    public OptionalDouble rdsInstanceHourlyUsd(String region, String dbInstanceClass, boolean multiAz) {
        Priced p = rdsInstances.get(key(region, dbInstanceClass, multiAz ? "multi" : "single"));
        return p == null ? OptionalDouble.empty() : OptionalDouble.of(p.usd());
    }

    /** RDS storage, USD per GB-month, for one copy. */
    public OptionalDouble rdsStorageGbMonthUsd(String region, String storageType) {
        StoragePrice p = rdsStorage.get(key(region, storageType));
        return p == null ? OptionalDouble.empty() : p.gbMonthUsd();
    }

    /** RDS provisioned IOPS, USD per IOPS-month (gp3: per IOPS above the baseline; io1/io2: per IOPS). */
    public OptionalDouble rdsProvisionedIopsMonthUsd(String region, String storageType) {
        StoragePrice p = rdsStorage.get(key(region, storageType));
        return p == null ? OptionalDouble.empty() : p.iopsMonthUsd();
    }

    /** RDS gp3 throughput above the baseline, USD per MiB/s-month. */
    public OptionalDouble rdsThroughputMibpsMonthUsd(String region, String storageType) {
        StoragePrice p = rdsStorage.get(key(region, storageType));
        return p == null ? OptionalDouble.empty() : p.throughputMibpsMonthUsd();
    }

    /** EC2 Linux, on demand, shared tenancy, USD per instance-hour. */
    public OptionalDouble ec2InstanceHourlyUsd(String region, String instanceType) {
        Priced p = ec2Instances.get(key(region, instanceType));
        return p == null ? OptionalDouble.empty() : OptionalDouble.of(p.usd());
    }

    /** EBS volume storage, USD per GB-month. */
    public OptionalDouble ebsGbMonthUsd(String region, String volumeType) {
        Priced p = ebsVolumes.get(key(region, volumeType));
        return p == null ? OptionalDouble.empty() : OptionalDouble.of(p.usd());
    }

    /** The page an RDS instance price came from, if the table has the price. */
    public Optional<String> rdsInstanceSource(String region, String dbInstanceClass, boolean multiAz) {
        return Optional.ofNullable(rdsInstances.get(key(region, dbInstanceClass, multiAz ? "multi" : "single")))
                .map(Priced::source);
    }

    /** The page an EC2 instance price came from, if the table has the price. */
    public Optional<String> ec2InstanceSource(String region, String instanceType) {
        return Optional.ofNullable(ec2Instances.get(key(region, instanceType))).map(Priced::source);
    }

    /** IOPS a volume bills beyond what its storage type includes (the rules in the class comment). */
    public static int billableIops(String storageType, int allocatedGb, int iops) {
        String type = storageType.toLowerCase(Locale.ROOT);
        if (type.equals("gp3")) {
            return Math.max(0, iops - (allocatedGb >= 400 ? 12_000 : 3_000));
        }
        return type.equals("io1") || type.equals("io2") ? Math.max(0, iops) : 0;
    }

    /** Throughput (MiB/s) a gp3 volume bills beyond its baseline; 0 for every other type. */
    public static int billableThroughputMibps(String storageType, int allocatedGb, int throughputMibps) {
        if (!storageType.equalsIgnoreCase("gp3")) {
            return 0;
        }
        return Math.max(0, throughputMibps - (allocatedGb >= 400 ? 500 : 125));
    }

    /**
     * An RDS instance's whole hourly cost: the instance, plus storage, billable IOPS and billable throughput
     * spread over {@link #HOURS_PER_MONTH}; empty when any part that is billed has no known price
     * ({@link #rdsMissingPrices} names which).
     */
    public Optional<HourlyCost> rdsHourlyCost(RdsShape shape) {
        if (!rdsMissingPrices(shape).isEmpty()) {
            return Optional.empty();
        }
        int copies = shape.multiAz() ? 2 : 1;
        double instance = rdsInstanceHourlyUsd(shape.region(), shape.dbInstanceClass(), shape.multiAz()).getAsDouble();
        double gbMonth = rdsStorageGbMonthUsd(shape.region(), shape.storageType()).getAsDouble();
        double storage = copies * shape.allocatedGb() * gbMonth / HOURS_PER_MONTH;
        int iops = billableIops(shape.storageType(), shape.allocatedGb(), shape.iops());
        double iopsUsd = iops == 0 ? 0
                : copies * iops * rdsProvisionedIopsMonthUsd(shape.region(), shape.storageType()).getAsDouble()
                        / HOURS_PER_MONTH;
        int mibps = billableThroughputMibps(shape.storageType(), shape.allocatedGb(), shape.throughputMibps());
        double mibpsUsd = mibps == 0 ? 0
                : copies * mibps * rdsThroughputMibpsMonthUsd(shape.region(), shape.storageType()).getAsDouble()
                        / HOURS_PER_MONTH;
        StringBuilder basis = new StringBuilder("price table ").append(date).append(": ")
                .append(shape.dbInstanceClass()).append(' ').append(shape.region())
                .append(shape.multiAz() ? " Multi-AZ " : " Single-AZ ").append(usd(instance)).append("/h + ")
                .append(copies == 2 ? "2 x " : "").append(shape.storageType()).append(' ')
                .append(shape.allocatedGb()).append(" GB x ").append(usd(gbMonth)).append("/GB-month");
        if (iops > 0) {
            basis.append(" + ").append(iops).append(" billable IOPS");
        }
        if (mibps > 0) {
            basis.append(" + ").append(mibps).append(" billable MiB/s");
        }
        basis.append(", per month of ").append((int) HOURS_PER_MONTH).append(" h");
        return Optional.of(new HourlyCost(instance + storage + iopsUsd + mibpsUsd, basis.toString()));
    }

    /** Each price {@link #rdsHourlyCost} needs and the table lacks, in words; empty when it has them all. */
    public List<String> rdsMissingPrices(RdsShape shape) {
        List<String> missing = new ArrayList<>();
        String where = " in " + shape.region() + " (price table " + date + ")";
        if (rdsInstanceHourlyUsd(shape.region(), shape.dbInstanceClass(), shape.multiAz()).isEmpty()) {
            missing.add("no known price for " + shape.dbInstanceClass() + (shape.multiAz() ? " Multi-AZ" : " Single-AZ")
                    + " PostgreSQL" + where);
        }
        if (shape.allocatedGb() > 0 && rdsStorageGbMonthUsd(shape.region(), shape.storageType()).isEmpty()) {
            missing.add("no known price for RDS " + shape.storageType() + " storage" + where);
        }
        if (billableIops(shape.storageType(), shape.allocatedGb(), shape.iops()) > 0
                && rdsProvisionedIopsMonthUsd(shape.region(), shape.storageType()).isEmpty()) {
            missing.add("no known price for RDS " + shape.storageType() + " provisioned IOPS" + where);
        }
        if (billableThroughputMibps(shape.storageType(), shape.allocatedGb(), shape.throughputMibps()) > 0
                && rdsThroughputMibpsMonthUsd(shape.region(), shape.storageType()).isEmpty()) {
            missing.add("no known price for RDS " + shape.storageType() + " throughput" + where);
        }
        return List.copyOf(missing);
    }

    private static String usd(double v) {
        return String.format(Locale.ROOT, "$%.4f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    private static String key(String... parts) {
        return String.join("|", parts).toLowerCase(Locale.ROOT);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? "" : v.asText();
    }

    private static OptionalDouble optional(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || !v.isNumber() ? OptionalDouble.empty() : OptionalDouble.of(v.asDouble());
    }

    /**
     * On-demand prices read now from the AWS Price List API ({@code GetProducts}, at its {@code us-east-1} endpoint
     * whatever the region priced), for {@code run --live-prices}. Blocking; call from a command thread.
     *
     * <p>An RDS for PostgreSQL instance is the product of service {@code AmazonRDS} with {@code regionCode},
     * {@code instanceType}, {@code databaseEngine=PostgreSQL} and {@code deploymentOption} (Single-AZ or Multi-AZ) as
     * given; its price is the {@code OnDemand} term's dimension in {@code Hrs}, {@code pricePerUnit.USD}.
     */
    public static final class LivePrices {

        private static final ObjectMapper JSON = new ObjectMapper();

        private LivePrices() {
        }

        /**
         * The instance's hourly price, or empty when the API lists no such product (or none with an hourly USD price).
         *
         * @param endpoint the Price List API's endpoint instead of AWS's (tests), or null
         * @throws IllegalStateException with one line when the API cannot be asked
         */
        public static OptionalDouble rdsInstanceHourlyUsd(AwsSettings credentialsFrom, URI endpoint, String region,
                                                          String dbInstanceClass, boolean multiAz) {
            AwsSettings aws = new AwsSettings(Region.US_EAST_1, endpoint, credentialsFrom.credentials());
            try (PricingClient pricing = aws.build(PricingClient.builder())) {
                GetProductsResponse resp = pricing.getProducts(b -> b.serviceCode("AmazonRDS").formatVersion("aws_v1")
                        .maxResults(10).filters(List.of(
                                match("regionCode", region), match("instanceType", dbInstanceClass),
                                match("databaseEngine", "PostgreSQL"),
                                match("deploymentOption", multiAz ? "Multi-AZ" : "Single-AZ"))));
                for (String product : resp.priceList()) {
                    OptionalDouble usd = onDemandHourlyUsd(product);
                    if (usd.isPresent()) {
                        return usd;
                    }
                }
                return OptionalDouble.empty();
            } catch (SdkException e) {
                throw new IllegalStateException("live prices: the AWS Price List API did not answer GetProducts for "
                        + dbInstanceClass + " in " + region + ": " + oneLine(e.getMessage()));
            }
        }

        /** A Price List product document's on-demand price per hour in USD, or empty. */
        static OptionalDouble onDemandHourlyUsd(String productJson) {
            try {
                JsonNode terms = JSON.readTree(productJson).path("terms").path("OnDemand");
                for (JsonNode term : terms) {
                    for (JsonNode dimension : term.path("priceDimensions")) {
                        String usd = dimension.path("pricePerUnit").path("USD").asText("");
                        if ("Hrs".equals(dimension.path("unit").asText()) && !usd.isEmpty()) {
                            double v = Double.parseDouble(usd);
                            if (v > 0) {
                                return OptionalDouble.of(v);
                            }
                        }
                    }
                }
                return OptionalDouble.empty();
            } catch (IOException | NumberFormatException e) {
                return OptionalDouble.empty();
            }
        }

        private static Filter match(String field, String value) {
            return Filter.builder().type(FilterType.TERM_MATCH).field(field).value(value).build();
        }

        private static String oneLine(String s) {
            return s == null ? "no reason given" : s.strip().replaceAll("\\s+", " ");
        }
    }
}
