package io.rigscope.collectors.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.awsstandin.AwsAnswer;
import io.rigscope.awsstandin.AwsCall;
import io.rigscope.awsstandin.AwsStandIn;
import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.codec.WireLine;
import io.rigscope.model.wire.CloudWatchPoint;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Schedulers;

/** Each RDS source through the real AWS SDK client against an {@link AwsStandIn} answering {@link FakeAws} fixtures. */
@Tag("it")
class AwsCollectorsTest {

    private static final String DBI = "db-ABCDEFGHIJKLMNOPQRSTUVWXY1";
    private static final Backoff FAST = new Backoff(Duration.ofMillis(20), Duration.ofMillis(50));

    private AwsStandIn aws;

    @BeforeEach
    void start() throws Exception {
        aws = AwsStandIn.start();
    }

    @AfterEach
    void stop() {
        aws.close();
    }

    private static CollectorContext at(String instant) {
        return new CollectorContext("s1", () -> 1, "rig", Clock.fixed(Instant.parse(instant), ZoneOffset.UTC));
    }

    private static void assertNoCredentials(List<WireRecord> records) {
        WireCodec codec = new WireCodec();
        for (WireRecord r : records) {
            String line = WireLine.of(codec, r).render(codec);
            assertThat(line).doesNotContain(FakeAws.SECRET_KEY).doesNotContain(FakeAws.ACCESS_KEY);
        }
    }

    @Test
    void enhancedMonitoringReadsTheInstancesStreamAndParsesTheRealDocumentShape() {
        String doc = FakeAws.fixture("em-document.json").strip();
        aws.route("GetLogEvents", call -> {
            var resp = FakeAws.json().createObjectNode();
            var events = resp.putArray("events");
            if (!call.json().has("nextToken")) {
                events.addObject().put("timestamp", 1796018401000L).put("message", doc).put("ingestionTime", 1796018402000L);
                events.addObject().put("timestamp", 1796018402000L).put("message", "not a document").put("ingestionTime", 1796018402000L);
            }
            resp.put("nextForwardToken", "f/0001").put("nextBackwardToken", "b/0001");
            return AwsAnswer.json(resp.toString());
        });
        var collector = new EnhancedMonitoringCollector(new EnhancedMonitoringCollector.Config(DBI,
                Instant.parse("2026-11-30T06:00:00Z"), Duration.ofMillis(50)), FakeAws.settings(aws), at("2026-11-30T06:00:05Z"));

        List<WireRecord> out = collector.records(Schedulers.boundedElastic(), FAST).take(Duration.ofSeconds(2))
                .collectList().block(Duration.ofSeconds(10));

        assertThat(out).singleElement().isInstanceOf(OsMetrics.class);
        OsMetrics em = (OsMetrics) out.get(0);
        assertThat(em.src()).isEqualTo("em@" + DBI);
        assertThat(em.rep()).isEqualTo(1);
        assertThat(em.ts()).isEqualTo(Instant.parse("2026-11-30T06:00:01Z").getEpochSecond() * 1_000_000L);
        assertThat(em.engine()).isEqualTo("POSTGRES");
        assertThat(em.cpuUtilization().ioWait()).isEqualTo(21.30);
        assertThat(em.memory().dirty()).isEqualTo(65000);
        assertThat(em.diskIO()).extracting(OsMetrics.DiskIO::device).containsExactly("rdsdev", "filesystem");
        OsMetrics.DiskIO rdsdev = em.diskIO().get(0);
        assertThat(rdsdev.avgReqSz()).isEqualTo(6.15);
        assertThat(rdsdev.avgQueueLen()).isEqualTo(212.40);
        assertThat(rdsdev.writeIOsPS()).isEqualTo(3000.0);
        OsMetrics.DiskIO fs = em.diskIO().get(1);
        assertThat(fs.avgQueueLen()).isEqualTo(215.0);
        assertThat(fs.writeKbPS()).isEqualTo(18432.0);
        assertThat(em.physicalDeviceIO()).singleElement().satisfies(d -> assertThat(d.device()).isEqualTo("nvme1n1"));
        assertThat(collector.skipped()).isEqualTo(1);

        AwsCall first = aws.calls("GetLogEvents").get(0);
        assertThat(first.json().get("logGroupName").asText()).isEqualTo("RDSOSMetrics");
        assertThat(first.json().get("logStreamName").asText()).isEqualTo(DBI);
        assertThat(first.json().get("startFromHead").asBoolean()).isTrue();
        assertThat(first.json().get("startTime").asLong()).isEqualTo(Instant.parse("2026-11-30T06:00:00Z").toEpochMilli());
        assertThat(aws.calls("GetLogEvents").subList(1, aws.calls("GetLogEvents").size()))
                .allSatisfy(c -> assertThat(c.json().get("nextToken").asText()).isEqualTo("f/0001"));
        assertThat(first.authorization()).contains("Credential=" + FakeAws.ACCESS_KEY + "/")
                .doesNotContain(FakeAws.SECRET_KEY);
        assertNoCredentials(out);
    }

