package io.rigscope.importers.k6;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.threshold.K6Verdict;
import io.rigscope.analyzer.threshold.ThresholdDecl;
import io.rigscope.model.wire.WireRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

/**
 * Thresholds judged as k6 judges them. The run: scenario {@code ingest} 1,000 requests answered 201 (service time
 * 10 ms + i x 0.001 ms), scenario {@code probe} 100 requests of 900 ms answered 503, over 50 s; a custom Trend
 * {@code queue_wait} (10.001 ms, 2,000 points), a custom Counter {@code events_sent} (10 per ingest request), a
 * Gauge {@code queue_depth} (last value 7), a Rate {@code accepted} (1 per ingest, 0 per probe). Expected values are
 * computed here by k6's rules: trend percentile by linear interpolation at rank p x (n - 1), rate = non-zero / all,
 * counter rate = count / test duration, gauge = last value.
 */
class K6ThresholdsTest {

    private static final long START = 1_700_000_100L;

    @TempDir
    Path dir;

    @Test
    void aThresholdWithoutAFilterCoversEveryScenarioAsK6Does() throws Exception {
        Map<String, GateResult> gates = judge("k6-all", Map.of(), null);

        double[] all = durations(true, true);
        assertThat(gates.get("http_req_duration: p(95)<500").pass()).isFalse();
        assertThat((double) gates.get("http_req_duration: p(95)<500").value())
                .isCloseTo(k6Percentile(all, 95), within(1e-4));
        assertThat(gates.get("http_req_duration: avg<50").pass()).isFalse();
        assertThat((double) gates.get("http_req_duration: avg<50").value())
                .isCloseTo(Arrays.stream(all).average().orElseThrow(), within(1e-4));
        assertThat(gates.get("http_req_failed: rate<0.05").pass()).isFalse();
        assertThat((double) gates.get("http_req_failed: rate<0.05").value()).isCloseTo(100.0 / 1100, within(1e-4));
        assertThat(gates.get("http_reqs: count>1050").pass()).isTrue();
        assertThat((double) gates.get("http_reqs: count>1050").value()).isEqualTo(1100.0);
        assertThat(gates.get("dropped_iterations: count==0").pass()).as("no point: k6 judges the empty counter as 0")
                .isTrue();
    }

    @Test
    void judgingOneScenarioAloneGivesTheOppositeVerdict() throws Exception {
        Map<String, GateResult> gates = judge("k6-ingest", Map.of(
                "http_req_duration{scenario:ingest}", List.of("p(95)<500", "avg<50"),
                "http_req_failed{scenario:ingest}", List.of("rate<0.05"),
                "http_reqs{scenario:ingest}", List.of("count>1050")), null);

        double[] ingest = durations(true, false);
        assertThat(gates.get("http_req_duration{scenario:ingest}: p(95)<500").pass()).isTrue();
        assertThat((double) gates.get("http_req_duration{scenario:ingest}: p(95)<500").value())
                .isCloseTo(k6Percentile(ingest, 95), within(1e-4));
        assertThat(gates.get("http_req_duration{scenario:ingest}: avg<50").pass()).isTrue();
        assertThat(gates.get("http_req_failed{scenario:ingest}: rate<0.05").pass()).isTrue();
        assertThat(gates.get("http_reqs{scenario:ingest}: count>1050").pass()).isFalse();
        assertThat(gates.get("http_req_duration: p(95)<500").pass()).as("the same threshold, all scenarios").isFalse();
    }

    @Test
    void anyTagFilterSelectsByTagsAndSeveralTagsMustAllMatch() throws Exception {
        Map<String, GateResult> gates = judge("k6-tags", Map.of(
                "http_req_duration{expected_response:true}", List.of("max<20"),
                "http_req_duration{status:503}", List.of("min>=900"),
                "http_req_duration{name:http://sut/aggregate}", List.of("med==900"),
                "http_req_duration{scenario:probe,status:201}", List.of("count<1"),
                "http_reqs{scenario:probe,status:503}", List.of("count==100")), null);

        double[] ingest = durations(true, false);
        assertThat((double) gates.get("http_req_duration{expected_response:true}: max<20").value())
                .isCloseTo(ingest[ingest.length - 1], within(1e-9));
        assertThat(gates.get("http_req_duration{expected_response:true}: max<20").pass()).isTrue();
        assertThat(gates.get("http_req_duration{status:503}: min>=900").pass()).isTrue();
        assertThat(gates.get("http_req_duration{name:http://sut/aggregate}: med==900").pass()).isTrue();
        assertThat(gates.get("http_reqs{scenario:probe,status:503}: count==100").pass()).isTrue();
        GateResult notAllowed = gates.get("http_req_duration{scenario:probe,status:201}: count<1");
        assertThat(notAllowed.pass()).as("count is not a trend aggregation in k6: cannot judge, so it fails").isFalse();
        assertThat(notAllowed.value()).asString().startsWith("not judged: k6 does not allow count on a trend");
    }

