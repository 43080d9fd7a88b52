package io.rigscope.analyzer.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.DecisionCodec;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.report.ReportFiles;
import io.rigscope.model.codec.WireCodec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Real demo series recorded with {@code --out} before the analyzer's typed API existed, replayed through today's
 * {@link Analyzer}: the report keeps every figure it had (src/test/resources/recorded/README.md).
 */
class RecordedSeriesReplayTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource({"demo-quick, demo-20261130-184316", "hot-row, demo-20261130-184410"})
    void aRecordedSeriesReplaysToTheReportItWasJudgedWith(String name, String series) throws IOException {
        SeriesReport report = replay(copy(name + ".jsonl.gz"), series);

        assertThat(beforeEpisodes(ReportFiles.markdown(report))).isEqualTo(beforeEpisodes(text(name + ".report.md")));
        JsonNode recorded = withoutAttribution(JSON.readTree(text(name + ".report.json")));
        JsonNode now = withoutAttribution(JSON.readTree(ReportFiles.json(report)));
        assertThat(keptFieldsOf(now, recorded)).isEqualTo(recorded);
    }

    /**
     * The recorded hot-row demo (the API key row touched by every request, above its wall) had one episode the old
     * analyzer could not attribute; the rules name it from the waits the demo recorded.
     */
    @Test
    void theRecordedHotRowEpisodeIsLockContentionFromTheWaitsItRecorded() throws IOException {
        SeriesReport report = replay(copy("hot-row.jsonl.gz"), "demo-20261130-184410");

        assertThat(report.episodes()).hasSize(1);
        Episode e = report.episodes().get(0);
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anySatisfy(ev -> {
            assertThat(ev.stream()).isEqualTo("rig.waits");
            assertThat(ev.what()).isEqualTo("lock_share");
            assertThat(ev.value()).isGreaterThanOrEqualTo(0.5);
            assertThat(ev.fact()).contains("Lock:transactionid");
        });
        assertThat(e.secondary()).isNull();
    }

    /**
     * The one correction: the recorded analyzer listed every telemetry stream as missing from every episode, a
     * constant, although the demo collected all six local streams. Now an episode lists only the streams that
     * had no record over its span, CloudWatch only when the series had it (a local demo has none).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"hot-row, demo-20261130-184410"})
    void anEpisodeOfARecordedDemoListsAsMissingOnlyWhatTheDemoDidNotCollect(String name, String series)
            throws IOException {
        SeriesReport report = replay(copy(name + ".jsonl.gz"), series);

        assertThat(report.episodes()).isNotEmpty();
        // recorded before rig.process existed: the SUT's process is the other stream these demos did not collect
        // and CloudWatch, which a database on the demo's own host cannot have, is not listed (issue 40)
        assertThat(report.episodes()).allSatisfy(e -> assertThat(e.missing()).containsExactly("rig.process"));
        JsonNode recorded = JSON.readTree(text(name + ".report.json"));
        assertThat(recorded.at("/episodes/0/missing")).hasSize(6);
    }

    /** The report without each episode's attribution (cause, confidence, evidence, missing): what rules decide. */
    private static JsonNode withoutAttribution(JsonNode report) {
        for (JsonNode e : report.path("episodes")) {
            ((ObjectNode) e).remove(List.of("cause", "confidence", "evidence", "missing"));
        }
        return report;
    }

    private static String beforeEpisodes(String markdown) {
        int at = markdown.indexOf("\n## Episodes");
        return at < 0 ? markdown : markdown.substring(0, at);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"demo-quick, demo-20261130-184316"})
    void theReportFileIsTheSeriesVerdictsBody(String name, String series) throws IOException {
        SeriesReport report = replay(copy(name + ".jsonl.gz"), series);

        Map<String, Object> body = DecisionCodec.toVerdict(new Decision.Series(series, 1, report)).body();
        JsonNode published = JSON.readTree(JSON.writeValueAsBytes(body));
        assertThat(published).isEqualTo(JSON.readTree(ReportFiles.json(report)));
    }

    private static SeriesReport replay(Path wireFile, String series) {
        Decision last = Analyzer.forSeries(series)
                .replay(AnalyzerInput.fromWireFile(wireFile, new WireCodec(), f -> {
                    throw new AssertionError("dead letter in the recording: " + f.deadLetter().reason());
                }))
                .blockLast(Duration.ofSeconds(60));
        assertThat(last).isInstanceOf(Decision.Series.class);
        return ((Decision.Series) last).report();
    }

    /** {@code now} with only the fields {@code recorded} has (recursively): what a newer analyzer added is dropped. */
    private static JsonNode keptFieldsOf(JsonNode now, JsonNode recorded) {
        if (now.isObject() && recorded.isObject()) {
            ObjectNode kept = JSON.createObjectNode();
            Iterator<String> names = recorded.fieldNames();
            while (names.hasNext()) {
                String n = names.next();
                if (now.has(n)) {
                    kept.set(n, keptFieldsOf(now.get(n), recorded.get(n)));
                }
            }
            return kept;
        }
        if (now.isArray() && recorded.isArray() && now.size() == recorded.size()) {
            var kept = JSON.createArrayNode();
            for (int i = 0; i < now.size(); i++) {
                kept.add(keptFieldsOf(now.get(i), recorded.get(i)));
            }
            return kept;
        }
        return now;
    }

    private Path copy(String resource) throws IOException {
        Path file = dir.resolve(resource);
        try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream("/recorded/" + resource),
                resource)) {
            Files.copy(in, file);
        }
        return file;
    }

    private String text(String resource) throws IOException {
        try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream("/recorded/" + resource),
                resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