    @Test
    void performanceInsightsGroupsDbLoadByWaitEventPerSecondAcrossPages() {
        aws.route("GetResourceMetrics", call -> AwsAnswer.json(FakeAws.fixture(
                call.json().has("NextToken") ? "pi-page2.json" : "pi-page1.json")));
        var collector = new PerformanceInsightsCollector(new PerformanceInsightsCollector.Config(DBI,
                Instant.parse("2026-11-30T06:00:00Z"), Duration.ofSeconds(30), Duration.ofSeconds(5)), FakeAws.settings(aws),
                at("2026-11-30T06:00:08Z"));

        List<WireRecord> out = collector.records(Schedulers.boundedElastic(), FAST).take(3).collectList()
                .block(Duration.ofSeconds(10));

        assertThat(out).hasSize(3).allSatisfy(r -> assertThat(r).isInstanceOf(Waits.class));
        Waits second = (Waits) out.get(1);
        assertThat(second.ts()).isEqualTo(1796018401L * 1_000_000L);
        assertThat(second.periodSec()).isEqualTo(1);
        assertThat(second.load()).containsEntry("LWLock:WALWrite", 6.0).containsEntry("CPU", 1.0)
                .containsEntry("IO:WALSync", 2.0).hasSize(3);
        assertThat(((Waits) out.get(2)).load()).doesNotContainKey("IO:WALSync");

        AwsCall call = aws.calls("GetResourceMetrics").get(0);
        assertThat(call.json().get("ServiceType").asText()).isEqualTo("RDS");
        assertThat(call.json().get("Identifier").asText()).isEqualTo(DBI);
        assertThat(call.json().get("PeriodInSeconds").asInt()).isEqualTo(1);
        assertThat(call.json().at("/MetricQueries/0/Metric").asText()).isEqualTo("db.load.avg");
        assertThat(call.json().at("/MetricQueries/0/GroupBy/Group").asText()).isEqualTo("db.wait_event");
        assertThat(call.json().get("EndTime").asLong()).isEqualTo(1796018403L);
        assertThat(aws.calls("GetResourceMetrics").get(1).json().get("NextToken").asText()).isEqualTo("page-2");
        assertNoCredentials(out);
    }

    @Test
    void aQuietSecondThatPerformanceInsightsSampledIsPublishedAsZeroLoadNotLeftAHole() {
        // no session active: PI answers with the ungrouped total only (0.0), no group; a second with no value
        // was not sampled and stays absent
        aws.route("GetResourceMetrics", call -> AwsAnswer.json(FakeAws.fixture("pi-quiet.json")));
        var collector = new PerformanceInsightsCollector(new PerformanceInsightsCollector.Config(DBI,
                Instant.parse("2026-11-30T06:00:00Z"), Duration.ofSeconds(30), Duration.ofSeconds(5)), FakeAws.settings(aws),
                at("2026-11-30T06:00:08Z"));

        List<WireRecord> out = collector.records(Schedulers.boundedElastic(), FAST).take(2).collectList()
                .block(Duration.ofSeconds(10));

        assertThat(out).hasSize(2).allSatisfy(r -> {
            assertThat(r).isInstanceOf(Waits.class);
            assertThat(((Waits) r).load()).isEmpty();
            assertThat(((Waits) r).totalActive()).isZero();
        });
        assertThat(out).extracting(WireRecord::ts).containsExactly(1796018400L * 1_000_000L, 1796018401L * 1_000_000L);
    }

    @Test
    void anAwsErrorYieldsAGapMarkerAndTheSourceIsReadAgain() {
        AtomicInteger n = new AtomicInteger();
        aws.route("GetResourceMetrics", call -> n.incrementAndGet() == 1
                ? AwsAnswer.of(400, "application/x-amz-json-1.1",
                        "{\"__type\":\"InvalidArgumentException\",\"Message\":\"Performance Insights is not enabled\"}")
                : AwsAnswer.json(FakeAws.fixture(call.json().has("NextToken") ? "pi-page2.json" : "pi-page1.json")));
        var collector = new PerformanceInsightsCollector(new PerformanceInsightsCollector.Config(DBI,
                Instant.parse("2026-11-30T06:00:00Z"), Duration.ofSeconds(30), Duration.ofSeconds(5)), FakeAws.settings(aws),
                at("2026-11-30T06:00:08Z"));

        List<WireRecord> out = collector.records(Schedulers.boundedElastic(), FAST).take(3).collectList()
                .block(Duration.ofSeconds(10));

        assertThat(out.get(0)).isInstanceOfSatisfying(Marker.class, m -> {
            assertThat(m.kind()).isEqualTo(Marker.Kind.GAP);
            assertThat(((io.rigscope.model.wire.Gap) m.body()).reason()).contains("Performance Insights is not enabled");
        });
        assertThat(out.get(1)).isInstanceOf(Marker.class);
        assertThat(out.get(2)).isInstanceOf(Waits.class);
        assertNoCredentials(out);
    }

