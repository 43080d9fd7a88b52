package io.rigscope.rig.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.awsstandin.rds.RdsStandIn;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.aws.CloudWatchCollector;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.CloudWatchPoint;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.pg.PgUrl;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The rds profile for real: a private cluster logging as RDS does, its telemetry through the RDS stand-in and the
 * real RDS collectors, and how the profile judges results.
 */
@Tag("it")
class CalibrationProfileTest {

    /** Faster polls than the collectors' defaults, so the test is short; CloudWatch's periods stay 60 s. */
    private static final RdsTelemetry.Polls QUICK = new RdsTelemetry.Polls(Duration.ofSeconds(1), Duration.ofSeconds(2),
            Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(2));

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void rdsTelemetryCarriesNoCanaryNorVmstatAndItsStreamsHaveTheEmPiAndCloudWatchShapes() throws Exception {
        List<WireRecord> published = new CopyOnWriteArrayList<>();
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        String series = "cal-profile-test";
        try (PrivatePostgres pg = PrivatePostgres.startTemporary(CalibrationProfile.RDS.cluster(CaseRun.BASE_CLUSTER))) {
            PgUrl url = PgUrl.parse("private", pg.libpqUrl("postgres", "postgres"));
            try (RdsTelemetry rds = RdsTelemetry.start(new RdsTelemetry.Source(url, pg.dataDir(), pg.logFile(),
                            List.of()), new CollectorContext(series, () -> 1, "local", Clock.systemUTC()), QUICK,
                    published::add, new PrintStream(said, true, StandardCharsets.UTF_8))) {
                // an active session PI can see, and checkpoints for the log
                Background sleeper = Background.start("sleeper", () -> pg.psql("postgres", "SELECT pg_sleep(4)"));
                pg.psql("postgres", "CHECKPOINT");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (System.nanoTime() < deadline && !(has(published, CloudWatchPoint.class)
                        && has(published, PgLogEvent.class) && published.stream().anyMatch(r -> r instanceof Waits w
                        && w.load().getOrDefault("Timeout:PgSleep", 0.0) > 0))) {
                    Thread.sleep(500);
                }
                sleeper.join(Duration.ofSeconds(10));
                assertThat(rds.calls()).containsKeys("GetLogEvents", "GetResourceMetrics", "DescribeDBLogFiles",
                        "DownloadDBLogFilePortion", "GetMetricData");
            }
            String dbi = RdsTelemetry.dbiResourceId(series);
            String instance = RdsTelemetry.instanceId(series);

            assertThat(published).noneMatch(r -> r instanceof Canary).noneMatch(r -> r instanceof Vmstat);
            assertThat(said.toString(StandardCharsets.UTF_8)).doesNotContain("failed");

            List<OsMetrics> em = of(published, OsMetrics.class);
            assertThat(em).isNotEmpty().allSatisfy(d -> {
                assertThat(d.src()).isEqualTo("em@" + dbi);
                assertThat(d.engine()).isEqualTo("POSTGRES");
                assertThat(d.ts() % 1_000_000L).isZero();
                assertThat(d.diskIO()).extracting(OsMetrics.DiskIO::device).containsExactly(RdsStandIn.DATA_DEVICE);
                assertThat(d.physicalDeviceIO()).isEmpty();
                assertThat(d.rep()).isEqualTo(1);
            });
            assertThat(em).extracting(OsMetrics::ts).doesNotHaveDuplicates().isSorted();

            List<Waits> pi = of(published, Waits.class);
            assertThat(pi).isNotEmpty().allSatisfy(w -> {
                assertThat(w.src()).isEqualTo("pi@" + dbi);
                assertThat(w.periodSec()).isEqualTo(1);
                assertThat(w.ts() % 1_000_000L).isZero();
            });
            assertThat(pi).anySatisfy(w -> assertThat(w.load().get("Timeout:PgSleep")).isEqualTo(1.0));

            List<PgLogEvent> log = of(published, PgLogEvent.class);
            assertThat(log).isNotEmpty().allSatisfy(e -> assertThat(e.src()).isEqualTo("rdslog@" + instance));
            assertThat(log).filteredOn(e -> e.kind() == PgLogEvent.Kind.CHECKPOINT_COMPLETE).isNotEmpty()
                    .allSatisfy(e -> {
                        assertThat(e.pid()).isPositive();
                        assertThat(e.ts() % 1_000_000L).isZero(); // %t: whole seconds
                    });
            assertThat(Files.readAllLines(pg.logFile())).filteredOn(l -> l.contains("checkpoint complete"))
                    .allMatch(l -> l.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC:[^:]*:[^@]*@[^:]*:\\[\\d+\\]:"
                            + "LOG:  checkpoint complete.*"));

            List<CloudWatchPoint> cw = of(published, CloudWatchPoint.class);
            assertThat(cw).isNotEmpty().allSatisfy(p -> {
                assertThat(p.src()).isEqualTo("cloudwatch@" + instance);
                assertThat(p.namespace()).isEqualTo("AWS/RDS");
                assertThat(p.periodSec()).isEqualTo(60);
                assertThat(p.stat()).isEqualTo("Average");
                assertThat(p.ts() % 60_000_000L).isZero();
                assertThat(p.dimensions()).containsEntry("DBInstanceIdentifier", instance);
                assertThat(p.unit()).isEqualTo(CloudWatchCollector.DEFAULT_METRICS.get(p.metric()));
            });
            assertThat(cw).extracting(CloudWatchPoint::metric)
                    .containsAll(CloudWatchCollector.DEFAULT_METRICS.keySet());

            assertThat(of(published, DbSample.class)).isNotEmpty();
            assertThat(published.stream().map(WireRecord::topic).map(t -> t.topicName()).distinct())
                    .doesNotContain("rig.canary", "rig.vmstat");
        }
    }

    @Test
    void rdsRequiresWalPoolAndVacuumStormAttributedAndRefusesOnlyAConfidentWrongAnswerElsewhere() {
        CalibrationCase wal = new WalPoolCase();
        CalibrationCase vacuum = new VacuumStormCase();
        CalibrationCase hotRow = new HotRowCase();

        assertThat(CalibrationProfile.RDS.judge(wal, result(wal, "wal_pool", "most_likely")).ok()).isFalse();
        assertThat(CalibrationProfile.RDS.judge(wal, result(wal, "wal_pool", "attributed")).ok()).isTrue();
        assertThat(CalibrationProfile.RDS.judge(vacuum, result(vacuum, "vacuum_storm", "most_likely")).ok()).isFalse();
        assertThat(CalibrationProfile.RDS.judge(vacuum, result(vacuum, "vacuum_storm", "attributed")).ok()).isTrue();
        assertThat(CalibrationProfile.RDS.judge(hotRow, result(hotRow, "storage", "attributed")).ok()).isFalse();
        assertThat(CalibrationProfile.RDS.judge(hotRow, result(hotRow, "storage", "most_likely")).ok()).isTrue();
        assertThat(CalibrationProfile.RDS.judge(hotRow, result(hotRow, "unattributed", "unattributed")).ok()).isTrue();
        // local is unchanged: the case's own judgement
        CaseResult mostLikely = result(wal, "wal_pool", "most_likely");
        assertThat(CalibrationProfile.LOCAL.judge(wal, mostLikely)).isSameAs(mostLikely);
    }

    private static CaseResult result(CalibrationCase c, String found, String confidence) {
        return new CaseResult(c.name(), c.expected(), found, confidence, "", 3, 0, "FAIL", "", "",
                found.equals(c.expected()));
    }

    private static boolean has(List<WireRecord> records, Class<? extends WireRecord> type) {
        return records.stream().anyMatch(type::isInstance);
    }

    private static <T extends WireRecord> List<T> of(List<WireRecord> records, Class<T> type) {
        return records.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
