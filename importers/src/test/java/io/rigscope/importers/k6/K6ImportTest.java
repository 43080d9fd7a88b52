package io.rigscope.importers.k6;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.DecisionCodec;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** k6 --out json files through the broker into the analyzer. */
@Tag("it")
class K6ImportTest {

    private static final long START = 1_700_000_000L;

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();
    @TempDir
    static Path dir;
    static final WireCodec CODEC = new WireCodec();

    @Test
    void importedK6StreamIsCutByResponseEndAndJudgedLikeALiveSeries() throws Exception {
        Path file = dir.resolve("run.json.gz");
        writeK6File(file);

        K6Import.Result result = importFile(file, "k6-written", Map.of("read", "probe"));
        Map<String, Object> report = replay("k6-written");
        Map<String, Object> rep = onlyRepeat(report);

        assertThat(result.samples()).isEqualTo(1_200 + 20);
        assertThat(result.problems()).isEmpty();
        assertThat(gate(rep, "checks: rate>0.9")).as("no checks point: k6 judges the empty rate as 0")
                .containsEntry("pass", false).containsEntry("value", 0.0);
        assertThat(rep).containsEntry("samples", 1_200L).containsEntry("dropped", 1L).containsEntry("failed", 1L);
        assertThat(rep.get("freeze_seconds")).isEqualTo(List.of(START + 7));
        assertThat((Double) rep.get("probe_p99_ms")).isCloseTo(40.0, org.assertj.core.data.Percentage.withPercentage(0.1));
        assertThat(gate(rep, "http_req_duration: p(99)<500")).containsEntry("pass", true);
        assertThat(gate(rep, "failed")).containsEntry("pass", false).containsEntry("value", 1L);
        assertThat(gate(rep, "dropped")).containsEntry("pass", false);
        assertThat(report).containsEntry("verdict", "FAIL");
    }

    @Test
    void importsARealK6OutputFile() throws Exception {
        Path file = dir.resolve("xk6-dashboard-result.json.gz");
        try (var in = K6ImportTest.class.getResourceAsStream("/k6/xk6-dashboard-result.json.gz")) {
            Files.copy(in, file);
        }
        List<Double> durationsMs = durations(file);
        durationsMs.sort(null);
        double p99Ms = durationsMs.get((int) Math.ceil(0.99 * durationsMs.size()) - 1);

        K6Import.Result result = importFile(file, "k6-real", Map.of());
        Map<String, Object> rep = onlyRepeat(replay("k6-real"));

        assertThat(result.samples()).isEqualTo(322);
        assertThat(result.httpReqs()).isEqualTo(322);
        assertThat(result.problems()).isEmpty();
        assertThat(rep).containsEntry("scenario", "contacts").containsEntry("samples", 322L)
                .containsEntry("failed", 0L).containsEntry("dropped", 0L);
        assertThat((Double) rep.get("p99_ms")).isCloseTo(p99Ms, org.assertj.core.data.Percentage.withPercentage(0.1));
        assertThat(gate(rep, "samples")).containsEntry("pass", false).containsEntry("value", 322L);
    }

