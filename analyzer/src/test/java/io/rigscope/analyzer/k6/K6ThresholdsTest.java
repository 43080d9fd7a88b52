package io.rigscope.analyzer.k6;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.api.Decision;
import io.rigscope.analyzer.gate.GateResult;
import io.rigscope.analyzer.repeat.RepeatSummary;
import io.rigscope.analyzer.threshold.ThresholdParser;
import io.rigscope.model.wire.WireRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

/**
 * Thresholds judged as k6 judges them: a threshold without a tag filter covers every point of its metric, all
 * scenarios together. The run: scenario {@code ingest} 1,000 requests of 10 ms answered 201, scenario {@code probe}
 * 100 requests of 900 ms answered 503, over 50 s. By k6's rules over all 1,100 points: avg = (1000 x 10 + 100 x 900)
 * / 1100 = 90.909 ms; p(95) is the value at rank 0.95 x 1,099 = 1,044 of the sorted values, one of the 900-ms ones;
 * http_req_failed rate = 100 / 1100 = 0.0909; http_reqs count = 1,100. Judged on {@code ingest} alone every one of
 * these verdicts flips.
 */
class K6ThresholdsTest {

    private static final long START = 1_700_000_100L;

    @TempDir
    Path dir;

    @Test
    void aThresholdWithoutAFilterCoversEveryScenarioAsK6Does() throws Exception {
        Map<String, GateResult> gates = judge("k6-all", Map.of());

        assertThat(gates.get("http_req_duration: p(95)<500").pass()).isFalse();
        assertThat((double) gates.get("http_req_duration: p(95)<500").value()).isCloseTo(900.0, within(1.0));
        assertThat(gates.get("http_req_duration: avg<50").pass()).isFalse();
        assertThat((double) gates.get("http_req_duration: avg<50").value()).isCloseTo(90.9091, within(0.0001));
        assertThat(gates.get("http_req_failed: rate<0.05").pass()).isFalse();
        assertThat((double) gates.get("http_req_failed: rate<0.05").value()).isCloseTo(0.0909, within(0.0001));
        assertThat(gates.get("http_reqs: count>1050").pass()).isTrue();
        assertThat(((Number) gates.get("http_reqs: count>1050").value()).doubleValue()).isEqualTo(1100.0);
        assertThat(gates.get("dropped_iterations: count==0").pass()).isTrue();
    }

    @Test
    void judgingOneScenarioAloneGivesTheOppositeVerdict() throws Exception {
        Map<String, GateResult> gates = judge("k6-ingest", Map.of(
                "http_req_duration{scenario:ingest}", List.of("p(95)<500", "avg<50"),
                "http_req_failed{scenario:ingest}", List.of("rate<0.05"),
                "http_reqs{scenario:ingest}", List.of("count>1050")));

        assertThat(gates.get("http_req_duration{scenario:ingest}: p(95)<500").pass()).isTrue();
        assertThat((double) gates.get("http_req_duration{scenario:ingest}: p(95)<500").value())
                .isCloseTo(10.0, within(0.1));
        assertThat(gates.get("http_req_duration{scenario:ingest}: avg<50").pass()).isTrue();
        assertThat(gates.get("http_req_failed{scenario:ingest}: rate<0.05").pass()).isTrue();
        assertThat(gates.get("http_reqs{scenario:ingest}: count>1050").pass()).isFalse();
    }

    /** The run imported and replayed; {@code filtered} non-empty replaces the file's thresholds. */
    private Map<String, GateResult> judge(String series, Map<String, ?> filtered) throws Exception {
        Path file = dir.resolve(series + ".json");
        write(file);
        List<WireRecord> records = new ArrayList<>();
        K6Import.read(file, new K6Import.Options(series, 1, "k6", Map.of(), false, true, 200), records::add);
        Analyzer analyzer = Analyzer.forSeries(series);
        if (!filtered.isEmpty()) {
            analyzer = analyzer.withOverrides(s -> s.withThresholds(ThresholdParser.parseAll(filtered)));
        }
        Decision last = analyzer.replay(Flux.just(records)).blockLast(Duration.ofMinutes(1));
        assertThat(last).isInstanceOf(Decision.Series.class);
        RepeatSummary rep = ((Decision.Series) last).report().repeats().get(0);
        return rep.gates();
    }

    private static void write(Path file) throws Exception {
        StringBuilder b = new StringBuilder();
        b.append(metric("http_req_duration", "trend", "\"p(95)<500\",\"avg<50\""));
        b.append(metric("http_req_failed", "rate", "\"rate<0.05\""));
        b.append(metric("http_reqs", "counter", "\"count>1050\""));
        b.append(metric("dropped_iterations", "counter", "\"count==0\""));
        for (int s = 0; s < 50; s++) {
            for (int i = 0; i < 20; i++) {
                b.append(point(START + s, 10_000 + i * 40_000, "ingest", 201, 10.0));
            }
            for (int i = 0; i < 2; i++) {
                b.append(point(START + s, 950_000 + i * 10_000, "probe", 503, 900.0));
            }
        }
        Files.writeString(file, b.toString());
    }

    private static String metric(String name, String type, String thresholds) {
        return "{\"type\":\"Metric\",\"data\":{\"name\":\"" + name + "\",\"type\":\"" + type + "\",\"contains\":"
                + "\"default\",\"thresholds\":[" + thresholds + "],\"submetrics\":null},\"metric\":\"" + name + "\"}\n";
    }

    private static String point(long sec, long offsetUs, String scenario, int status, double ms) {
        String time = Instant.ofEpochSecond(sec, offsetUs * 1000).toString();
        String tags = "{\"expected_response\":\"" + (status < 400) + "\",\"scenario\":\"" + scenario
                + "\",\"status\":\"" + status + "\",\"method\":\"POST\"}";
        return String.format(Locale.ROOT, "{\"type\":\"Point\",\"data\":{\"time\":\"%s\",\"value\":%.3f,\"tags\":%s},"
                + "\"metric\":\"http_req_duration\"}%n", time, ms, tags)
                + String.format(Locale.ROOT, "{\"type\":\"Point\",\"data\":{\"time\":\"%s\",\"value\":%d,\"tags\":%s},"
                + "\"metric\":\"http_req_failed\"}%n", time, status < 400 ? 0 : 1, tags)
                + String.format(Locale.ROOT, "{\"type\":\"Point\",\"data\":{\"time\":\"%s\",\"value\":1,\"tags\":%s},"
                + "\"metric\":\"http_reqs\"}%n", time, tags);
    }
}
