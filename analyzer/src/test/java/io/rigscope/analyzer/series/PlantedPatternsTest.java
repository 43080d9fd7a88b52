package io.rigscope.analyzer.series;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.DecisionCodec;
import io.rigscope.analyzer.synthetic.SyntheticSeries.Plan;
import io.rigscope.analyzer.synthetic.SyntheticSeries.RepeatPlan;
import io.rigscope.analyzer.synthetic.SyntheticSeries.Stall;
import io.rigscope.analyzer.synthetic.SyntheticSeries;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Planted patterns through a real broker: publish a simulated series, replay it, read the report. */
@Tag("it")
class PlantedPatternsTest {

    private static final long START = 1_700_000_000L;

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();
    static final WireCodec CODEC = new WireCodec();

    @Test
    void oneFrozenSecondIsExactlyOneFreezeSecond() {
        Plan plan = Plan.of("frozen-second", 1, 60, 1000)
                .withRepeat(RepeatPlan.clean(1).withStalls(List.of(new Stall(30_000, 1_000))));
        Map<String, Object> rep = onlyRepeat(replay(publish(plan)));

        assertThat(rep.get("freeze_seconds")).isEqualTo(List.of(START + 31));
        assertThat(rep.get("freeze_cadence_s")).isNull();
    }

    @Test
    void quarterSecondFreezesEveryFiveSecondsGiveCadenceFiveSeconds() {
        List<Stall> stalls = new ArrayList<>();
        for (long at = 2_100; at < 60_000; at += 5_000) {
            stalls.add(new Stall(at, 250));
        }
        Plan plan = Plan.of("cadence-5s", 1, 60, 1000).withRepeat(RepeatPlan.clean(1).withStalls(stalls));
        Map<String, Object> rep = onlyRepeat(replay(publish(plan)));

        assertThat((List<?>) rep.get("freeze_seconds")).hasSize(12).first().isEqualTo(START + 2);
        assertThat(rep.get("freeze_cadence_s")).isEqualTo(5L);
        assertThat(rep.get("freeze_gaps_s")).isEqualTo(java.util.Collections.nCopies(11, 5L));
        long span = (Long) rep.get("span_s");
        assertThat(rep.get("freeze_per_10min")).isEqualTo(Math.round(12 * 600_000.0 / span) / 1000.0);
    }

    @Test
    void freezeStraddlingABucketEdgeIsCaughtPerSecondWhereTheWindowRuleMissesIt() {
        // stall 19.7 s .. 20.2 s: across the edge between buckets [10, 20) and [20, 30)
        Plan plan = Plan.of("straddle", 1, 60, 1000)
                .withRepeat(RepeatPlan.clean(1).withStalls(List.of(new Stall(19_700, 500))));
        Map<String, Object> report = replay(publish(plan));
        Map<String, Object> rep = onlyRepeat(report);

        assertThat(rep.get("freeze_seconds")).isEqualTo(List.of(START + 20));
        assertThat((List<?>) rep.get("windows")).isEmpty();
        assertThat((List<?>) report.get("episodes")).hasSize(1);
        @SuppressWarnings("unchecked")
        Map<String, Object> episode = (Map<String, Object>) ((List<?>) report.get("episodes")).get(0);
        assertThat(episode).containsEntry("start", START + 20).containsEntry("end", START + 21)
                .containsEntry("cause", "unattributed").containsEntry("confidence", "unattributed");
    }

    @Test
    void sustainedSlowdownOverTwoBucketsIsAWindow() {
        // 12 s of stalls of 200 ms every 400 ms from 30 s: buckets [30, 40) and [40, 50) are hot
        List<Stall> stalls = new ArrayList<>();
        for (long at = 30_000; at < 42_000; at += 400) {
            stalls.add(new Stall(at, 200));
        }
        Plan plan = Plan.of("window", 1, 90, 1000).withRepeat(RepeatPlan.clean(1).withStalls(stalls));
        Map<String, Object> rep = onlyRepeat(replay(publish(plan)));

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> windows = (List<Map<String, Object>>) rep.get("windows");
        assertThat(windows).hasSize(1);
        assertThat(windows.get(0)).containsEntry("start", START + 30).containsEntry("end", START + 50);
    }

    @Test
    void driftingRepeatFailsDrift() {
        Plan plan = Plan.of("drift", 1, 60, 1000).withRepeat(RepeatPlan.clean(1).withDrift(3.0));
        Map<String, Object> report = replay(publish(plan));
        Map<String, Object> rep = onlyRepeat(report);

        assertThat(gate(rep, "drift")).containsEntry("pass", false).containsEntry("limit", 1.5);
        assertThat((Double) gate(rep, "drift").get("value")).isGreaterThan(1.5);
        assertThat(failedGates(rep)).containsExactly("drift");
        assertThat(report).containsEntry("verdict", "FAIL").containsEntry("passed", 0);
    }

    @Test
    void oneDroppedRequestFailsTheRepeat() {
        Plan plan = Plan.of("one-drop", 1, 30, 1000).withRepeat(RepeatPlan.clean(1).withDrops(1));
        Map<String, Object> report = replay(publish(plan));
        Map<String, Object> rep = onlyRepeat(report);

        assertThat(rep).containsEntry("dropped", 1L).containsEntry("pass", false);
        assertThat(failedGates(rep)).containsExactly("dropped");
        assertThat(report).containsEntry("verdict", "FAIL");
    }

