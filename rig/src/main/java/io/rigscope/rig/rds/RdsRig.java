package io.rigscope.rig.rds;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.CollectorSet;
import io.rigscope.collectors.aws.AwsSettings;
import io.rigscope.collectors.aws.CloudWatchCollector;
import io.rigscope.collectors.aws.EnhancedMonitoringCollector;
import io.rigscope.collectors.aws.PerformanceInsightsCollector;
import io.rigscope.collectors.aws.RdsLogCollector;
import io.rigscope.model.wire.Environment;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.environment.EnvironmentFacts;
import io.rigscope.rig.pricing.PriceTable;
import java.io.PrintStream;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import reactor.core.publisher.Flux;
import software.amazon.awssdk.regions.Region;
import java.net.URI;
import java.time.Duration;

/**
 * A series against an RDS instance (the series file's {@code rds:}): the instance described once before load, the
 * bring-up's RDS checks, the ENVIRONMENT facts (hardware, configuration and hourly cost, each with its source) and
 * the four RDS collectors for the series' whole life. docs/rds.md.
 *
 * <p>{@link #prepare} blocks (AWS calls); {@link #collectors} only assembles cold streams.
 */
public final class RdsRig {

    /** The local collectors an RDS instance's own streams stand for: left out of a series with {@code rds:}. */
    public static final List<String> REPLACED_LOCAL = List.of("os", "waits", "pglog", "canary");

    /**
     * How long {@code run} waits for the analyzer after a series against RDS ends: the analysis decides a repeat once
     * every stream covers its end, and CloudWatch's 60-s points cover it only within their 120-s tolerance, plus the
     * 5-s grace and up to 30 s of a polled stream's lateness (TelemetryIndex#settled): ~2.5 min; the session's 90 s
     * default is too short (the calibration's rds profile waits as long, for the same reason).
     */
    public static final java.time.Duration ANALYZER_TIMEOUT = java.time.Duration.ofSeconds(240);

    private final Target target;
    private final AwsSettings aws;
    private final RdsInstance instance;
    private final PriceTable prices;

    private RdsRig(Target target, AwsSettings aws, RdsInstance instance, PriceTable prices) {
        this.target = target;
        this.aws = aws;
        this.instance = instance;
        this.prices = prices;
    }

    /**
     * Describes the instance, says what it is and which of its telemetry is off (with the command that turns it
     * on), and refuses a load host in another availability zone.
     *
     * @throws UsageException (exit 2) when the instance does not exist, or the rig is cross-AZ and
     *     {@code rds.allow_cross_az} is not set
     */
    public static RdsRig prepare(Target target, PriceTable prices, PrintStream console) {
        Objects.requireNonNull(target, "target");
        AwsSettings aws;
        try {
            aws = new AwsSettings(target.region() == null ? null : Region.of(target.region()), target.endpoint(), null);
        } catch (IllegalArgumentException e) {
            throw new UsageException("rds.region: " + e.getMessage());
        }
        RdsInstance instance = RdsLookup.describe(target, aws);
        if (target.livePrices()) {
            prices = livePrice(target, aws, instance, prices, console);
        }
        RdsRig rig = new RdsRig(target, aws, instance, prices);
        console.println("rds: " + instance.identifier() + ": " + instance.hardware() + "; " + instance.engine() + " "
                + instance.engineVersion() + ", parameter group " + instance.parameterGroup()
                + " (rds:DescribeDBInstances, rds:DescribeDBParameters)");
        rig.telemetryOff().ifPresent(line -> console.println("bring-up: " + line));
        rig.checkZone(LoadHostZone.find(), console);
        return rig;
    }

    /** {@code prices} with the instance's price read now from the AWS Price List API, when it lists one. */
    private static PriceTable livePrice(Target target, AwsSettings aws, RdsInstance instance, PriceTable prices,
                                        PrintStream console) {
        String region = instance.regionFromZone() != null ? instance.regionFromZone() : aws.region().id();
        String what = instance.dbInstanceClass() + (instance.multiAz() ? " Multi-AZ" : " Single-AZ") + " PostgreSQL in "
                + region;
        java.util.OptionalDouble usd = io.rigscope.rig.pricing.PriceTable.LivePrices.rdsInstanceHourlyUsd(aws, target.endpoint(),
                region, instance.dbInstanceClass(), instance.multiAz());
        if (usd.isEmpty()) {
            console.println("prices: the AWS Price List API lists no on-demand price for " + what
                    + ": the bundled price table's, if it has one");
            return prices;
        }
        String source = "AWS Price List API GetProducts, read " + Instant.now().truncatedTo(
                java.time.temporal.ChronoUnit.SECONDS);
        console.println("prices: " + what + " " + usd.getAsDouble() + " USD/h (" + source + ")");
        return prices.withRdsInstance(region, instance.dbInstanceClass(), instance.multiAz(), usd.getAsDouble(), source);
    }

    /** The instance as described. */
    public RdsInstance instance() {
        return instance;
    }