    @Test
    void aFileWithNoReadableLineIsRefusedNamingTheFileAndTheFirstBadLine() throws Exception {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, "{\"type\":\"Point\",\"metric\":\"http_req_duration\",\"data\":{\"time\":\"yesterday\","
                + "\"value\":1,\"tags\":{}}}\nnot json at all\n");
        assertThatThrownBy(() -> K6Import.read(file, options("bad", Map.of()), r -> { }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("k6 output " + file + " has no readable line (2 unreadable, line 1: time 'yesterday' is not "
                        + "an RFC 3339 timestamp): nothing to import");
    }

    @Test
    void aTruncatedLastLineIsSkippedCountedAndMarksTheRepeatCutShort() throws Exception {
        String whole = k6Text();
        long lines = whole.lines().count();
        Path file = dir.resolve("killed.json");
        Files.writeString(file, whole.substring(0, whole.length() - 30)); // k6 stopped mid-line, no newline

        List<WireRecord> out = new ArrayList<>();
        K6Import.Result result = K6Import.read(file, options("k6-killed", Map.of()), out::add);

        assertThat(result.samples()).as("every request before the cut").isEqualTo(1_200 + 20);
        assertThat(result.dropped()).as("the cut line was the dropped_iterations point").isZero();
        assertThat(result.unreadableLines()).isEqualTo(1);
        assertThat(result.firstUnreadable()).singleElement().asString().startsWith("line " + lines + ": is not JSON");
        assertThat(result.cutShort()).isTrue();
        assertThat((RepeatEnd) repeatEnd(out).body()).extracting(RepeatEnd::cutShort, RepeatEnd::unreadableLines)
                .containsExactly(true, 1L);
    }

    @Test
    void badLinesInTheMiddleAreSkippedAndNamedAndTheRestIsImported() throws Exception {
        List<String> lines = new ArrayList<>(k6Text().lines().toList());
        lines.add(4, "{\"metric\":\"http_req_duration\",\"type\":\"Po"); // line 5
        lines.add(99, "{\"type\":\"Point\",\"metric\":\"http_req_duration\",\"data\":{\"time\":\"yesterday\","
                + "\"value\":1,\"tags\":{}}}"); // line 100
        Path file = dir.resolve("two-bad.json");
        Files.writeString(file, String.join("\n", lines) + "\n");

        List<WireRecord> out = new ArrayList<>();
        K6Import.Result result = K6Import.read(file, options("k6-two-bad", Map.of()), out::add);

        assertThat(result.samples()).isEqualTo(1_200 + 20);
        assertThat(result.dropped()).isEqualTo(1);
        assertThat(result.unreadableLines()).isEqualTo(2);
        assertThat(result.firstUnreadable()).satisfiesExactly(
                first -> assertThat(first).startsWith("line 5: is not JSON"),
                second -> assertThat(second).isEqualTo("line 100: time 'yesterday' is not an RFC 3339 timestamp"));
        assertThat(result.cutShort()).as("the file's end is whole").isFalse();
        assertThat((RepeatEnd) repeatEnd(out).body()).extracting(RepeatEnd::cutShort, RepeatEnd::unreadableLines)
                .containsExactly(null, 2L);
    }

    @Test
    void strictRefusesTheFirstBadLineBeforePublishingAnything() throws Exception {
        List<String> lines = new ArrayList<>(k6Text().lines().toList());
        lines.add(99, "garbage");
        Path file = dir.resolve("strict.json");
        Files.writeString(file, String.join("\n", lines) + "\n");

        List<WireRecord> out = new ArrayList<>();
        assertThatThrownBy(() -> K6Import.read(file, strict(options("k6-strict", Map.of())), out::add))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("k6 output " + file + " line 100 is not JSON")
                .hasMessageEndingWith("(--strict: an unreadable line refuses the file)");
        assertThat(out).isEmpty();
    }

    @Test
    void aCompressedFileCutShortImportsWhatWasWholeAndMarksTheRepeatCutShort() throws Exception {
        Path whole = dir.resolve("whole.json.gz");
        writeK6File(whole);
        byte[] bytes = Files.readAllBytes(whole);
        Path file = dir.resolve("killed.json.gz");
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length * 2 / 3));

        List<WireRecord> out = new ArrayList<>();
        K6Import.Result result = K6Import.read(file, options("k6-killed-gz", Map.of()), out::add);

