package io.rigscope.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.generator.plan.BodyTemplate;
import io.rigscope.generator.plan.CustomerPool;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.generator.schedule.Share;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Config;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Health;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.RepeatStart;
import io.rigscope.model.wire.SeriesEnd;
import io.rigscope.model.wire.SeriesStart;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.VerdictFacts;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The generator against a real local HTTP server, publishing through a real embedded broker. */
@Tag("it")
class GeneratorTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();
    @TempDir
    static Path dir;
    static WirePublisher publisher;
    static final WireCodec CODEC = new WireCodec();

    @BeforeAll
    static void startPublisher() {
        publisher = new WirePublisher(kafka.bootstrap(), CODEC, WirePublisher.Options.defaults());
    }

    @AfterAll
    static void stopPublisher() {
        publisher.close();
    }

    private static Scenario ingest(String url, double rate, int maxInFlight, Duration timeout) {
        return new Scenario("ingest", "POST", URI.create(url), Map.of("Authorization", "Bearer test-key"), rate,
                maxInFlight, timeout, BodyTemplate.usageEvents(5, "api_calls"));
    }

    private static LoadPlan plan(String series, LoopMode mode, Duration duration, Scenario... scenarios) {
        return new LoadPlan(series, 0, "gen-1", null, mode, duration, List.of(scenarios), null);
    }

    private static RunSummary run(LoadPlan plan, GeneratorOptions options) {
        return new Generator(RecordSink.of(publisher), options.withSpoolDir(dir)).run(plan).block(Duration.ofMinutes(1));
    }

    private static List<WireRecord> read(String series) {
        return new WireSource(kafka.bootstrap(), CODEC)
                .records(new WireSource.Spec(EnumSet.of(Topic.SAMPLES, Topic.LEDGER, Topic.MARKERS, Topic.HEALTH), series,
                        true, false), failed -> {
                            throw new AssertionError("undecodable record: " + failed.deadLetter().reason());
                        })
                .collectList().block(Duration.ofSeconds(60));
    }

    private static List<Sample> samples(List<WireRecord> records) {
        List<Sample> out = new ArrayList<>();
        records.stream().filter(r -> r instanceof SampleBatch).forEach(r -> out.addAll(((SampleBatch) r).samples()));
        return out;
    }

    private static List<Ledger> ledgers(List<WireRecord> records, String scenario) {
        return records.stream().filter(r -> r instanceof Ledger l && l.scenario().equals(scenario))
                .map(r -> (Ledger) r).toList();
    }

    private static String series() {
        return "t-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void offeredCountMatchesTheScheduleAndEveryEventIsAccountedFor() {
        try (TestServer server = new TestServer()) {
            String series = series();
            Scenario probe = new Scenario("probe", "GET", URI.create(server.url("/probe")), Map.of(), 10, 4,
                    Duration.ofSeconds(5), null);
            List<SecondReport> seconds = new CopyOnWriteArrayList<>();
            RunSummary summary = run(plan(series, LoopMode.OPEN, Duration.ofSeconds(3),
                            ingest(server.url("/v1/usage-events"), 200, 1000, Duration.ofSeconds(5)), probe),
                    GeneratorOptions.defaults().withListener(seconds::add));

            ScenarioSummary in = summary.scenario("ingest");
            assertThat(in.scheduled()).isEqualTo(600);
            assertThat(in.sent()).isEqualTo(600);
            assertThat(in.dropped()).isZero();
            assertThat(in.completed()).isEqualTo(600);
            assertThat(in.inFlightMax()).isBetween(1, 1000);
            assertThat(in.failed()).isZero();
            assertThat(server.duplicateKeys.get()).isZero();
            assertThat(summary.scenario("probe").scheduled()).isEqualTo(30);
            assertThat(summary.recordsPublished()).isEqualTo(summary.recordsProduced());

            List<WireRecord> records = read(series);
            List<Sample> samples = samples(records);
            assertThat(samples).hasSize(630);
            assertThat(samples.stream().filter(s -> s.scenario().equals("probe"))).hasSize(30)
                    .allSatisfy(s -> assertThat(s.batch()).isZero());
            assertThat(samples.stream().filter(s -> s.scenario().equals("ingest")).mapToLong(Sample::qty).sum())
                    .isEqualTo(server.quantity.get());
            // every 2xx request's events reached the server exactly once, by the samples read back from Kafka
            Claims claimed = Claims.of(samples.stream().filter(s -> s.scenario().equals("ingest")).toList());
            assertThat(claimed.events()).isEqualTo(3000).isEqualTo(server.events.get());
            assertThat(claimed.quantity()).isEqualTo(server.quantity.get());
            List<Ledger> ledger = ledgers(records, "ingest");
            assertThat(ledger.stream().mapToLong(Ledger::scheduled).sum()).isEqualTo(600);
            assertThat(ledger.stream().mapToLong(Ledger::completed).sum()).isEqualTo(600);
            assertThat(ledger.stream().filter(Ledger::last)).hasSize(1);
            assertThat(ledger.get(ledger.size() - 1).last()).isTrue();
            assertThat(ledger).extracting(Ledger::sec).isSorted().doesNotHaveDuplicates();
            // every sample's intended start lies on the schedule: 5 ms apart from the first
            long first = samples.stream().filter(s -> s.scenario().equals("ingest")).mapToLong(Sample::t0).min().orElseThrow();
            assertThat(samples.stream().filter(s -> s.scenario().equals("ingest")))
                    .allSatisfy(s -> assertThat((s.t0() - first) % 5_000).isLessThanOrEqualTo(1));
            assertThat(records.stream().filter(r -> r instanceof Marker m && m.kind() == Marker.Kind.CONFIG))
                    .singleElement().satisfies(m -> assertThat(modeOf((Marker) m)).isEqualTo("open-loop"));
            assertThat(records.stream().filter(r -> r instanceof Health)).isNotEmpty();
            assertThat(seconds.stream().filter(r -> r.scenario().equals("ingest")).mapToLong(SecondReport::offered).sum())
                    .isEqualTo(600);
        }
    }

    @Test
    void aStopEndsTheScheduleThereAndItsReasonRidesInTheRepeatEnd() {
        try (TestServer server = new TestServer()) {
            String series = series();
            LoadPlan plan = new LoadPlan(series, 1, "gen-1", "sustained", LoopMode.OPEN, Duration.ofSeconds(20),
                    List.of(ingest(server.url("/v1/usage-events"), 100, 1000, Duration.ofSeconds(5))),
                    LoadPlan.Lifecycle.REPEAT);
            VerdictFacts.Abort reason = new VerdictFacts.Abort("abortOnFail", "http_reqs: count<40", 41.0, 40.0,
                    2_000, 0, 20_000, 2);
            RunSummary summary = new Generator(RecordSink.of(publisher), GeneratorOptions.defaults().withSpoolDir(dir))
                    .run(plan, reactor.core.publisher.Mono.delay(Duration.ofSeconds(2)).map(x -> Generator.Stop.because(reason)))
                    .block(Duration.ofMinutes(1));

            assertThat(summary.scheduleElapsed()).isLessThan(Duration.ofSeconds(10));
            ScenarioSummary in = summary.scenario("ingest");
            assertThat(in.scheduled()).isBetween(100L, 1_000L);
            assertThat(in.completed()).isEqualTo(in.sent());
            assertThat(summary.recordsPublished()).isEqualTo(summary.recordsProduced());
            Marker end = read(series).stream()
                    .filter(r -> r instanceof Marker m && m.kind() == Marker.Kind.REPEAT_END).map(r -> (Marker) r)
                    .findFirst().orElseThrow();
            assertThat(((RepeatEnd) end.body()).stop()).isEqualTo(reason);
        }
    }

    @Test
    void aServerThatStallsTwoSecondsProducesDropsCountedExactlyAndLatenciesThatIncludeTheStall() {
        try (TestServer server = new TestServer()) {
            server.behaviour = TestServer.Behaviour.STALL_ONCE;
            server.stallAfterNanos = System.nanoTime() + Duration.ofMillis(1200).toNanos();
            String series = series();
            RunSummary summary = run(plan(series, LoopMode.OPEN, Duration.ofSeconds(4),
                    ingest(server.url("/v1/usage-events"), 100, 8, Duration.ofSeconds(10))), GeneratorOptions.defaults());

            ScenarioSummary in = summary.scenario("ingest");
            assertThat(in.scheduled()).isEqualTo(400);
            assertThat(in.dropped()).isGreaterThan(150).isEqualTo(in.scheduled() - in.sent());
            // a drop is the cap reached: the run's most in flight at once is the cap (8, one lane)
            assertThat(in.inFlightMax()).isEqualTo(8);
            assertThat(in.completed()).isEqualTo(in.sent());
            assertThat(in.failed()).isZero();

            List<WireRecord> records = read(series);
            List<Sample> samples = samples(records);
            assertThat(samples).hasSize((int) in.sent());
            List<Ledger> ledger = ledgers(records, "ingest");
            assertThat(ledger.stream().mapToLong(Ledger::dropped).sum()).isEqualTo(in.dropped());
            assertThat(ledger.stream().mapToLong(Ledger::sent).sum()).isEqualTo(in.sent());
            long worstResponseUs = samples.stream().mapToLong(Sample::responseUs).max().orElseThrow();
            assertThat(worstResponseUs).isGreaterThanOrEqualTo(1_900_000L);
            assertThat(samples.stream().filter(s -> s.responseUs() >= 1_000_000L)).hasSizeGreaterThanOrEqualTo(8);
        }
    }

    @Test
    void aRefusedConnectionIsAnErrorSampleNotACrash() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String series = series();
        RunSummary summary = run(plan(series, LoopMode.OPEN, Duration.ofSeconds(1),
                ingest("http://127.0.0.1:" + port + "/v1/usage-events", 50, 16, Duration.ofSeconds(2))),
                GeneratorOptions.defaults());

        ScenarioSummary in = summary.scenario("ingest");
        assertThat(in.sent()).isEqualTo(50);
        assertThat(in.failed()).isEqualTo(50);
        assertThat(in.errors()).containsEntry(ErrorKind.REFUSED, 50L);
        List<Sample> samples = samples(read(series));
        assertThat(Claims.of(samples).events()).isZero();
        assertThat(samples).hasSize(50).allSatisfy(s -> {
            assertThat(s.err()).isEqualTo(ErrorKind.REFUSED);
            assertThat(s.status()).isZero();
        });
    }

    @Test
    void aRequestThatOutlivesItsTimeoutIsATimeoutSample() {
        try (TestServer server = new TestServer()) {
            server.behaviour = TestServer.Behaviour.STALL_ONCE;
            server.stallAfterNanos = 0;
            server.stall = Duration.ofSeconds(3);
            String series = series();
            RunSummary summary = run(plan(series, LoopMode.OPEN, Duration.ofSeconds(1),
                    ingest(server.url("/v1/usage-events"), 20, 64, Duration.ofMillis(300))), GeneratorOptions.defaults());

            ScenarioSummary in = summary.scenario("ingest");
            assertThat(in.sent()).isEqualTo(20);
            assertThat(in.errors()).containsEntry(ErrorKind.TIMEOUT, 20L);
            assertThat(samples(read(series))).hasSize(20).allSatisfy(s -> {
                assertThat(s.err()).isEqualTo(ErrorKind.TIMEOUT);
                assertThat(s.serviceUs()).isBetween(290_000L, 2_000_000L);
            });
        }
    }

    @Test
    void aServerErrorIsAFailedSample() {
        try (TestServer server = new TestServer()) {
            server.behaviour = TestServer.Behaviour.FAIL_500;
            String series = series();
            RunSummary summary = run(plan(series, LoopMode.OPEN, Duration.ofSeconds(1),
                    ingest(server.url("/v1/usage-events"), 40, 16, Duration.ofSeconds(2))), GeneratorOptions.defaults());

            ScenarioSummary in = summary.scenario("ingest");
            assertThat(in.failed()).isEqualTo(40);
            assertThat(in.errors()).containsEntry(ErrorKind.HTTP_5XX, 40L);
            List<Sample> samples = samples(read(series));
            assertThat(Claims.of(samples)).isEqualTo(new Claims(0, 0));
            assertThat(samples).hasSize(40).allSatisfy(s -> {
                assertThat(s.status()).isEqualTo(500);
                assertThat(s.failed()).isTrue();
            });
        }
    }

    @Test
    void whenTheOutboxOverflowsEveryRecordGoesThroughTheSpoolAndPublishedEqualsProduced() {
        try (TestServer server = new TestServer()) {
            String series = series();
            GeneratorOptions tiny = GeneratorOptions.defaults().withOutboxCapacity(1);
            // The broker stalls for the first half second (the first record is held that long), so the one-record
            // queue overflows for certain; without the stall it overflowed only when the drainer happened to fall
            // behind, and a fast drainer failed the test.
            RecordSink kafkaSink = RecordSink.of(publisher);
            AtomicBoolean stalled = new AtomicBoolean();
            RecordSink stallsFirst = new RecordSink() {
                @Override
                public void publish(WireRecord record) {
                    stallOnce();
                    kafkaSink.publish(record);
                }

                @Override
                public void publish(WireRecord record, Acknowledgement ack) {
                    stallOnce();
                    kafkaSink.publish(record, ack);
                }

                @Override
                public void flush() {
                    kafkaSink.flush();
                }

                private void stallOnce() {
                    if (stalled.compareAndSet(false, true)) {
                        long until = System.nanoTime() + Duration.ofMillis(500).toNanos();
                        for (long left; (left = until - System.nanoTime()) > 0; ) {
                            LockSupport.parkNanos(left);
                        }
                    }
                }
            };
            GeneratorOptions options = new GeneratorOptions(tiny.ioThreads(), tiny.minWakeGapNanos(), tiny.busyPoll(),
                    tiny.pollNanos(), tiny.preconnect(), tiny.idleTimeout(), 1, dir, 5, Duration.ofMillis(5),
                    Duration.ofSeconds(5), null);
            RunSummary summary = new Generator(stallsFirst, options).run(plan(series, LoopMode.OPEN, Duration.ofSeconds(2),
                    ingest(server.url("/v1/usage-events"), 300, 1000, Duration.ofSeconds(5)))).block(Duration.ofMinutes(1));

            ScenarioSummary in = summary.scenario("ingest");
            assertThat(in.scheduled()).isEqualTo(600).isEqualTo(in.sent() + in.dropped());
            assertThat(summary.recordsSpooled()).isPositive();
            assertThat(summary.recordsPublished()).isEqualTo(summary.recordsProduced());
            assertThat(summary.samplesPublished()).isEqualTo(in.sent());
            List<WireRecord> records = read(series);
            assertThat(records).hasSize((int) summary.recordsProduced());
            assertThat(samples(records)).hasSize((int) in.sent());
            assertThat(records.stream().filter(r -> r instanceof Ledger).mapToLong(r -> ((Ledger) r).scheduled()).sum())
                    .isEqualTo(600);
        }
    }

    @Test
    void twoSharesOfAScheduleEachCountingSeqFromZeroNeverSendTheSameSeq() {
        // two generators offering 1/2 and 2/2 of one schedule, each with a counter of its own (as two processes):
        // a service keyed on ${seq} must get every event once, or it would drop the second as a duplicate
        try (TestServer server = new TestServer()) {
            String series = series();
            BodyTemplate body = new BodyTemplate(5, CustomerPool.defaults(), "api_calls", 1,
                    1, Map.of(), null, "{\"idempotency_key\":\"${idempotency_key}\",\"quantity\":${quantity},"
                    + "\"seq\":${seq}}");
            Scenario ingest = new Scenario("ingest", "POST", URI.create(server.url("/v1/usage-events")), Map.of(), 100,
                    16, Duration.ofSeconds(5), body);
            long events = 0;
            for (String share : List.of("1/2", "2/2")) {
                LoadPlan plan = new LoadPlan(series, 0, "gen-" + share.charAt(0), null, LoopMode.OPEN,
                        Duration.ofSeconds(1), List.of(ingest), null)
                        .withShare(Share.parse(share));
                RunSummary summary = run(plan, GeneratorOptions.defaults().withSeriesCounter(new AtomicLong()));
                events += summary.scenario("ingest").sent() * 5;
            }
            assertThat(events).isEqualTo(500);
            assertThat(server.events.get()).isEqualTo(500);
            assertThat(server.duplicateSeqs.get()).isZero();
            assertThat(server.seqs).hasSize(500);
        }
    }

    @Test
    void closedLoopIsLabelledClosedLoopAndNeverDrops() {
        try (TestServer server = new TestServer()) {
            String series = series();
            RunSummary summary = run(plan(series, LoopMode.CLOSED, Duration.ofSeconds(1),
                    ingest(server.url("/v1/usage-events"), 1, 4, Duration.ofSeconds(5))), GeneratorOptions.defaults());

            ScenarioSummary in = summary.scenario("ingest");
            assertThat(in.sent()).isPositive().isEqualTo(in.scheduled()).isEqualTo(in.completed());
            assertThat(in.dropped()).isZero();
            List<WireRecord> records = read(series);
            assertThat(Claims.of(samples(records)).events()).as(in + " server requests " + server.requests.get())
                    .isEqualTo(server.events.get());
            assertThat(records.stream().filter(r -> r instanceof Marker).map(r -> (Marker) r))
                    .allSatisfy(m -> assertThat(modeOf(m)).isEqualTo("closed-loop"));
            assertThat(ledgers(records, "ingest").stream().mapToLong(Ledger::sent).sum()).isEqualTo(in.sent());
            assertThat(samples(records)).hasSize((int) in.sent());
        }
    }

    /** The loop mode a generator's marker states: its schedule's, or its load plan's (a CONFIG). */
    static String modeOf(Marker m) {
        if (m.body() instanceof Config c) {
            return (String) c.settings().get("mode"); // LoadPlan.toMap's key
        }
        if (m.body() instanceof SeriesStart s) {
            return s.schedule().mode();
        }
        if (m.body() instanceof RepeatStart s) {
            return s.mode();
        }
        if (m.body() instanceof SeriesEnd e) {
            return e.schedule().mode();
        }
        if (m.body() instanceof RepeatEnd e) {
            return e.schedule().mode();
        }
        throw new AssertionError("a generator publishes no " + m.kind());
    }
}
