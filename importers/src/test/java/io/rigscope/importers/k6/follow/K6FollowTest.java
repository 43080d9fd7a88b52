package io.rigscope.importers.k6.follow;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.importers.k6.K6Import;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.DeadLetter;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.GZIPInputStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.scheduler.Schedulers;

/**
 * k6 followed live, through the broker into a live analyzer, against {@code import k6} of the whole file: the
 * same lines must give the same freeze-seconds and gates.
 */
@Tag("it")
class K6FollowTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();
    static final WireCodec CODEC = new WireCodec();
    static final Path REAL_K6 = Path.of("src/test/resources/k6/xk6-dashboard-result.json.gz");
    /** k6's pace, sped up: 20-30 s of k6 output are written in 2-3 s. */
    static final double SPEED_UP = 10;
    static final ExecutorService THREADS = Executors.newCachedThreadPool();

    @TempDir
    Path dir;

    @AfterAll
    static void stopThreads() {
        THREADS.shutdownNow();
    }

    @Test
    void aRealK6OutputFollowedWhileItIsWrittenIsJudgedAsImportK6JudgesTheWholeFile() throws Exception {
        List<String> lines = gunzip(REAL_K6);
        Path file = dir.resolve("real.json");

        SeriesReport live = followWhileWritten(lines, file, "follow-real");
        SeriesReport imported = imported(lines, "follow-real-import");

        assertSameVerdicts(live, imported);
        assertThat(only(live).samples()).isEqualTo(322);
        assertThat(only(live).gates()).containsKeys("dropped", "failed", "samples", "drift");
    }

    @Test
    void aRunWithAPlantedFreezeFollowedWhileItIsWrittenIsJudgedAsImportK6JudgesTheWholeFile() throws Exception {
        List<String> lines = PlantedK6Run.lines();
        Path file = dir.resolve("planted.json");

        SeriesReport live = followWhileWritten(lines, file, "follow-planted");
        SeriesReport imported = imported(lines, "follow-planted-import");

        assertSameVerdicts(live, imported);
        long start = PlantedK6Run.START_SEC;
        assertThat(only(live).freezeSeconds()).containsExactly(start + 12, start + 13, start + 14);
        assertThat(only(live).gates().get("http_req_duration: p(95)<100").pass()).isTrue();
        assertThat(only(live).gates().get("http_req_duration: p(99)<100").pass()).isFalse();
        assertThat(only(live).gates().get("dropped").value()).isEqualTo(2L);
        assertThat(only(live).gates().get("failed").value()).isEqualTo(1L);
        assertThat(only(live).episodes()).singleElement()
                .satisfies(e -> assertThat(e.missing()).as("no generator health from k6").contains("rig.health"));
    }

    @Test
    void theSameLinesProducedIntoATopicAsXk6OutputKafkaSendsThemAreJudgedAsImportK6JudgesTheFile() throws Exception {
        List<String> lines = PlantedK6Run.lines();
        String topic = "k6-metrics-planted";
        createTopic(topic);
        String series = "follow-topic";
        CompletableFuture<SeriesReport> live = liveAnalysis(series);
        K6Follow follow = new K6Follow(options(series), publisher()::publish, note -> { });
        Future<K6Follow.Result> following = THREADS.submit(() -> {
            try (K6Topic source = new K6Topic(io.rigscope.wire.kafka.KafkaClients.of(kafka.bootstrap()), topic, note -> { })) {
                return follow.run(source, () -> false, r -> { });
            }
        });
        try (KafkaProducer<String, String> producer = producer()) {
            PacedK6Writer.paced(lines, SPEED_UP, line -> producer.send(new ProducerRecord<>(topic, xk6Envelope(line))));
        }

        K6Follow.Result result = following.get(60, TimeUnit.SECONDS);
        SeriesReport imported = imported(lines, "follow-topic-import");

        assertThat(result.samples()).isEqualTo(3_000);
        assertSameVerdicts(live.get(60, TimeUnit.SECONDS), imported);
    }

    @Test
    void aPointOlderThanASecondTheWatermarkClosedIsCountedLateAndReportedNotMerged() throws Exception {
        List<String> lines = new ArrayList<>(PlantedK6Run.lines());
        int afterSecond20 = lines.size() * 21 / 30;
        long lateEndUs = (PlantedK6Run.START_SEC + 10) * 1_000_000L + 500_000L;
        lines.add(afterSecond20, PlantedK6Run.point("http_req_duration", lateEndUs, 900, "201", true));
        Path file = dir.resolve("late.json");
        Files.write(file, lines);

        String series = "follow-late";
        CompletableFuture<SeriesReport> live = liveAnalysis(series);
        K6Follow.Result result = follow(file, series);
        RepeatSummary rep = only(live.get(60, TimeUnit.SECONDS));
        RepeatSummary imported = only(imported(lines, "follow-late-import"));

        assertThat(result.samples()).isEqualTo(3_001);
        assertThat(rep.wireLateSamples()).isEqualTo(1);
        assertThat(rep.samples()).as("the late point is in no figure").isEqualTo(imported.samples() - 1);
        assertThat(rep.secondsClosedBy()).isEqualTo("time");
        assertThat(imported.wireLateSamples()).as("a ledger-closed import has no late points").isNull();
    }

    @Test
    void aLastLineCutShortGoesToTheDeadLetterTopicAndMarksTheRepeatCutShort() throws Exception {
        List<String> lines = PlantedK6Run.lines();
        Path file = dir.resolve("killed.json");
        String cut = "{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"data\":{\"time\":\"2023-11-14T";
        Files.writeString(file, String.join("\n", lines) + "\n" + cut);

        String series = "follow-killed";
        CompletableFuture<SeriesReport> live = liveAnalysis(series);
        K6Follow.Result result = follow(file, series);
        Path whole = dir.resolve("killed-import.json");
        Files.writeString(whole, String.join("\n", lines) + "\n" + cut);

        assertThat(result.cutShort()).isTrue();
        assertThat(result.unreadable()).isEqualTo(1);
        assertThat(result.samples()).isEqualTo(3_000);
        List<WireRecord> records = records(series, EnumSet.of(Topic.MARKERS, Topic.DLQ));
        assertThat(records).filteredOn(DeadLetter.class::isInstance).singleElement().satisfies(r -> {
            DeadLetter d = (DeadLetter) r;
            assertThat(d.reason()).startsWith("k6 output line " + (lines.size() + 1) + " is not JSON");
            assertThat(d.payload()).isEqualTo(cut);
            assertThat(d.origin()).isEqualTo(file + ":" + (lines.size() + 1));
        });
        RepeatEnd killed = (RepeatEnd) repeatEnd(records).body();
        assertThat(killed.cutShort()).isTrue();
        assertThat(killed.unreadableLines()).isEqualTo(1L);
        assertSameVerdicts(live.get(60, TimeUnit.SECONDS), imported(whole, "follow-killed-import"));
    }

    @Test
    void stoppingTheFollowAsCtrlCDoesPublishesTheEndMarkers() throws Exception {
        Path file = dir.resolve("stopped.json");
        Files.write(file, PlantedK6Run.lines().subList(0, 3_000));
        String series = "follow-stopped";
        AtomicBoolean stop = new AtomicBoolean();
        K6Follow follow = new K6Follow(options(series).withStopAfterIdle(null), publisher()::publish, note -> { });
        Future<K6Follow.Result> following = THREADS.submit(() -> {
            try (FollowedFile source = new FollowedFile(file, note -> { })) {
                return follow.run(source, stop::get, r -> { });
            }
        });
        Thread.sleep(1_000);
        stop.set(true);

        K6Follow.Result result = following.get(30, TimeUnit.SECONDS);
        PUBLISHERS.forEach(WirePublisher::flush);

        assertThat(result.ending()).isEqualTo(K6Follow.Ending.STOPPED);
        List<WireRecord> markers = records(series, EnumSet.of(Topic.MARKERS));
        RepeatEnd stopped = (RepeatEnd) repeatEnd(markers).body();
        assertThat(stopped.endedBy()).isEqualTo("stopped");
        assertThat(stopped.samplesByScenario()).isNotNull();
        assertThat(markers).filteredOn(r -> ((Marker) r).kind() == Marker.Kind.SERIES_END).hasSize(1);
    }

    // ---- helpers ----

    private static void assertSameVerdicts(SeriesReport live, SeriesReport imported) {
        RepeatSummary l = only(live);
        RepeatSummary i = only(imported);
        assertThat(live.verdict()).isEqualTo(imported.verdict());
        assertThat(l.freezeSeconds()).as("freeze-seconds").isEqualTo(i.freezeSeconds());
        assertThat(l.gates()).as("gates").isEqualTo(i.gates());
        assertThat(l.samples()).isEqualTo(i.samples());
        assertThat(l.p99Us()).isEqualTo(i.p99Us());
        assertThat(l.episodes()).extracting(e -> e.startSec() + "-" + e.endSec() + " " + e.cause().code())
                .isEqualTo(i.episodes().stream().map(e -> e.startSec() + "-" + e.endSec() + " " + e.cause().code())
                        .toList());
        assertThat(l.secondsClosedBy()).isEqualTo("time");
        assertThat(l.provisionalSeconds()).as("every second closed by the watermark or the stream's end").isZero();
        assertThat(i.secondsClosedBy()).isEqualTo("ledger");
    }

    /** Writes the lines at k6's pace (sped up) into {@code file} while the follower and a live analysis run. */
    private SeriesReport followWhileWritten(List<String> lines, Path file, String series) throws Exception {
        CompletableFuture<SeriesReport> live = liveAnalysis(series);
        K6Follow follow = new K6Follow(options(series), publisher()::publish, note -> { });
        Future<K6Follow.Result> following = THREADS.submit(() -> {
            try (FollowedFile source = new FollowedFile(file, note -> { })) {
                return follow.run(source, () -> false, r -> { });
            }
        });
        Thread.sleep(200); // the follower waits for the file to appear
        PacedK6Writer.toFile(lines, file, SPEED_UP);
        K6Follow.Result result = following.get(60, TimeUnit.SECONDS);
        assertThat(result.unreadable()).isZero();
        assertThat(result.ending()).isEqualTo(K6Follow.Ending.IDLE);
        return live.get(60, TimeUnit.SECONDS);
    }

    private static K6Follow.Result follow(Path file, String series) throws Exception {
        WirePublisher publisher = publisher();
        K6Follow follow = new K6Follow(options(series), publisher::publish, note -> { });
        try (FollowedFile source = new FollowedFile(file, note -> { })) {
            K6Follow.Result result = follow.run(source, () -> false, r -> { });
            publisher.flush();
            return result;
        }
    }

    private static K6Follow.Options options(String series) {
        return K6Follow.Options.of(series).withReconciliationRequired(false).withStopAfterIdle(Duration.ofMillis(1_500));
    }

    private static WirePublisher publisher() {
        // closed when the test JVM ends; each follow flushes before its result
        WirePublisher p = new WirePublisher(kafka.bootstrap(), CODEC, WirePublisher.Options.defaults());
        PUBLISHERS.add(p);
        return p;
    }

    private static final List<WirePublisher> PUBLISHERS = new java.util.concurrent.CopyOnWriteArrayList<>();

    @AfterAll
    static void closePublishers() {
        PUBLISHERS.forEach(WirePublisher::close);
    }

    /** A live analysis of the series, started before its records exist, as {@code rigscope analyze} runs. */
    private static CompletableFuture<SeriesReport> liveAnalysis(String series) {
        var source = new WireSource(kafka.bootstrap(), CODEC);
        return Analyzer.forSeries(series)
                .live(AnalyzerInput.fromKafka(source, series, true, f -> { }))
                .subscribeOn(Schedulers.boundedElastic())
                .filter(d -> d instanceof Decision.Series)
                .map(d -> ((Decision.Series) d).report())
                .next()
                .toFuture();
    }

    private SeriesReport imported(List<String> lines, String series) throws Exception {
        Path file = dir.resolve(series + ".json");
        Files.write(file, lines);
        return imported(file, series);
    }

    private static SeriesReport imported(Path file, String series) throws Exception {
        try (WirePublisher p = new WirePublisher(kafka.bootstrap(), CODEC, WirePublisher.Options.defaults())) {
            K6Import.read(file, new K6Import.Options(series, 1, "k6", Map.of(), false, true, 500), p::publish);
            p.flush();
        }
        var source = new WireSource(kafka.bootstrap(), CODEC);
        Decision last = Analyzer.forSeries(series).replay(AnalyzerInput.fromKafka(source, series, false, f -> { }))
                .blockLast(Duration.ofSeconds(60));
        return ((Decision.Series) last).report();
    }

    private static List<WireRecord> records(String series, EnumSet<Topic> topics) {
        var source = new WireSource(kafka.bootstrap(), CODEC);
        return source.records(new WireSource.Spec(topics, series, true, false), f -> { })
                .collectList().block(Duration.ofSeconds(30));
    }

    private static Marker repeatEnd(List<WireRecord> records) {
        return records.stream().filter(r -> r instanceof Marker m && m.kind() == Marker.Kind.REPEAT_END)
                .map(Marker.class::cast).reduce((a, b) -> b).orElseThrow();
    }

    private static RepeatSummary only(SeriesReport report) {
        assertThat(report.repeats()).hasSize(1);
        return report.repeats().get(0);
    }

    /** A k6 JSON output Point line as xk6-output-kafka's json format sends it: the metric's type in place of "Point". */
    private static String xk6Envelope(String line) {
        if (!line.contains("\"type\":\"Point\"")) {
            return line;
        }
        String type = line.contains("\"metric\":\"http_req_duration\"") ? "trend"
                : line.contains("\"metric\":\"http_req_failed\"") ? "rate" : "counter";
        String data = line.substring(line.indexOf("\"data\":"), line.length() - 1);
        String metric = line.substring(line.indexOf("\"metric\":\"") + 10, line.indexOf("\",\"type\""));
        return "{\"type\":\"" + type + "\"," + data + ",\"metric\":\"" + metric + "\"}";
    }

    private static void createTopic(String topic) {
        try (var admin = new io.rigscope.wire.kafka.TopicAdmin(kafka.bootstrap())) {
            admin.ensureOnePartitionTopic(topic);
        }
    }

    private static KafkaProducer<String, String> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return new KafkaProducer<>(p);
    }

    private static List<String> gunzip(Path gz) throws Exception {
        try (var reader = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(gz)),
                StandardCharsets.UTF_8))) {
            return reader.lines().toList();
        }
    }
}