    @Test
    void probeSamplesNeverChangeIngestP99() {
        Plan without = Plan.of("no-probe", 1, 30, 1000);
        Plan with = Plan.of("with-probe", 1, 30, 1000).withProbe(100, 400_000);
        Map<String, Object> a = onlyRepeat(replay(publish(without)));
        Map<String, Object> b = onlyRepeat(replay(publish(with)));

        assertThat(b.get("p99_ms")).isEqualTo(a.get("p99_ms"));
        assertThat(b.get("p50_ms")).isEqualTo(a.get("p50_ms"));
        assertThat(b.get("samples")).isEqualTo(a.get("samples"));
        assertThat(b.get("freeze_seconds")).isEqualTo(List.of());
        assertThat((Double) b.get("probe_p99_ms")).isBetween(400.0, 401.0);
        assertThat(gate(b, "probe_p99_ms")).containsEntry("pass", true).containsEntry("limit", 500.0);
        assertThat(a.get("probe_p99_ms")).isNull();
    }

    @Test
    void cleanRepeatsPassWithFiguresFromThePassingRepeats() {
        Plan plan = Plan.of("clean", 3, 20, 500)
                .withConfig(Map.of("thresholds", Map.of("http_req_duration", List.of("p(99)<500", "avg<100")),
                        "min_samples", 1000))
                .withRepeat(RepeatPlan.clean(3).withDrops(2));
        Map<String, Object> report = replay(publish(plan));

        assertThat(report).containsEntry("verdict", "FAIL").containsEntry("passed", 2).containsEntry("total", 3);
        assertThat((Double) report.get("p99_ms")).isBetween(2.0, 3.0);
        assertThat(report.get("p99_range_ms")).asList().hasSize(2);
        @SuppressWarnings("unchecked")
        Map<String, Object> first = ((List<Map<String, Object>>) report.get("repeats")).get(0);
        assertThat(gate(first, "http_req_duration: p(99)<500")).containsEntry("pass", true).containsEntry("limit", 500.0);
        assertThat(failedGates(first)).isEmpty();
    }

    @Test
    void aRepeatThatDoesNotReconcileMakesTheSeriesUnreconciledWithoutFigures() {
        Plan plan = Plan.of("unreconciled", 2, 10, 200).withRepeat(RepeatPlan.clean(2).withReconciles(false));
        Map<String, Object> report = replay(publish(plan));

        assertThat(report).containsEntry("verdict", "UNRECONCILED").containsEntry("p99_ms", null)
                .containsEntry("p50_ms", null).containsEntry("worst_10s_p99_ms", null);
        assertThat((String) report.get("reconciliation")).contains("repeat 2").contains("rows_written");
    }

    @Test
    void replayReachesTheLiveReportByteForByte() throws Exception {
        List<Stall> stalls = List.of(new Stall(10_300, 400), new Stall(15_300, 400), new Stall(41_000, 1_500));
        Plan plan = Plan.of("live-vs-replay", 2, 45, 800).withProbe(20, 30_000)
                .withRepeat(RepeatPlan.clean(1).withStalls(stalls))
                .withRepeat(RepeatPlan.clean(2).withDrops(1));
        var source = new WireSource(kafka.bootstrap(), CODEC);
        CompletableFuture<List<Decision>> live = Analyzer.forSeries(plan.series())
                .live(AnalyzerInput.fromKafka(source, plan.series(), true, f -> { }))
                .collectList().toFuture();
        Thread.sleep(1_500);
        publish(plan);
        List<Decision> liveDecisions = live.get(60, TimeUnit.SECONDS);
        Decision last = liveDecisions.get(liveDecisions.size() - 1);
        assertThat(last).isInstanceOf(Decision.Series.class);
        Map<String, Object> liveReport = DecisionCodec.body(last);
        Map<String, Object> replayReport = replay(plan.series());

        assertThat(replayReport).isEqualTo(liveReport);
        assertThat(new String(DecisionCodec.reportJson(((Decision.Series) last).report())))
                .isEqualTo(new String(DecisionCodec.reportJson(replayDecision(plan.series()).report())));
        assertThat(onlyFreezes(liveReport)).isNotEmpty();
        assertThat(liveDecisions).filteredOn(d -> d instanceof Decision.Repeat).hasSize(2);
    }

    // ---- helpers ----

    private static List<Object> onlyFreezes(Map<String, Object> report) {
        List<Object> all = new ArrayList<>();
        for (Object r : (List<?>) report.get("repeats")) {
            all.addAll((List<?>) ((Map<?, ?>) r).get("freeze_seconds"));
        }
        return all;
    }

    private static String publish(Plan plan) {
        try (WirePublisher publisher = new WirePublisher(kafka.bootstrap(), CODEC, WirePublisher.Options.defaults())) {
            SyntheticSeries.emit(plan, publisher::publish);
            publisher.flush();
            assertThat(publisher.failed()).isZero();
        }
        return plan.series();
    }

    /** The replayed report as {@code rig.verdicts} carries it (the SERIES verdict's body). */
    private static Map<String, Object> replay(String series) {
        return DecisionCodec.toVerdict(replayDecision(series)).body();
    }

    private static Decision.Series replayDecision(String series) {
        var source = new WireSource(kafka.bootstrap(), CODEC);
        List<Decision> decisions = Analyzer.forSeries(series)
                .replay(AnalyzerInput.fromKafka(source, series, false, f -> {
                    throw new AssertionError("dead letter: " + f.deadLetter().reason());
                }))
                .collectList().block(Duration.ofSeconds(60));
        Decision last = decisions.get(decisions.size() - 1);
        assertThat(last).isInstanceOf(Decision.Series.class);
        return (Decision.Series) last;
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

    @SuppressWarnings("unchecked")
    private static List<String> failedGates(Map<String, Object> rep) {
        return ((Map<String, Map<String, Object>>) rep.get("gates")).entrySet().stream()
                .filter(e -> !Boolean.TRUE.equals(e.getValue().get("pass"))).map(Map.Entry::getKey).toList();
    }
}