    /**
     * What of Performance Insights and 1-s Enhanced Monitoring is off, and the command that turns both on; empty when
     * both are on.
     */
    Optional<String> telemetryOff() {
        List<String> off = new java.util.ArrayList<>();
        if (!instance.performanceInsights()) {
            off.add("Performance Insights is off (no rig.waits: wait-event evidence will be missing)");
        }
        if (instance.monitoringIntervalSec() != 1) {
            off.add(instance.monitoringIntervalSec() == 0 ? "Enhanced Monitoring is off (no rig.os: the device view "
                    + "will be missing)" : "Enhanced Monitoring reports every " + instance.monitoringIntervalSec()
                    + " s, not 1 s (rig.os too coarse for freeze-seconds)");
        }
        if (off.isEmpty()) {
            return Optional.empty();
        }
        String role = instance.monitoringRoleArn() != null ? instance.monitoringRoleArn()
                : "ARN_OF_A_ROLE_WITH_AmazonRDSEnhancedMonitoringRole";
        return Optional.of("on " + instance.identifier() + " " + String.join("; ", off) + ". Turn both on with: "
                + "aws rds modify-db-instance --db-instance-identifier " + instance.identifier()
                + " --monitoring-interval 1 --monitoring-role-arn " + role
                + " --enable-performance-insights --apply-immediately");
    }

    /** Refuses (exit 2) a load host whose zone is known and not the instance's, unless allowed. */
    void checkZone(Optional<String> loadHostZone, PrintStream console) {
        String dbZone = instance.availabilityZone();
        if (loadHostZone.isEmpty()) {
            console.println("bring-up: the load host's availability zone is unknown (no EC2 instance metadata "
                    + "answered): same-AZ with " + instance.identifier() + " (" + dbZone + ") not checked");
            return;
        }
        String here = loadHostZone.get();
        if (dbZone == null || dbZone.equals(here)) {
            console.println("bring-up: load host in " + here + ", DB instance " + instance.identifier() + " in "
                    + (dbZone == null ? "an unknown zone" : dbZone) + (dbZone == null ? "" : ": same AZ"));
            return;
        }
        if (!target.allowCrossAz()) {
            throw new UsageException("rds: the load host is in " + here + " and DB instance " + instance.identifier()
                    + " in " + dbZone + ": a cross-AZ rig measures the network between zones, not the database "
                    + "(run from " + dbZone + ", or set rds.allow_cross_az: true)");
        }
        console.println("bring-up: load host in " + here + ", DB instance " + instance.identifier() + " in " + dbZone
                + ": CROSS-AZ (rds.allow_cross_az: true); every latency includes the hop between zones");
    }

    /** The region prices are looked up in: the instance's zone's, else the SDK's. */
    String region() {
        String fromZone = instance.regionFromZone();
        return fromZone != null ? fromZone : aws.region().id();
    }

    /**
     * The series' ENVIRONMENT facts: {@code local}'s (this host, the server's settings), or a minimal set when there
     * is no database connection, with the instance's: {@code hardware}, {@code configuration}, {@code cost_per_hour}
     * (the file's, else the price table's), each beside its {@code *_source}, and the {@code rds} and
     * {@code rds_parameters} facts whole.
     *
     * @param fileCostPerHour the series file's {@code cost_per_hour}, or null (then the price table's)
     */
    public Environment environment(Environment local, Double fileCostPerHour) {
        Map<String, Object> m = new LinkedHashMap<>(local == null ? Map.of() : local.facts());
        m.put("hardware", instance.hardware());
        m.put("hardware_source", "rds:DescribeDBInstances");
        m.put("configuration", configuration());
        m.put("configuration_source", "rds:DescribeDBParameters (parameter group " + instance.parameterGroup() + ")");
        Cost cost = cost(fileCostPerHour);
        m.remove("cost_per_hour");
        if (cost.usdPerHour() != null) {
            m.put("cost_per_hour", cost.usdPerHour());
        }
        m.put("cost_source", cost.source());
        m.put("rds", instance.facts());
        m.put("rds_parameters", instance.parameters());
        if (local == null) {
            m.put("rigscope_version", EnvironmentFacts.readVersion());
        }
        return new Environment(m);
    }

    /**
     * The hourly cost and where it came from.
     *
     * @param usdPerHour null when no price is known
     * @param source {@code series file: cost_per_hour}, the price table's basis, or why there is none
     */
    public record Cost(Double usdPerHour, String source) {
    }

