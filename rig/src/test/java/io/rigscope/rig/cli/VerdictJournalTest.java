package io.rigscope.rig.cli;

import io.rigscope.rig.options.KafkaOptions.JournaledPublisher;
import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.synthetic.SyntheticSeries;
import io.rigscope.analyzer.synthetic.SyntheticSeries.Plan;
import io.rigscope.analyzer.decision.DecisionCodec;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.localenv.kafka.DetachedBroker;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WireFileWriter;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.KafkaClients;
import io.rigscope.wire.kafka.TopicAdmin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analyzer's verdicts go through the write-ahead journal ({@link JournaledPublisher}, {@code analyze-<series>}) on
 * a real detached broker: killed with SIGKILL mid-stream and started again by the command's watch, every verdict
 * arrives, in the order a replay of the wire file decides them; gone past the delivery limit, the journal keeps them
 * and {@code rigscope recover} publishes them.
 */
@Tag("it")
class VerdictJournalTest {

    @TempDir
    Path dir;

    @AfterEach
    void stopTheBroker() {
        DetachedBroker.stop(dir.resolve("kafka"), Duration.ofSeconds(30));
    }

    @Test
    void verdictsPublishedAcrossABrokerKilledMidStreamAllArriveAfterTheRestartInTheReplaysOrder() throws Exception {
        String id = "verdicts-kill";
        Path wire = wireFile(Plan.of(id, 2, 10, 200));
        WireCodec codec = new WireCodec();
        List<WireRecord> expected = replayVerdicts(id, wire, codec);
        assertThat(expected).hasSizeGreaterThan(10);
        Path data = dir.resolve("kafka");
        List<String> console = new CopyOnWriteArrayList<>();
        try (KafkaEndpoint endpoint = KafkaEndpoint.resolve(null, data, Map.of(), KafkaEndpoint.Mode.DETACHED,
                Duration.ofSeconds(60), console::add)) {
            try (TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
                admin.ensureTopics();
            }
            long first = endpoint.detachedBroker().orElseThrow().pid();
            int killAt = expected.size() / 3;
            AtomicInteger decided = new AtomicInteger();
            Path journal;
            long startNs = System.nanoTime();
            try (JournaledPublisher verdicts = JournaledPublisher.open(endpoint.clients(), data.resolve("journal"),
                    "analyze-" + id, codec, WirePublisher.Options.defaults().withClientId("rigscope-analyzer"))) {
                journal = verdicts.journal();
                Analyzer.forSeries(id).verdicts(AnalyzerInput.fromWireFile(wire, codec, f -> { }), false, p -> { },
                                verdicts.publisher())
                        .doOnNext(d -> {
                            if (decided.incrementAndGet() == killAt) {
                                kill(first); // verdicts 1..killAt handed over; the rest go to a dead broker
                            }
                        })
                        .blockLast(Duration.ofMinutes(3));
                verdicts.flush();
                assertThat(verdicts.notPublishedLine()).as(String.join("\n", console)).isNull();
                assertThat(journal).exists();
            }
            System.out.printf("verdicts: %d, the broker killed after %d, all acknowledged %.1f s after the start%n",
                    expected.size(), killAt, (System.nanoTime() - startNs) / 1e9);
            assertThat(journal).as("every verdict acknowledged: the journal is deleted").doesNotExist();
            assertThat(DetachedBroker.find(data).orElseThrow().pid()).as("started again").isNotEqualTo(first);
            assertThat(verdictsOnTopic(endpoint.clients(), id, codec)).as("every verdict once, in the replay's order")
                    .isEqualTo(expected);
        }
        assertThat(console).anySatisfy(l -> assertThat(l).startsWith("kafka: the embedded broker at ")
                .contains("is gone; starting it again"));
        assertThat(console).anySatisfy(l -> assertThat(l).startsWith("kafka: embedded broker started again at "));
    }