    @Test
    void customTrendCounterGaugeAndRateMetricsUseK6sAggregations() throws Exception {
        Map<String, GateResult> gates = judge("k6-custom", Map.of(), null);

        assertThat(gates.get("queue_wait: p(99)<10.002").pass())
                .as("exact: every value is 10.001 ms, a 3-digit histogram would read 10.007 and fail it").isTrue();
        assertThat((double) gates.get("queue_wait: p(99)<10.002").value()).isCloseTo(10.001, within(1e-9));
        assertThat((double) gates.get("events_sent: count>=10000").value()).isEqualTo(10_000.0);
        double spanSec = lastPointUs() / 1e6 - firstPointUs() / 1e6;
        assertThat((double) gates.get("events_sent: rate>150").value()).isCloseTo(10_000 / spanSec, within(1e-3));
        assertThat(gates.get("events_sent: rate>150").pass()).isTrue();
        assertThat((double) gates.get("queue_depth: value<10").value()).isEqualTo(7.0);
        assertThat((double) gates.get("accepted: rate>0.95").value()).isCloseTo(1000.0 / 1100, within(1e-4));
        assertThat(gates.get("accepted: rate>0.95").pass()).isFalse();
        assertThat(gates.get("queue_depth: p(95)<5").pass()).isFalse();
        assertThat(gates.get("queue_depth: p(95)<5").value()).asString()
                .isEqualTo("not judged: k6 does not allow p on a gauge (queue_depth)");
    }

    @Test
    void k6sOwnSummaryVerdictsSitBesideAndADisagreementFailsTheRepeat() throws Exception {
        Path summary = dir.resolve("summary.json");
        // k6's export: true means the threshold failed
        Files.writeString(summary, "{\"metrics\":{"
                + "\"http_req_duration\":{\"avg\":1,\"thresholds\":{\"p(95)<500\":true,\"avg<50\":true}},"
                + "\"http_req_failed\":{\"value\":0.09,\"thresholds\":{\"rate<0.05\":false}},"
                + "\"http_reqs\":{\"count\":1100,\"thresholds\":{\"count>1050\":false}}},"
                + "\"state\":{\"testRunDurationMs\":50000}}");
        Map<String, GateResult> gates = judge("k6-summary", Map.of(), K6Summary.read(summary));

        assertThat(gates.get("k6_agreement").pass()).isFalse();
        assertThat(gates.get("k6_agreement").value()).asString()
                .isEqualTo("http_req_failed: rate<0.05: k6 pass, rigscope fail");
        assertThat((double) gates.get("events_sent: rate>150").value()).as("the summary's test duration")
                .isCloseTo(200.0, within(1e-9));
    }

    @Test
    void abortOnFailIsReportedWithTheThreshold() throws Exception {
        List<WireRecord> records = new ArrayList<>();
        Path file = dir.resolve("abort.json");
        write(file);
        K6Import.Result result = K6Import.read(file, new K6Import.Options("k6-abort", 1, "k6", Map.of(), false, true,
                200).withK6(Map.of("http_req_duration", List.of(new ThresholdDecl("p(99)<100", true, "10s"))),
                null), records::add);

        K6Verdict v = result.verdicts().stream().filter(x -> x.key().equals("http_req_duration: p(99)<100"))
                .findFirst().orElseThrow();
        assertThat(v.pass()).isFalse();
        assertThat(v.abortOnFail()).isTrue();
        assertThat(v.delayAbortEval()).isEqualTo("10s");
    }

    @Test
    void theScenarioMapRenamesThresholdFiltersAsWellAsSamples() throws Exception {
        Path file = dir.resolve("mapped.json");
        write(file);
        List<WireRecord> records = new ArrayList<>();
        K6Import.read(file, new K6Import.Options("k6-mapped", 1, "k6", Map.of("probe", "read"), false, true, 200)
                .withK6(Map.of("http_req_duration{scenario:probe}", List.of(new ThresholdDecl("p(50)>800", false, null))), null), records::add);
        Map<String, GateResult> gates = gates("k6-mapped", records);

        assertThat(gates.get("http_req_duration{scenario:read}: p(50)>800").pass()).isTrue();
        assertThat((double) gates.get("http_req_duration{scenario:read}: p(50)>800").value()).isEqualTo(900.0);
    }

