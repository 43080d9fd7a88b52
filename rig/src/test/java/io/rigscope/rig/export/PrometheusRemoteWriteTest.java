package io.rigscope.rig.export;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.cli.RigscopeRun;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recorded series replayed by {@code rigscope analyze --input ... --prometheus-rw} into a real Prometheus
 * (Debian's package), then read back through its HTTP API: every closed second's p99 from
 * {@code histogram_quantile} against the analyzer's own, and the counters against the report. Skipped, saying so,
 * only when no {@code prometheus} binary is on the PATH (.ci/run installs it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("it")
class PrometheusRemoteWriteTest {

    static final Path RECORDED = Path.of("..", "analyzer", "src", "test", "resources", "recorded",
            "demo-quick-server-timing.jsonl.gz");
    static final String SERIES = "demo-20261202-071224";
    /** Neighbouring bucket boundaries of the schema are 2^(2^-schema) apart: schema 7, one bucket is 0.543 %. */
    static final double ONE_BUCKET = Math.pow(2, Math.pow(2, -NativeHistogram.SCHEMA)) - 1;

    LocalPrometheus prometheus;
    RigscopeRun pushed;
    List<Decision> decisions;
    SeriesReport report;

    @BeforeAll
    void replayIntoPrometheus(@TempDir Path dir) throws Exception {
        Path binary = LocalPrometheus.binary();
        assumeTrue(binary != null, "no prometheus binary on the PATH: apt-get install prometheus (.ci/run does)");
        prometheus = LocalPrometheus.start(binary, dir);
        pushed = rigscope("analyze", "--series", SERIES, "--input", RECORDED.toString(), "--quiet",
                "--report-json", dir.resolve("report.json").toString(), "--prometheus-rw", prometheus.writeUrl());
        decisions = Analyzer.forSeries(SERIES)
                .replay(AnalyzerInput.fromWireFile(RECORDED, new WireCodec(), f -> { }))
                .collectList().block();
        report = ((Decision.Series) decisions.get(decisions.size() - 1)).report();
    }

    @AfterAll
    void stop() throws Exception {
        if (prometheus != null) {
            prometheus.close();
        }
    }

    @Test
    void everySampleReachesPrometheusAndTheRunSaysSoInOneLine() {
        assertThat(pushed.exit()).isEqualTo(99); // the recording's verdict: FAIL
        List<String> lines = pushed.out().lines().filter(l -> l.startsWith("prometheus-rw:")).toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).contains("sent to " + prometheus.writeUrl()).doesNotContain("NOT sent");
    }

    @Test
    void everyClosedSecondsP99FromTheNativeHistogramIsWithinOneBucketOfTheAnalyzers() throws Exception {
        Map<String, TreeMap<Long, Long>> p99UsBySecond = new TreeMap<>();
        for (Decision d : decisions) {
            if (d instanceof Decision.Second s && !s.provisional() && s.second().count() > 0) {
                p99UsBySecond.computeIfAbsent(s.rep() + "/" + s.scenario(), k -> new TreeMap<>())
                        .put(s.tsUs() / 1_000_000, s.second().p99ServiceUs());
            }
        }
        assertThat(p99UsBySecond).isNotEmpty();
        int compared = 0;
        double worst = 0;
        for (var e : p99UsBySecond.entrySet()) {
            String[] repScenario = e.getKey().split("/", 2);
            TreeMap<Long, Long> expected = e.getValue();
            List<JsonNode> range = prometheus.queryRange(String.format(Locale.ROOT,
                    "histogram_quantile(0.99, rigscope_second_service_seconds{series=\"%s\",rep=\"%s\",scenario=\"%s\"})",
                    SERIES, repScenario[0], repScenario[1]), expected.firstKey(), expected.lastKey());
            assertThat(range).as(e.getKey()).hasSize(1);
            Map<Long, Double> fromPrometheus = new HashMap<>();
            range.get(0).path("values").forEach(v -> fromPrometheus.put(v.get(0).asLong(), v.get(1).asDouble()));
            for (var second : expected.entrySet()) {
                double rigscopeSec = second.getValue() / 1e6;
                Double promSec = fromPrometheus.get(second.getKey());
                assertThat(promSec).as("%s second %d", e.getKey(), second.getKey()).isNotNull();
                double error = Math.abs(promSec - rigscopeSec) / rigscopeSec;
                worst = Math.max(worst, error);
                assertThat(error).as("%s second %d: prometheus %s s, rigscope %s s", e.getKey(), second.getKey(),
                        promSec, rigscopeSec).isLessThanOrEqualTo(ONE_BUCKET);
                compared++;
            }
        }
        System.out.printf(Locale.ROOT, "PrometheusRemoteWriteTest: %d closed seconds compared, worst p99 error %.3f %%%n",
                compared, worst * 100);
        assertThat(ONE_BUCKET).isLessThan(0.01);
        assertThat(compared).isGreaterThanOrEqualTo(80); // the recording closed 81 seconds that had requests
    }

    @Test
    void eachRepeatsCountersAndGatesInPrometheusEqualTheReports() throws Exception {
        double at = lastTimeSec();
        for (RepeatSummary r : report.repeats()) {
            String sel = String.format(Locale.ROOT, "{series=\"%s\",rep=\"%d\"}", SERIES, r.rep());
            assertThat(value("rigscope_repeat_samples" + sel, at)).as("rep %d samples", r.rep()).isEqualTo(r.samples());
            assertThat(value("rigscope_repeat_dropped_requests" + sel, at)).isEqualTo(r.dropped());
            assertThat(value("rigscope_repeat_failed_requests" + sel, at)).isEqualTo(r.failed());
            assertThat(value("rigscope_repeat_events_claimed" + sel, at)).isEqualTo(r.eventsClaimed());
            assertThat(value("rigscope_repeat_pass" + sel, at)).isEqualTo(r.pass() ? 1 : 0);
            assertThat(value("rigscope_repeat_freeze_seconds" + sel, at)).isEqualTo(r.freezeSeconds().size());
            assertThat(byLabel("rigscope_repeat_freeze_seconds_by_cause" + sel, "cause", at))
                    .isEqualTo(r.freezeSecondsByCause().entrySet().stream().collect(Collectors.toMap(
                            Map.Entry::getKey, x -> (long) x.getValue())));
            assertThat(byLabel("rigscope_gate_pass" + sel, "gate", at)).isEqualTo(r.gates().values().stream()
                    .collect(Collectors.toMap(g -> g.name(), g -> g.pass() ? 1L : 0L)));
        }
        assertThat(report.repeats().stream().mapToLong(RepeatSummary::dropped).sum()).isPositive();
    }

    @Test
    void freezeSecondsByCauseAndTheVerdictInPrometheusEqualTheReports() throws Exception {
        double at = lastTimeSec();
        String sel = "{series=\"" + SERIES + "\"}";
        Map<String, Long> expected = report.freezeSecondsByCause().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> (long) e.getValue()));
        assertThat(expected).isNotEmpty();
        assertThat(byLabel("rigscope_series_freeze_seconds_by_cause" + sel, "cause", at)).isEqualTo(expected);
        assertThat(value("rigscope_series_pass" + sel, at)).isZero();
        assertThat(value("rigscope_series_passed_repeats" + sel, at)).isEqualTo(report.passed());
        long freezeDecisions = decisions.stream().filter(d -> d instanceof Decision.Freeze).count();
        assertThat(value("sum(count_over_time(rigscope_freeze_second" + sel + "[1h]))", at))
                .isEqualTo(freezeDecisions);
    }

    @Test
    void theRunningTotalsEndAtTheSumOfTheClosedSeconds() throws Exception {
        double at = lastTimeSec();
        Map<String, Long> dropped = new TreeMap<>();
        for (Decision d : decisions) {
            if (d instanceof Decision.Second s && !s.provisional()) {
                dropped.merge(s.rep() + "/" + s.scenario(), s.second().ledger().dropped(), Long::sum);
            }
        }
        Map<String, Long> fromPrometheus = new TreeMap<>();
        for (JsonNode r : prometheus.query("last_over_time(rigscope_dropped_requests_total{series=\"" + SERIES
                + "\"}[1h])", at)) {
            fromPrometheus.put(r.path("metric").path("rep").asText() + "/" + r.path("metric").path("scenario").asText(),
                    r.path("value").get(1).asLong());
        }
        assertThat(fromPrometheus).isEqualTo(dropped);
    }

    @Test
    void everyQueryOfTheGrafanaDashboardAnswersWithData() throws Exception {
        JsonNode dashboard = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(Path.of("..", "dashboards", "grafana", "rigscope.json").toFile());
        long first = decisions.get(0).tsUs() / 1_000_000;
        long last = (long) lastTimeSec() + 60;
        int queries = 0;
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr").asText().replace("$series", SERIES).replace("$scenario", ".+");
                List<JsonNode> result = prometheus.queryRange(expr, first, last);
                assertThat(result).as("%s: %s", panel.path("title").asText(), expr).isNotEmpty();
                assertThat(result.get(0).path("values").size()).as(expr).isPositive();
                queries++;
            }
        }
        for (JsonNode variable : dashboard.at("/templating/list")) {
            String definition = variable.path("definition").asText();
            if (definition.startsWith("label_values(")) {
                String[] args = definition.substring("label_values(".length(), definition.length() - 1)
                        .replace("$series", SERIES).split(", ");
                List<JsonNode> result = prometheus.queryRange(args[0], first, last);
                assertThat(result).as(definition).isNotEmpty()
                        .allSatisfy(r -> assertThat(r.path("metric").path(args[1]).asText()).isNotEmpty());
                queries++;
            }
        }
        assertThat(queries).isGreaterThanOrEqualTo(20);
    }

    private double lastTimeSec() {
        return decisions.get(decisions.size() - 1).tsUs() / 1e6;
    }

    private long value(String selector, double at) throws Exception {
        String q = selector.startsWith("sum(") ? selector : "last_over_time(" + selector + "[1h])";
        List<JsonNode> r = prometheus.query(q, at);
        assertThat(r).as(q).hasSize(1);
        return Math.round(r.get(0).path("value").get(1).asDouble());
    }

    private Map<String, Long> byLabel(String selector, String label, double at) throws Exception {
        Map<String, Long> out = new HashMap<>();
        for (JsonNode r : prometheus.query("last_over_time(" + selector + "[1h])", at)) {
            out.put(r.path("metric").path(label).asText(), Math.round(r.path("value").get(1).asDouble()));
        }
        return out;
    }
}
