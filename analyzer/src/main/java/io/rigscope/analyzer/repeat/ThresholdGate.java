package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.repeat.RepeatJudge.AbortOnFail;
import io.rigscope.analyzer.second.Latency;
import io.rigscope.analyzer.second.RepeatTotals;
import io.rigscope.analyzer.second.ScenarioSeconds;
import io.rigscope.analyzer.threshold.Threshold;
import io.rigscope.analyzer.threshold.ThresholdExpression.Aggregation;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * One k6 threshold as a gate, judged as k6 judges it over the repeat: {@code http_req_duration} aggregates the
 * service time ({@code t2 - t1}, ms) of the closed seconds; {@code http_req_failed} is failed / all;
 * {@code http_reqs} and {@code dropped_iterations} are a count, or a rate per second of the repeat's span. With a
 * {@code {scenario:x}} tag filter the threshold covers that scenario; without one, the primary scenario, or, when
 * {@code thresholds_all_scenarios} is set, every point of the metric, all scenarios together (the probe
 * included), as k6 judges it. Nothing to measure fails.
 */
final class ThresholdGate implements Gate {

    private final Threshold threshold;
    private final boolean allScenarios;

    /**
     * @param allScenarios without a scenario filter: true judges every scenario together (k6's rule), false the
     *                     primary scenario
     */
    public ThresholdGate(Threshold threshold, boolean allScenarios) {
        this.threshold = Objects.requireNonNull(threshold, "threshold");
        this.allScenarios = allScenarios;
    }

    @Override
    public String name() {
        return threshold.name();
    }

    @Override
    public String rule() {
        return "k6 threshold " + threshold.name() + " holds over the repeat"
                + (threshold.scenario() != null ? "" : allScenarios ? ", all scenarios together"
                : ", primary scenario")
                + (threshold.abortOnFail() ? "; abortOnFail" + (threshold.delayAbortEval().isZero() ? ""
                : " from " + threshold.delayAbortEval().toMillis() + " ms") + " into the repeat: a failure stops it live"
                : "");
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        double value = value(facts.primary(), facts.scenarios(), facts.all(), facts.spanSec());
        return new GateResult(name(), threshold.holds(value), Double.isNaN(value) ? null : Gate.round(value, 4),
                threshold.limit());
    }

    /**
     * The threshold's value over the seconds given, measured as the gate measures it (the one home of that
     * measure: {@link io.rigscope.analyzer.repeat.RepeatJudge.AbortOnFail} takes it while a repeat runs); NaN when nothing
     * could be measured.
     *
     * @param primary the primary scenario's seconds, or null
     * @param byName any scenario's seconds by name (null when absent)
     * @param all every scenario's seconds
     * @param spanSec the seconds a rate is taken over
     */
    public double value(ScenarioSeconds primary, Function<String, ScenarioSeconds> byName, List<ScenarioSeconds> all,
                        long spanSec) {
        List<ScenarioSeconds> target;
        if (threshold.scenario() != null) {
            ScenarioSeconds one = byName.apply(threshold.scenario());
            target = one == null ? List.of() : List.of(one);
        } else if (allScenarios) {
            target = all;
        } else {
            target = primary == null ? List.of() : List.of(primary);
        }
        return measure(target, spanSec);
    }

    /** The threshold this gate judges. */
    public Threshold threshold() {
        return threshold;
    }

    private double measure(List<ScenarioSeconds> scenarios, long spanSec) {
        Aggregation.Kind kind = threshold.aggregation().kind();
        long count = 0;
        long failed = 0;
        long dropped = 0;
        double sumServiceUs = 0;
        long minUs = Long.MAX_VALUE;
        long maxUs = 0;
        for (ScenarioSeconds s : scenarios) {
            RepeatTotals t = s.totals();
            count += t.count();
            failed += t.failed();
            dropped += s.ledgerDropped();
            if (t.count() > 0) {
                sumServiceUs += t.meanServiceUs() * t.count();
                minUs = Math.min(minUs, t.minServiceUs());
                maxUs = Math.max(maxUs, t.maxServiceUs());
            }
        }
        if (scenarios.isEmpty() || count == 0 && kind != Aggregation.Kind.COUNT) {
            return Double.NaN;
        }
        double perSec = spanSec == 0 ? Double.NaN : 1.0 / spanSec;
        return switch (threshold.metric()) {
            case HTTP_REQ_DURATION -> switch (kind) {
                case AVG -> (scenarios.size() == 1 ? scenarios.get(0).totals().meanServiceUs() : sumServiceUs / count) / 1000.0;
                case MIN -> minUs / 1000.0;
                case MAX -> maxUs / 1000.0;
                case MED -> percentileUs(scenarios, 50) / 1000.0;
                case PERCENTILE -> percentileUs(scenarios, threshold.aggregation().percentile()) / 1000.0;
                default -> Double.NaN;
            };
            case HTTP_REQ_FAILED -> (double) failed / count;
            case HTTP_REQS -> kind == Aggregation.Kind.COUNT ? count : count * perSec;
            case DROPPED_ITERATIONS -> kind == Aggregation.Kind.COUNT ? dropped : dropped * perSec;
        };
    }

    private static long percentileUs(List<ScenarioSeconds> scenarios, double percentile) {
        if (scenarios.size() == 1) {
            return scenarios.get(0).totals().serviceAtPercentileUs(percentile);
        }
        Histogram pooled = Latency.newHistogram();
        scenarios.forEach(s -> s.totals().addServiceTo(pooled));
        return Latency.percentileUs(pooled, percentile);
    }
}