    /** The run imported (with {@code optionThresholds} from an options file) and replayed; the repeat's gates. */
    private Map<String, GateResult> judge(String series, Map<String, List<String>> optionThresholds, K6Summary summary)
            throws Exception {
        Path file = dir.resolve(series + ".json");
        write(file);
        Map<String, List<ThresholdDecl>> decls = new java.util.LinkedHashMap<>();
        optionThresholds.forEach((k, v) -> decls.put(k, v.stream()
                .map(e -> new ThresholdDecl(e, false, null)).toList()));
        List<WireRecord> records = new ArrayList<>();
        K6Import.read(file, new K6Import.Options(series, 1, "k6", Map.of(), false, true, 200).withK6(decls, summary),
                records::add);
        return gates(series, records);
    }

    private static Map<String, GateResult> gates(String series, List<WireRecord> records) {
        Decision last = Analyzer.forSeries(series).replay(Flux.just(records)).blockLast(Duration.ofMinutes(1));
        assertThat(last).isInstanceOf(Decision.Series.class);
        RepeatSummary rep = ((Decision.Series) last).report().repeats().get(0);
        return rep.gates();
    }

    /** k6's trend percentile: linear interpolation at rank pct/100 x (n - 1) of the sorted values. */
    private static double k6Percentile(double[] values, double pct) {
        double[] v = values.clone();
        Arrays.sort(v);
        double i = pct / 100 * (v.length - 1);
        double lo = v[(int) Math.floor(i)];
        double hi = v[(int) Math.ceil(i)];
        return lo + (hi - lo) * (i - Math.floor(i));
    }

    private static double ingestMs(int s, int i) {
        return 10.0 + (s * 20 + i) * 0.001;
    }