        assertThat(result.samples()).isBetween(1L, 1_219L);
        assertThat(result.cutShort()).isTrue();
        assertThat(((RepeatEnd) repeatEnd(out).body()).cutShort()).isTrue();
        assertThatThrownBy(() -> K6Import.read(file, strict(options("k6-killed-gz", Map.of())), r -> { }))
                .hasMessageContaining("ends early after line");
    }

    // ---- helpers ----

    /**
     * A k6 output file written by k6's documented format: 12 s of 100 requests/s on scenario "ingest" (2 ms),
     * 30 requests of 300 ms ending in second 7, one network error (status 0, timeout), one dropped iteration,
     * a "read" scenario at 2/s (40 ms), thresholds on http_req_duration and on checks.
     */
    private static void writeK6File(Path file) throws Exception {
        try (Writer w = new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(file)), StandardCharsets.UTF_8)) {
            writeK6Lines(w);
        }
    }

    /** {@link #writeK6File}'s lines, uncompressed. */
    private static String k6Text() throws Exception {
        var w = new java.io.StringWriter();
        writeK6Lines(w);
        return w.toString();
    }

    private static void writeK6Lines(Writer w) throws Exception {
        w.write("{\"type\":\"Metric\",\"data\":{\"name\":\"http_reqs\",\"type\":\"counter\",\"contains\":\"default\","
                + "\"thresholds\":[],\"submetrics\":null},\"metric\":\"http_reqs\"}\n");
        w.write("{\"type\":\"Metric\",\"data\":{\"name\":\"http_req_duration\",\"type\":\"trend\",\"contains\":\"time\","
                + "\"thresholds\":[\"p(99)<500\"],\"submetrics\":null},\"metric\":\"http_req_duration\"}\n");
        w.write("{\"type\":\"Metric\",\"data\":{\"name\":\"checks\",\"type\":\"rate\",\"contains\":\"default\","
                + "\"thresholds\":[\"rate>0.9\"],\"submetrics\":null},\"metric\":\"checks\"}\n");
        for (int sec = 0; sec < 12; sec++) {
            for (int i = 0; i < 100; i++) {
                boolean slow = sec == 7 && i >= 50 && i < 80;
                boolean error = sec == 3 && i == 10;
                long endUs = (START + sec) * 1_000_000L + i * 10_000L + 5_000;
                point(w, "http_reqs", endUs, 1, "ingest", error ? "0" : "201", !error, error);
                point(w, "http_req_duration", endUs, error ? 60_000 : slow ? 300 : 2, "ingest",
                        error ? "0" : "201", !error, error);
                point(w, "http_req_failed", endUs, error ? 1 : 0, "ingest", error ? "0" : "201", !error, error);
                point(w, "http_req_waiting", endUs, 1.5, "ingest", "201", true, false);
            }
            if (sec < 10) {
                for (int i = 0; i < 2; i++) {
                    long endUs = (START + sec) * 1_000_000L + 300_000 + i * 400_000L;
                    point(w, "http_reqs", endUs, 1, "read", "200", true, false);
                    point(w, "http_req_duration", endUs, 40, "read", "200", true, false);
                }
            }
        }
        w.write("{\"metric\":\"dropped_iterations\",\"type\":\"Point\",\"data\":{\"time\":\""
                + Instant.ofEpochSecond(START + 9) + "\",\"value\":1,\"tags\":{\"scenario\":\"ingest\"}}}\n");
    }

    private static void point(Writer w, String metric, long endUs, double value, String scenario, String status,
                              boolean expected, boolean timeout) throws Exception {
        String time = Instant.ofEpochSecond(endUs / 1_000_000L, (endUs % 1_000_000L) * 1000).toString();
        w.write("{\"metric\":\"" + metric + "\",\"type\":\"Point\",\"data\":{\"time\":\"" + time + "\",\"value\":"
                + value + ",\"tags\":{\"expected_response\":\"" + expected + "\","
                + (timeout ? "\"error\":\"request timeout\",\"error_code\":\"1050\"," : "")
                + "\"group\":\"\",\"method\":\"POST\",\"name\":\"http://127.0.0.1:8080/events\",\"proto\":\"HTTP/1.1\","
                + "\"scenario\":\"" + scenario + "\",\"status\":\"" + status + "\",\"url\":\"http://127.0.0.1:8080/events\"}}}\n");
    }

    private static List<Double> durations(Path gz) throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<Double> out = new ArrayList<>();
        try (var reader = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(gz)),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                JsonNode n = json.readTree(line);
                if ("Point".equals(n.path("type").asText()) && "http_req_duration".equals(n.path("metric").asText())) {
                    out.add(n.path("data").path("value").asDouble());
                }
            }
        }
        return out;
    }

    private static K6Import.Options options(String series, Map<String, String> scenarioMap) {
        return new K6Import.Options(series, 1, "k6", scenarioMap, false, true, 500, false);
    }

    private static K6Import.Options strict(K6Import.Options o) {
        return new K6Import.Options(o.series(), o.rep(), o.generator(), o.scenarioMap(), o.reconciliationRequired(),
                o.seriesMarkers(), o.batchSize(), true);
    }

    private static Marker repeatEnd(List<WireRecord> records) {
        return records.stream().filter(r -> r instanceof Marker m && m.kind() == Marker.Kind.REPEAT_END)
                .map(Marker.class::cast).reduce((a, b) -> { throw new AssertionError("two REPEAT_END markers"); })
                .orElseThrow();
    }

    private static K6Import.Result importFile(Path file, String series, Map<String, String> scenarioMap) throws Exception {
        try (WirePublisher publisher = new WirePublisher(kafka.bootstrap(), CODEC, WirePublisher.Options.defaults())) {
            K6Import.Result result = K6Import.read(file, options(series, scenarioMap), publisher::publish);
            publisher.flush();
            return result;
        }
    }

    private static Map<String, Object> replay(String series) {
        var source = new WireSource(kafka.bootstrap(), CODEC);
        Decision last = Analyzer.forSeries(series)
                .replay(AnalyzerInput.fromKafka(source, series, false, f -> { }))
                .blockLast(Duration.ofSeconds(60));
        return DecisionCodec.toVerdict(last).body();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> onlyRepeat(Map<String, Object> report) {
        List<Map<String, Object>> repeats = (List<Map<String, Object>>) report.get("repeats");
        assertThat(repeats).hasSize(1);
        return repeats.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> gate(Map<String, Object> rep, String name) {
        return ((Map<String, Map<String, Object>>) rep.get("gates")).get(name);
    }
}