    /** The file's cost when it sets one, else the instance's from the price table (instance and storage only). */
    public Cost cost(Double fileCostPerHour) {
        if (fileCostPerHour != null) {
            return new Cost(fileCostPerHour, "series file: cost_per_hour");
        }
        PriceTable.RdsShape shape = new PriceTable.RdsShape(region(), instance.dbInstanceClass(), instance.multiAz(),
                instance.storageType(), instance.allocatedGb(), instance.iops(), instance.throughputMibps());
        Optional<PriceTable.HourlyCost> hourly = prices.rdsHourlyCost(shape);
        if (hourly.isEmpty()) {
            return new Cost(null, String.join("; ", prices.rdsMissingPrices(shape)));
        }
        double usd = Math.round(hourly.get().usd() * 10_000) / 10_000.0;
        String live = prices.rdsInstanceSource(region(), instance.dbInstanceClass(), instance.multiAz())
                .filter(s -> s.startsWith("AWS Price List API")).map(s -> "; the instance's price from the " + s)
                .orElse("");
        return new Cost(usd, hourly.get().basis() + live + " (the DB instance only: the load hosts are not in it)");
    }

    /** PostgreSQL's version and the parameter group's values of the settings rules and levers read. */
    String configuration() {
        StringJoiner set = new StringJoiner(", ");
        for (String name : EnvironmentFacts.SETTINGS) {
            String v = instance.parameters().get(name);
            if (v != null) {
                set.add(name + "=" + v);
            }
        }
        return "PostgreSQL " + instance.engineVersion() + " on RDS, parameter group " + instance.parameterGroup()
                + (set.length() == 0 ? " (sets none of the settings rules read: engine defaults)" : ": " + set);
    }

    /** What runs, for the console. */
    public String describe() {
        return String.format(Locale.ROOT, "rds: collecting em@%s (Enhanced Monitoring, every %d s), pi@%s "
                        + "(Performance Insights), rdslog@%s (the instance's postgresql log), cloudwatch@%s, through AWS "
                        + "%s%s for the series' whole life; the local %s are left out (the instance's streams stand for them)",
                instance.dbiResourceId(), instance.monitoringIntervalSec(), instance.dbiResourceId(),
                instance.identifier(), instance.identifier(), aws.region().id(),
                aws.endpoint() == null ? "" : " at " + aws.endpoint(), String.join(", ", REPLACED_LOCAL))
                + "; each repeat is decided once CloudWatch's 60-s points cover its end (about 2 min after it)";
    }

    /**
     * The four RDS collectors, reading from now on, stamped by {@code ctx} (the series and the repeat in progress):
     * em and pi need the instance's DbiResourceId, rdslog and cloudwatch its identifier.
     */
    public CollectorSet collectors(CollectorContext ctx) {
        Instant since = ctx.clock().instant();
        Map<String, Flux<WireRecord>> out = new LinkedHashMap<>();
        if (instance.dbiResourceId() != null) {
            out.put("em", new EnhancedMonitoringCollector(new EnhancedMonitoringCollector.Config(
                    instance.dbiResourceId(), since, target.poll()), aws, ctx).records());
            out.put("pi", new PerformanceInsightsCollector(new PerformanceInsightsCollector.Config(
                    instance.dbiResourceId(), since, target.poll(), null), aws, ctx).records());
        }
        out.put("rdslog", new RdsLogCollector(new RdsLogCollector.Config(instance.identifier(), null, since,
                target.poll()), aws, ctx).events());
        out.put("cloudwatch", new CloudWatchCollector(new CloudWatchCollector.Config(instance.identifier(), null,
                since, target.poll()), aws, ctx).records());
        return new CollectorSet(out);
    }

    /**
     * The series file's {@code rds:} section: the RDS for PostgreSQL instance a series runs against. With it, {@code run}
     * reads the instance's facts ({@code DescribeDBInstances}, {@code DescribeDBParameters}) and runs the Enhanced
     * Monitoring, Performance Insights, RDS log and CloudWatch collectors for the series' whole life (docs/rds.md).
     *
     * @param dbInstance the DB instance identifier ({@code rds.db_instance})
     * @param region the instance's region ({@code rds.region}), or null: the AWS SDK's region chain
     * @param endpoint every AWS call goes here instead of AWS's endpoints ({@code rds.endpoint}: tests, VPC
     *                 endpoints), or null
     * @param poll how often each RDS source is read ({@code rds.poll}), or null: each collector's own (Enhanced
     *             Monitoring 5 s, Performance Insights 10 s, the log 5 s, CloudWatch 60 s)
     * @param allowCrossAz true to run when the load host is in another availability zone than the instance
     *                     ({@code rds.allow_cross_az}; default false: refused)
     * @param livePrices true to price the instance through the AWS Price List API ({@code rds.live_prices},
     *                   {@code run --live-prices}) rather than the bundled table alone
     */
    public record Target(String dbInstance, String region, URI endpoint, Duration poll, boolean allowCrossAz,
                            boolean livePrices) {

        public Target {
            Objects.requireNonNull(dbInstance, "dbInstance");
            if (poll != null && (poll.isNegative() || poll.isZero())) {
                throw new IllegalArgumentException("poll must be > 0");
            }
        }

        /** This section with the instance priced through the AWS Price List API ({@code run --live-prices}). */
        public Target withLivePrices() {
            return new Target(dbInstance, region, endpoint, poll, allowCrossAz, true);
        }
    }
}