    private static double[] durations(boolean ingest, boolean probe) {
        List<Double> out = new ArrayList<>();
        for (int s = 0; s < 50; s++) {
            for (int i = 0; i < 20 && ingest; i++) {
                out.add(ingestMs(s, i));
            }
            for (int i = 0; i < 2 && probe; i++) {
                out.add(900.0);
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static long firstPointUs() {
        return (START) * 1_000_000L + 10_000;
    }

    private static long lastPointUs() {
        return (START + 49) * 1_000_000L + 960_000;
    }

    private static void write(Path file) throws Exception {
        StringBuilder b = new StringBuilder();
        b.append(metric("http_req_duration", "trend", "\"p(95)<500\",\"avg<50\""));
        b.append(metric("http_req_failed", "rate", "\"rate<0.05\""));
        b.append(metric("http_reqs", "counter", "\"count>1050\""));
        b.append(metric("dropped_iterations", "counter", "\"count==0\""));
        b.append(metric("queue_wait", "trend", "\"p(99)<10.002\""));
        b.append(metric("events_sent", "counter", "\"count>=10000\",\"rate>150\""));
        b.append(metric("queue_depth", "gauge", "\"value<10\",\"p(95)<5\""));
        b.append(metric("accepted", "rate", "\"rate>0.95\""));
        for (int s = 0; s < 50; s++) {
            for (int i = 0; i < 20; i++) {
                long us = (START + s) * 1_000_000L + 10_000 + i * 40_000;
                b.append(point(us, "ingest", 201, ingestMs(s, i), "events"));
                b.append(custom("queue_wait", us, 10.001, "ingest"));
                b.append(custom("queue_wait", us, 10.001, "ingest"));
                b.append(custom("events_sent", us, 10, "ingest"));
                b.append(custom("accepted", us, 1, "ingest"));
            }
            for (int i = 0; i < 2; i++) {
                long us = (START + s) * 1_000_000L + 950_000 + i * 10_000;
                b.append(point(us, "probe", 503, 900.0, "aggregate"));
                b.append(custom("accepted", us, 0, "probe"));
            }
            b.append(custom("queue_depth", (START + s) * 1_000_000L + 500_000, s == 49 ? 7 : 40 + s, "ingest"));
        }
        Files.writeString(file, b.toString());
    }

    private static String metric(String name, String type, String thresholds) {
        return "{\"type\":\"Metric\",\"data\":{\"name\":\"" + name + "\",\"type\":\"" + type + "\",\"contains\":"
                + "\"default\",\"thresholds\":[" + thresholds + "],\"submetrics\":null},\"metric\":\"" + name + "\"}\n";
    }

    private static String time(long us) {
        return Instant.ofEpochSecond(us / 1_000_000L, (us % 1_000_000L) * 1000).toString();
    }

    private static String custom(String metric, long us, double value, String scenario) {
        return String.format(Locale.ROOT, "{\"metric\":\"%s\",\"type\":\"Point\",\"data\":{\"time\":\"%s\",\"value\":%s,"
                + "\"tags\":{\"group\":\"\",\"scenario\":\"%s\"}}}%n", metric, time(us), value, scenario);
    }

    private static String point(long us, String scenario, int status, double ms, String path) {
        String time = time(us);
        String tags = "{\"expected_response\":\"" + (status < 400) + "\",\"scenario\":\"" + scenario
                + "\",\"status\":\"" + status + "\",\"method\":\"POST\",\"name\":\"http://sut/" + path + "\"}";
        return String.format(Locale.ROOT, "{\"type\":\"Point\",\"data\":{\"time\":\"%s\",\"value\":%s,\"tags\":%s},"
                + "\"metric\":\"http_req_duration\"}%n", time, ms, tags)
                + String.format(Locale.ROOT, "{\"type\":\"Point\",\"data\":{\"time\":\"%s\",\"value\":%d,\"tags\":%s},"
                + "\"metric\":\"http_req_failed\"}%n", time, status < 400 ? 0 : 1, tags)
                + String.format(Locale.ROOT, "{\"type\":\"Point\",\"data\":{\"time\":\"%s\",\"value\":1,\"tags\":%s},"
                + "\"metric\":\"http_reqs\"}%n", time, tags);
    }

    @Test
    void aPercentileJudgedAgainAfterMorePointsCoversThemAll() {
        K6Thresholds judge = new K6Thresholds(Map.of());
        judge.declare("http_req_duration", List.of(new ThresholdDecl("p(50)<100", false, null),
                new ThresholdDecl("max<1000", false, null)));
        for (int v : new int[] {30, 10, 20}) {
            judge.accept(new K6Line.Point("http_req_duration", START * 1_000_000L + v, v, K6Tags.EMPTY));
        }
        assertThat(judge.judge(null).get(0).value()).isEqualTo(20.0);
        for (int v : new int[] {500, 1, 400, 300}) {
            judge.accept(new K6Line.Point("http_req_duration", START * 1_000_000L + v, v, K6Tags.EMPTY));
        }
        // 1 10 20 30 300 400 500: the median is the 4th
        assertThat(judge.judge(null).get(0).value()).isEqualTo(30.0);
        assertThat(judge.judge(null).get(1).value()).isEqualTo(500.0);
    }

    @Test
    void percentilesReadInAnyOrderAreTheSortedValuesInterpolatedWithNegativeZeroBeforeZero() {
        for (boolean negativeZero : new boolean[] {false, true}) {
            K6Thresholds judge = new K6Thresholds(Map.of());
            List<String> expressions = List.of("p(99.9)<1", "p(10)<1", "p(95)<1", "med<1", "p(0)<1", "p(100)<1",
                    "p(99)<1");
            judge.declare("queue_wait", expressions.stream().map(e -> new ThresholdDecl(e, false, null))
                    .toList());
            judge.type("queue_wait", "trend");
            java.util.Random random = new java.util.Random(3);
            double[] values = new double[5_001];
            for (int i = 0; i < values.length; i++) {
                values[i] = negativeZero && i % 7 == 0 ? (i % 2 == 0 ? -0.0 : 0.0) : random.nextInt(2000) / 10.0;
                judge.accept(new K6Line.Point("queue_wait", START * 1_000_000L + i, values[i], K6Tags.EMPTY));
            }
            double[] sorted = values.clone();
            Arrays.sort(sorted);
            List<K6Verdict> verdicts = judge.judge(null);
            for (int t = 0; t < expressions.size(); t++) {
                String e = expressions.get(t);
                double pct = e.startsWith("med") ? 50 : Double.parseDouble(e.substring(2, e.indexOf(')')));
                double rank = pct / 100 * (sorted.length - 1);
                double lo = sorted[(int) Math.floor(rank)];
                double hi = sorted[(int) Math.ceil(rank)];
                assertThat(verdicts.get(t).value()).as("%s negative zero %s", e, negativeZero)
                        .isEqualTo(lo + (hi - lo) * (rank - Math.floor(rank)));
            }
        }
    }
}
