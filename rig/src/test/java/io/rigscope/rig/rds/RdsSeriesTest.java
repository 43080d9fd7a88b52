package io.rigscope.rig.rds;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.awsstandin.rds.RdsInstance;
import io.rigscope.awsstandin.rds.RdsStandIn;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.os.OsMetricsCollector;
import io.rigscope.collectors.waits.WaitsCollector;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.Waits;
import io.rigscope.pg.PgUrl;
import io.rigscope.rig.cli.RigscopeRun;
import io.rigscope.rig.environment.EnvironmentFacts;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.sut.RunningSut;
import io.rigscope.sut.SutContract;
import io.rigscope.sut.db.Sql;
import io.rigscope.sut.testing.SutOnPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.Disposable;
import reactor.core.Disposables;

/**
 * {@code run --config} with {@code rds:} against the RDS stand-in, the test's private cluster standing in for the
 * instance's database: the real RDS client and collectors through the AWS SDK, the real broker, the real analyzer.
 */
@Tag("it")
class RdsSeriesTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();
    /** Logs as RDS does: the RDS log collector parses it with RDS's prefix, in UTC. */
    @RegisterExtension
    static final SutOnPostgres db = new SutOnPostgres(PrivatePostgres.Options.defaults()
            .with("log_line_prefix", "'%t:%r:%u@%d:[%p]:'").with("log_timezone", "'UTC'"));

    private static final String ID = "rigscope-pg";
    private static final String DBI = "db-ABCDEFGHIJKLMNOPQRSTUVWXYZ";

    @BeforeAll
    static void placeholderCredentials() {
        // the SDK's default chain reads these system properties; the stand-in checks no signature
        System.setProperty("aws.accessKeyId", "AKIDRIGSCOPESTANDIN0");
        System.setProperty("aws.secretAccessKey", "placeholder-for-the-local-stand-in");
    }

    @AfterAll
    static void clearProperties() {
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
        System.clearProperty("aws.ec2MetadataServiceEndpoint");
    }

    /** The stand-in instance: a db.t4g.micro (priced in the bundled table) whose parameters are the cluster's. */
    private static RdsInstance instance(String zone, boolean performanceInsights) {
        PgUrl owner = db.owner();
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("application_name", null);
        List<String[]> rows = Sql.blockList(owner.connectionFactory("test"), Duration.ofSeconds(10),
                "SELECT name, setting FROM pg_settings WHERE name = ANY($1::text[]) OR name LIKE 'autovacuum%' "
                        + "OR name LIKE 'checkpoint%' ORDER BY name",
                r -> new String[] {r.get("name", String.class), r.get("setting", String.class)},
                (Object) EnvironmentFacts.SETTINGS.toArray(String[]::new));
        rows.forEach(r -> parameters.put(r[0], r[1]));
        parameters.put("work_mem", null);
        return new RdsInstance(ID, DBI, "db.t4g.micro", "15.8", "gp3", 100, 3000, 125, zone, false,
                "127.0.0.1", db.cluster().port(), "rigscope-pg15", 1, "arn:aws:iam::123456789012:role/rds-monitoring",
                performanceInsights, parameters, 0.0175);
    }

    /**
     * The stand-in calibrate's rds profile uses, fed the same way (the cluster's device: Enhanced Monitoring and
     * CloudWatch, its minute in progress too; its sessions: Performance Insights; its log), describing {@code instance}.
     */
    private static RdsStandIn standIn(RdsInstance instance, String loadHostZone) {
        Clock clock = Clock.systemUTC();
        CollectorContext feeder = new CollectorContext("rds-standin", () -> 0, "rds-standin", clock);
        RdsStandIn standIn = RdsStandIn.start(instance.identifier(), instance.dbiResourceId(), db.cluster().logFile(),
                clock, true, instance, loadHostZone);
        Disposable feeders = Disposables.composite(new OsMetricsCollector(new OsMetricsCollector.Config(
                db.cluster().dataDir(), Duration.ofSeconds(1), null), feeder).records().ofType(OsMetrics.class)
                .subscribe(standIn::add), new WaitsCollector(new WaitsCollector.Config(db.owner(), Duration.ofSeconds(1)),
                feeder).records().ofType(Waits.class).subscribe(standIn::add));
        return standIn.closing(feeders::dispose);
    }

    private static String config(String targetUrl, RdsStandIn standIn, String extra) {
        return "target: {url: '" + targetUrl + "', api_key: rigscope-demo-key}\n"
                + "database: " + db.owner().libpq() + "\n"
                + "reconciliation_sql: \"" + SutContract.RECONCILIATION_SQL.replace("\n", " ") + "\"\n"
                + "sustained: {rate: 150, repeats: 1, duration: 8s, cooldown: 0s}\n"
                + "load: {probe_rate: 0}\n"
                + "rds: {db_instance: " + ID + ", region: us-east-1, endpoint: '" + standIn.endpoint() + "', poll: 1s"
                + extra + "}\n";
    }

    @Test
    void aSeriesAgainstAnRdsInstanceCarriesItsFourStreamsItsFactsAndItsCost(@TempDir Path dir) throws Exception {
        ScheduledExecutorService checkpoints = Executors.newSingleThreadScheduledExecutor();
        try (RunningSut sut = db.start();
             RdsStandIn standIn = standIn(instance("us-east-1a", true), "us-east-1a")) {
            System.setProperty("aws.ec2MetadataServiceEndpoint", standIn.endpoint().toString());
            // checkpoints the RDS log will carry (log_checkpoints is on): rig.pglog from rdslog@
            checkpoints.scheduleAtFixedRate(() -> Sql.blockUpdate(db.owner().connectionFactory("test"),
                    Duration.ofSeconds(10), "CHECKPOINT"), 2, 4, TimeUnit.SECONDS);
            Path config = dir.resolve("series.yaml");
            Files.writeString(config, config(sut.baseUri().toString(), standIn, ""));
            Path wire = dir.resolve("wire.jsonl");
            Path json = dir.resolve("report.json");
            Path md = dir.resolve("report.md");
            Path html = dir.resolve("report.html");
            RigscopeRun r = RigscopeRun.rigscope("run", "--config", config.toString(), "--series",
                    "rds-" + UUID.randomUUID(), "--bootstrap", kafka.bootstrap(), "--out", wire.toString(),
                    "--report-json", json.toString(), "--report-md", md.toString(), "--report-html", html.toString());
            checkpoints.shutdownNow();
            System.out.println(r.out()); // the run's console, for docs/rds.md
            System.out.println(Files.exists(md) ? Files.readString(md) : "(no report)");

            assertThat(r.exit()).as(r.out() + r.err()).isIn(ExitCodes.OK, ExitCodes.GATES_FAILED);
            assertThat(r.out()).contains("rds: rigscope-pg: db.t4g.micro (2 vCPU, 1 GiB); gp3 100 GB, 3000 IOPS, "
                            + "125 MiB/s; us-east-1a, Single-AZ; postgres 15.8, parameter group rigscope-pg15")
                    .contains("bring-up: load host in us-east-1a, DB instance rigscope-pg in us-east-1a: same AZ")
                    .contains("rds: collecting em@" + DBI)
                    .contains("cost: 0.0318 USD/h (price table ")
                    .doesNotContain("Performance Insights is off");
            List<String> lines = Files.readAllLines(wire);
            assertThat(lines).as("Enhanced Monitoring").anyMatch(l -> l.contains("\"topic\":\"rig.os\"")
                    && l.contains("\"src\":\"em@" + DBI + "\""));
            assertThat(lines).as("Performance Insights").anyMatch(l -> l.contains("\"topic\":\"rig.waits\"")
                    && l.contains("\"src\":\"pi@" + DBI + "\""));
            assertThat(lines).as("the RDS log").anyMatch(l -> l.contains("\"topic\":\"rig.pglog\"")
                    && l.contains("\"src\":\"rdslog@" + ID + "\""));
            assertThat(lines).as("CloudWatch").anyMatch(l -> l.contains("\"topic\":\"rig.cloudwatch\"")
                    && l.contains("\"src\":\"cloudwatch@" + ID + "\""));
            assertThat(lines).as("no local stream the instance's stand for").noneMatch(l -> l.contains("\"src\":\"waits@")
                    || l.contains("\"topic\":\"rig.canary\""));

            JsonNode env = new ObjectMapper().readTree(json.toFile()).path("environment");
            assertThat(env.path("hardware").asText()).startsWith("db.t4g.micro (2 vCPU, 1 GiB); gp3 100 GB");
            assertThat(env.path("hardware_source").asText()).isEqualTo("rds:DescribeDBInstances");
            assertThat(env.path("configuration").asText()).startsWith("PostgreSQL 15.8 on RDS, parameter group "
                    + "rigscope-pg15: ").contains("max_wal_size=");
            assertThat(env.path("cost_per_hour").asDouble()).isEqualTo(0.0318);
            assertThat(env.path("cost_source").asText()).startsWith("price table 2026-")
                    .contains("db.t4g.micro us-east-1 Single-AZ $0.016/h");
            assertThat(env.path("rds").path("availability_zone").asText()).isEqualTo("us-east-1a");
            assertThat(env.path("rds").path("vcpus").asInt()).isEqualTo(2);
            assertThat(env.path("rds_parameters").path("autovacuum_naptime").isTextual()).isTrue();
            assertThat(env.path("rds_parameters").has("work_mem")).as("a parameter left at the default").isFalse();
            assertThat(Files.readString(md)).contains("Measured on db.t4g.micro (2 vCPU, 1 GiB); gp3 100 GB, 3000 IOPS, "
                    + "125 MiB/s; us-east-1a, Single-AZ (rds:DescribeDBInstances); PostgreSQL 15.8 on RDS");
            assertThat(Files.readString(md)).contains("| hardware | db.t4g.micro (2 vCPU, 1 GiB)", "| cost_per_hour | 0.0318 |",
                    "| cost_source | price table ");
            assertThat(Files.readString(html)).contains("rds:DescribeDBInstances");
            assertThat(standIn.calls()).containsKeys("DescribeDBInstances", "DescribeDBParameters", "GetLogEvents",
                    "GetResourceMetrics", "DownloadDBLogFilePortion", "GetMetricData");
            assertThat(standIn.calls().get("DescribeDBParameters")).as("paged").isGreaterThan(1);
        } finally {
            checkpoints.shutdownNow();
            System.clearProperty("aws.ec2MetadataServiceEndpoint");
        }
    }

    @Test
    void aLoadHostInAnotherZoneIsRefusedNamingBothZonesAndPerformanceInsightsOffIsSaidWithItsCommand(@TempDir Path dir)
            throws Exception {
        try (RdsStandIn standIn = standIn(instance("us-east-1a", false), "us-east-1b")) {
            System.setProperty("aws.ec2MetadataServiceEndpoint", standIn.endpoint().toString());
            Path config = dir.resolve("series.yaml");
            Files.writeString(config, config("http://127.0.0.1:1", standIn, ""));
            RigscopeRun r = RigscopeRun.rigscope("run", "--config", config.toString(), "--series",
                    "rds-az-" + UUID.randomUUID(), "--bootstrap", kafka.bootstrap());
            System.out.println(r.out() + r.err()); // for docs/rds.md
            assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("the load host is in us-east-1b and DB instance rigscope-pg in us-east-1a")
                    .contains("rds.allow_cross_az");
            assertThat(r.out()).contains("bring-up: on rigscope-pg Performance Insights is off", "aws rds "
                    + "modify-db-instance --db-instance-identifier rigscope-pg --monitoring-interval 1 "
                    + "--monitoring-role-arn arn:aws:iam::123456789012:role/rds-monitoring "
                    + "--enable-performance-insights --apply-immediately")
                    .doesNotContain("sustained");
        } finally {
            System.clearProperty("aws.ec2MetadataServiceEndpoint");
        }
    }

    /** The stand-in's Price List API lists 0.0175 USD/h for the class: not the bundled table's 0.016. */
    @Test
    void livePricesPriceTheInstanceThroughThePriceListApi() {
        try (RdsStandIn standIn = standIn(instance("us-east-1a", true), null)) {
            System.setProperty("aws.ec2MetadataServiceEndpoint", standIn.endpoint().toString());
            var console = new java.io.ByteArrayOutputStream();
            RdsRig rig = RdsRig.prepare(new RdsRig.Target(ID, "us-east-1", standIn.endpoint(), null, false, true),
                    io.rigscope.rig.pricing.PriceTable.bundled(), new java.io.PrintStream(console, true,
                            java.nio.charset.StandardCharsets.UTF_8));
            RdsRig.Cost cost = rig.cost(null);
            assertThat(cost.usdPerHour()).isEqualTo(0.0333); // 0.0175 + 100 GB x 0.115 / 730
            assertThat(cost.source()).contains("db.t4g.micro us-east-1 Single-AZ $0.0175/h")
                    .contains("the instance's price from the AWS Price List API GetProducts, read ");
            assertThat(console.toString(java.nio.charset.StandardCharsets.UTF_8))
                    .contains("prices: db.t4g.micro Single-AZ PostgreSQL in us-east-1 0.0175 USD/h (AWS Price List API")
                    .contains("the load host's availability zone is unknown");
            assertThat(standIn.calls()).containsKey("GetProducts");
        } finally {
            System.clearProperty("aws.ec2MetadataServiceEndpoint");
        }
    }

    @Test
    void anRdsEndpointNobodyAnswersStopsTheRunWithOneLineBeforeAnyLoad(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("series.yaml");
        Files.writeString(config, "target: {url: 'http://127.0.0.1:1'}\nsustained: {rate: 5}\n"
                + "rds: {db_instance: nobody, region: us-east-1, endpoint: 'http://127.0.0.1:1'}\n");
        RigscopeRun r = RigscopeRun.rigscope("run", "--config", config.toString(), "--series", "rds-down-"
                + UUID.randomUUID(), "--bootstrap", kafka.bootstrap());
        assertThat(r.exit()).isEqualTo(ExitCodes.ERROR);
        assertThat(r.err()).contains("rigscope: rds: cannot describe DB instance 'nobody' in us-east-1 at "
                + "http://127.0.0.1:1: ").doesNotContain("\tat ");
        assertThat(r.err().strip().lines().filter(l -> l.startsWith("rigscope:")).count()).isEqualTo(1);
        assertThat(r.out()).doesNotContain("== sustained");
    }

    @Test
    void aTypoUnderRdsExitsTwoNamingTheKey(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("series.yaml");
        Files.writeString(config, "target: {url: 'http://127.0.0.1:1'}\nsustained: {rate: 5}\n"
                + "rds: {db_instance: x, regoin: us-east-1}\n");
        RigscopeRun r = RigscopeRun.rigscope("run", "--config", config.toString(), "--bootstrap", kafka.bootstrap());
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("rds.regoin").doesNotContain("Exception");
        Files.writeString(config, "target: {url: 'http://127.0.0.1:1'}\nsustained: {rate: 5}\nrds: {region: us-east-1}\n");
        RigscopeRun missing = RigscopeRun.rigscope("run", "--config", config.toString(), "--bootstrap",
                kafka.bootstrap());
        assertThat(missing.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err()).contains("rds.db_instance is missing");
        Files.writeString(config, "target: {url: 'http://127.0.0.1:1'}\nsustained: {rate: 5}\n");
        RigscopeRun live = RigscopeRun.rigscope("run", "--config", config.toString(), "--live-prices", "--bootstrap",
                kafka.bootstrap());
        assertThat(live.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(live.err()).contains("--live-prices prices an RDS instance");
    }
}