    @Test
    void aVerdictJournalLeftByAPublisherWhoseClusterWentAwayPastTheLimitIsPublishedByRecover() throws Exception {
        String id = "verdicts-recover";
        Path wire = wireFile(Plan.of(id, 1, 10, 200));
        WireCodec codec = new WireCodec();
        List<WireRecord> expected = replayVerdicts(id, wire, codec);
        Path data = dir.resolve("kafka");
        RigscopeRun started = rigscope("broker", "start", "--data-dir", data.toString());
        assertThat(started.exit()).as(started.err() + started.out()).isZero();
        DetachedBroker.Running broker = DetachedBroker.find(data).orElseThrow();
        // a cluster (--bootstrap): nothing starts it again; the producer retries it until the 3-s delivery limit
        // (and a send waits at most 1 s for the metadata of a cluster that is gone: max.block.ms, 60 s by default)
        KafkaClients cluster = new KafkaClients(broker.bootstrap(), Map.of("request.timeout.ms", "1000",
                "max.block.ms", "1000"), Duration.ofSeconds(3));
        try (TopicAdmin admin = new TopicAdmin(cluster)) {
            admin.ensureTopics();
        }
        int half = expected.size() / 2;
        Path journal;
        String line;
        try (JournaledPublisher verdicts = JournaledPublisher.open(cluster, data.resolve("journal"), "analyze-" + id,
                codec, WirePublisher.Options.defaults().withClientId("rigscope-analyzer"))) {
            journal = verdicts.journal();
            expected.subList(0, half).forEach(verdicts.publisher()::publish);
            verdicts.flush();
            assertThat(verdicts.failed()).isFalse();
            kill(broker.pid());
            expected.subList(half, expected.size()).forEach(verdicts.publisher()::publish);
            verdicts.flush();
            line = verdicts.notPublishedLine();
        }
        assertThat(line).startsWith("kafka: " + (expected.size() - half) + " record(s) were not published (last "
                + "error: ").endsWith("; " + (expected.size() - half) + " record(s) are in the journal " + journal
                + ": 'rigscope recover' publishes them");
        assertThat(journal).as("kept").exists();

        RigscopeRun again = rigscope("broker", "start", "--data-dir", data.toString());
        assertThat(again.exit()).as(again.err() + again.out()).isZero();
        RigscopeRun recover = rigscope("recover", "--data-dir", data.toString());
        assertThat(recover.exit()).as(recover.err()).isZero();
        assertThat(recover.err()).contains("recover: " + journal.getFileName() + ": " + expected.size()
                + " record(s), " + half + " acknowledged before, " + (expected.size() - half) + " published now");
        try (Stream<Path> left = Files.list(data.resolve("journal"))) {
            assertThat(left).as("the journal is deleted once all of it is on the broker").isEmpty();
        }
        String bootstrap = DetachedBroker.find(data).orElseThrow().bootstrap();
        assertThat(verdictsOnTopic(KafkaClients.of(bootstrap), id, codec)).as("every verdict once, in order")
                .isEqualTo(expected);
    }

    /** The verdicts a replay of the wire file decides, as the wire carries them (encoded, then decoded). */
    private static List<WireRecord> replayVerdicts(String id, Path wire, WireCodec codec) {
        return Analyzer.forSeries(id).replay(AnalyzerInput.fromWireFile(wire, codec, f -> { }))
                .map(d -> roundTrip(DecisionCodec.toVerdict(d), codec))
                .collectList().block(Duration.ofMinutes(2));
    }

    private static WireRecord roundTrip(WireRecord r, WireCodec codec) {
        Decoded d = codec.decode(Topic.VERDICTS, r.run(), codec.encode(r, WireCodec.Format.JSON), "test");
        return ((Decoded.Ok) d).record();
    }

    private static List<WireRecord> verdictsOnTopic(KafkaClients clients, String id, WireCodec codec) {
        return new WireSource(clients, codec).records(new WireSource.Spec(Set.of(Topic.VERDICTS), id, true, false),
                f -> { }).collectList().block(Duration.ofMinutes(2));
    }

    private static void kill(long pid) {
        ProcessHandle broker = ProcessHandle.of(pid).orElseThrow();
        broker.destroyForcibly();
        try {
            broker.onExit().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the broker did not die: " + e, e);
        }
    }

    private Path wireFile(Plan plan) {
        Path file = dir.resolve(plan.series() + ".jsonl");
        try (WireFileWriter writer = new WireFileWriter(file, new WireCodec())) {
            SyntheticSeries.emit(plan, writer::write);
        }
        return file;
    }
}
