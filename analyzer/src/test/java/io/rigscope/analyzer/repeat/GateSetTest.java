package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.RepeatSummary;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.second.ScenarioSeconds;
import io.rigscope.analyzer.threshold.ThresholdParser;
import io.rigscope.model.wire.DatabaseGain;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Sample;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The gates, one class each, judged over measured facts. */
class GateSetTest {

    private static final long T = 1_764_460_800_000_000L;

    @Test
    void onlyRequestsAnswered2xxClaimTheirEventsAndQuantity() {
        ScenarioSeconds s = new ScenarioSeconds("ingest", new ArrayDeque<>());
        s.record("gen-1", sample(201, ErrorKind.NONE, 50, 300), 50_000);
        s.record("gen-1", sample(201, ErrorKind.NONE, 50, 200), 50_000);
        s.record("gen-1", sample(500, ErrorKind.HTTP_5XX, 50, 999), 50_000);
        s.record("gen-1", sample(0, ErrorKind.TIMEOUT, 50, 999), 50_000);

        assertThat(s.totals().claimedEvents()).isEqualTo(100);
        assertThat(s.totals().claimedQty()).isEqualTo(500);
    }

    @Test
    void reconciliationComparesTheDatabasesGainWithTheSamplesClaim() {
        var gain = new DatabaseGain("s", 1, "rig", T, "sustained", 100, 499);
        Map<String, GateResult> gates = GateSet.of(RepeatSummary.Kind.SUSTAINED, AnalyzerSettings.defaults())
                .judge(facts(RepeatSummary.Kind.SUSTAINED, new RepeatFacts.Claim(100, 500), gain));

        assertThat(gates.get("reconciliation_rows")).isEqualTo(new GateResult("reconciliation_rows", true, 100L, 100L));
        assertThat(gates.get("reconciliation_qty")).isEqualTo(new GateResult("reconciliation_qty", false, 499L, 500L,
                "the database gained Σ quantity 1 short of the 500 claimed"));
    }

    @Test
    void rowsBeyondTheClaimsAreSetAgainstTheEventsOfRequestsThatTimedOutOrFailed() {
        var gain = new DatabaseGain("s", 6, "rig", T, "sustained", 3800, 3800);
        var claim = new RepeatFacts.Claim(2020, 2020, RepeatFacts.Unclaimed.of(
                Map.of(ErrorKind.TIMEOUT, 262L, ErrorKind.REFUSED, 4L), Map.of(ErrorKind.TIMEOUT, 2620L,
                        ErrorKind.REFUSED, 40L)));
        GateResult rows = GateSet.of(RepeatSummary.Kind.SUSTAINED, AnalyzerSettings.defaults())
                .judge(facts(RepeatSummary.Kind.SUSTAINED, claim, gain)).get("reconciliation_rows");

        // a refused connection sent nothing, so it is not among the requests that may have stored rows
        assertThat(rows.reason()).isEqualTo("the database gained 1780 rows beyond the 2020 events claimed; 262 "
                + "requests of 10 events timed out: 2,620 events that may have been stored, which can explain the 1,780");
    }

    @Test
    void withoutAMarkerReconciliationFailsWhenRequiredAndIsAbsentOtherwise() {
        var required = GateSet.of(RepeatSummary.Kind.SUSTAINED, AnalyzerSettings.defaults())
                .judge(facts(RepeatSummary.Kind.SUSTAINED, new RepeatFacts.Claim(10, 10), null));
        var optional = GateSet.of(RepeatSummary.Kind.SUSTAINED,
                        AnalyzerSettings.defaults().withConfig(Map.of("reconciliation_required", false)))
                .judge(facts(RepeatSummary.Kind.SUSTAINED, new RepeatFacts.Claim(10, 10), null));

        assertThat(required.get("reconciliation_rows").pass()).isFalse();
        assertThat(required.get("reconciliation_rows").value()).isNull();
        assertThat(optional).doesNotContainKeys("reconciliation_rows", "reconciliation_qty");
    }

    @Test
    void sustainedGatesComeInReportOrderWithEachThresholdFirst() {
        AnalyzerSettings settings = AnalyzerSettings.defaults()
                .withThresholds(List.of(ThresholdParser.parseFlag("http_req_duration: p(99)<500")));
        var gates = GateSet.of(RepeatSummary.Kind.SUSTAINED, settings)
                .judge(facts(RepeatSummary.Kind.SUSTAINED, new RepeatFacts.Claim(0, 0), null));

        assertThat(gates.keySet()).containsExactly("http_req_duration: p(99)<500", "dropped", "failed",
                "reconciliation_rows", "reconciliation_qty", "samples", "drift");
    }

    @Test
    void aLadderRungIsJudgedOnDeliveredRateDropsAndReconciliationOnly() {
        var gates = GateSet.of(RepeatSummary.Kind.LADDER, AnalyzerSettings.defaults())
                .judge(facts(RepeatSummary.Kind.LADDER, new RepeatFacts.Claim(0, 0), null));

        assertThat(gates.keySet()).containsExactly("delivered_ratio", "dropped", "reconciliation_rows",
                "reconciliation_qty");
        assertThat(gates.get("delivered_ratio").value()).isEqualTo(0.99);
    }

    @Test
    void everyGateStatesItsRuleWithItsSetting() {
        for (Gate g : GateSet.of(RepeatSummary.Kind.SUSTAINED, AnalyzerSettings.defaults()).gates()) {
            assertThat(g.rule()).as(g.name()).isNotBlank();
        }
        assertThat(new DriftGate(1.5).rule()).contains("1.5").contains("drift_bound");
        assertThat(new ProbeGate(500_000).rule()).contains("500.0 ms");
    }

    private static RepeatFacts facts(RepeatSummary.Kind kind, RepeatFacts.Claim claim, DatabaseGain gain) {
        return new RepeatFacts(kind, null, name -> null, 2000, 1000, 990, 0, 0, 20, null, -1, claim, gain, List.of(), List.of(), null);
    }

    private static Sample sample(int status, ErrorKind err, int batch, long qty) {
        return new Sample("ingest", T, T + 10, T + 2_000, status, err, batch, qty, 512);
    }
}