    @Test
    void cloudWatchReadsTheSixRdsMetricsAndPublishesEachDatapointOnce() {
        aws.route("GetMetricData", call -> AwsAnswer.xml(FakeAws.fixture("cloudwatch-get-metric-data.xml")));
        var collector = new CloudWatchCollector(new CloudWatchCollector.Config("bench-db-1", null,
                Instant.parse("2026-11-30T06:00:00Z"), Duration.ofMillis(50)), FakeAws.settings(aws), at("2026-11-30T06:02:10Z"));

        List<WireRecord> out = collector.records(Schedulers.boundedElastic(), FAST).take(Duration.ofSeconds(2))
                .collectList().block(Duration.ofSeconds(10));

        assertThat(aws.calls("GetMetricData").size()).isGreaterThan(1);
        assertThat(out).hasSize(3).allSatisfy(r -> assertThat(r).isInstanceOf(CloudWatchPoint.class));
        List<CloudWatchPoint> points = out.stream().map(CloudWatchPoint.class::cast).toList();
        assertThat(points).extracting(CloudWatchPoint::metric).containsExactlyInAnyOrder("WriteIOPS", "WriteIOPS",
                "DiskQueueDepth");
        CloudWatchPoint last = points.get(2);
        assertThat(last.metric()).isEqualTo("WriteIOPS");
        assertThat(last.value()).isEqualTo(3012.25);
        assertThat(last.unit()).isEqualTo("Count/Second");
        assertThat(last.periodSec()).isEqualTo(60);
        assertThat(last.dimensions()).containsEntry("DBInstanceIdentifier", "bench-db-1");

        var form = aws.calls("GetMetricData").get(0).form();
        assertThat(form).containsEntry("MetricDataQueries.member.1.MetricStat.Metric.Namespace", "AWS/RDS")
                .containsEntry("MetricDataQueries.member.1.MetricStat.Period", "60")
                .containsEntry("MetricDataQueries.member.1.MetricStat.Stat", "Average");
        assertThat(form.entrySet()).filteredOn(e -> e.getKey().endsWith("MetricStat.Metric.MetricName"))
                .extracting(java.util.Map.Entry::getValue).containsExactlyInAnyOrder("CPUUtilization", "DiskQueueDepth",
                        "FreeableMemory", "ReadIOPS", "WriteIOPS", "WriteThroughput");
        assertNoCredentials(out);
    }

    @Test
    void rdsLogFollowsEachFilesMarkerAcrossRotationAndParsesTheRdsPrefix() {
        aws.route("DescribeDBLogFiles", call -> AwsAnswer.xml(FakeAws.fixture("rds-describe-log-files.xml")));
        aws.route("DownloadDBLogFilePortion", call -> {
            String file = call.form().get("LogFileName");
            String marker = call.form().get("Marker");
            String fixture = switch (file + "@" + marker) {
                case "error/postgresql.log.2026-11-30-05@0" -> "rds-download-05-part1.xml";
                case "error/postgresql.log.2026-11-30-05@5:63" -> "rds-download-05-part2.xml";
                case "error/postgresql.log.2026-11-30-06@0" -> "rds-download-06.xml";
                default -> "rds-download-empty.xml";
            };
            return AwsAnswer.xml(FakeAws.fixture(fixture));
        });
        var collector = new RdsLogCollector(new RdsLogCollector.Config("bench-db-1", null,
                Instant.parse("2026-11-30T05:00:00Z"), Duration.ofMillis(50)), FakeAws.settings(aws), at("2026-11-30T06:01:00Z"));

        List<WireRecord> out = collector.events(Schedulers.boundedElastic(), FAST).take(Duration.ofSeconds(3))
                .collectList().block(Duration.ofSeconds(10));

        assertThat(out).extracting(r -> ((PgLogEvent) r).kind()).containsExactly(PgLogEvent.Kind.CHECKPOINT_START,
                PgLogEvent.Kind.AUTOVACUUM, PgLogEvent.Kind.CHECKPOINT_COMPLETE, PgLogEvent.Kind.ERROR);
        PgLogEvent vacuum = (PgLogEvent) out.get(1);
        assertThat(vacuum.pid()).isEqualTo(7788);
        assertThat(vacuum.metrics()).containsEntry("wal_fpi", 249999.0);
        assertThat(vacuum.src()).isEqualTo("rdslog@bench-db-1");
        var downloads = aws.calls("DownloadDBLogFilePortion");
        assertThat(downloads.get(0).form()).containsEntry("DBInstanceIdentifier", "bench-db-1");
        assertThat(downloads).extracting(c -> c.form().get("LogFileName") + "@" + c.form().get("Marker"))
                .startsWith("error/postgresql.log.2026-11-30-05@0", "error/postgresql.log.2026-11-30-05@5:63",
                        "error/postgresql.log.2026-11-30-06@0", "error/postgresql.log.2026-11-30-05@5:812",
                        "error/postgresql.log.2026-11-30-06@6:407");
        assertThat(collector.counts().raw()).isZero();
        assertNoCredentials(out);
    }

    @Test
    void settingsNeverPrintCredentials() {
        assertThat(FakeAws.settings(aws).toString()).doesNotContain(FakeAws.SECRET_KEY).doesNotContain(FakeAws.ACCESS_KEY)
                .contains("StaticCredentialsProvider");
    }
}
