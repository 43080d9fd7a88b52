package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.threshold.K6Verdict;
import io.rigscope.analyzer.threshold.Threshold;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gates of a repeat, in report order (docs/gates.md):
 * <ul>
 *   <li>sustained: config, each k6 threshold (or, for an imported k6 run, each threshold as k6 judged it and
 *       k6_agreement), dropped, failed, reconciliation (rows, qty), samples, drift, probe;</li>
 *   <li>ladder rung: config, delivered_ratio, dropped, reconciliation (rows, qty); drift is noted, not gated.</li>
 * </ul>
 */
final class GateSet {

    private final List<Gate> gates;

    private GateSet(List<Gate> gates) {
        this.gates = List.copyOf(gates);
    }

    /** The gates a repeat of this kind is judged by under these settings. */
    public static GateSet of(RepeatSummary.Kind kind, AnalyzerSettings settings) {
        return of(kind, settings, List.of());
    }

    /**
     * The gates of a repeat whose REPEAT_END carried k6's thresholds judged over an imported k6 run: those take the
     * place of the settings' thresholds (one {@link K6JudgedGate} each, then {@link K6AgreementGate}).
     */
    public static GateSet of(RepeatSummary.Kind kind, AnalyzerSettings settings, List<K6Verdict> k6Verdicts) {
        List<Gate> g = new ArrayList<>();
        g.add(new ConfigGate());
        if (kind == RepeatSummary.Kind.LADDER) {
            g.add(new DeliveredRatioGate(settings.ladderMinDeliveredRatio()));
            g.add(new DroppedGate());
            g.add(ReconciliationGate.rows(settings.reconciliationRequired()));
            g.add(ReconciliationGate.quantity(settings.reconciliationRequired()));
        } else {
            if (k6Verdicts.isEmpty()) {
                for (Threshold t : settings.thresholds()) {
                    g.add(new ThresholdGate(t, settings.thresholdsAllScenarios()));
                }
            } else {
                k6Verdicts.forEach(v -> g.add(new K6JudgedGate(v)));
                g.add(new K6AgreementGate(k6Verdicts));
            }
            g.add(new DroppedGate());
            g.add(new FailedGate());
            g.add(ReconciliationGate.rows(settings.reconciliationRequired()));
            g.add(ReconciliationGate.quantity(settings.reconciliationRequired()));
            g.add(new SamplesGate(settings.minSamples()));
            g.add(new DriftGate(settings.driftBound()));
            g.add(new ProbeGate(settings.probeP99Us()));
        }
        return new GateSet(g);
    }

    /** The gates, in order. */
    public List<Gate> gates() {
        return gates;
    }

    /** Every gate that applies, judged, keyed by name in order. */
    public Map<String, GateResult> judge(RepeatFacts facts) {
        Map<String, GateResult> out = new LinkedHashMap<>();
        for (Gate gate : gates) {
            if (gate.appliesTo(facts)) {
                out.put(gate.name(), gate.evaluate(facts));
            }
        }
        return out;
    }
}
