package io.rigscope.analyzer.gate;

import io.rigscope.analyzer.second.ScenarioSeconds;
import io.rigscope.analyzer.threshold.Aggregation;
import io.rigscope.analyzer.threshold.Threshold;
import java.util.Objects;

/**
 * One k6 threshold as a gate, judged as k6 judges it over the repeat: {@code http_req_duration} aggregates the
 * service time ({@code t2 - t1}, ms) of the scenario's closed seconds; {@code http_req_failed} is failed / all;
 * {@code http_reqs} and {@code dropped_iterations} are a count, or a rate per second of the repeat's span. The
 * scenario is the threshold's {@code {scenario:x}} tag, else the primary scenario. Nothing to measure fails.
 */
public final class ThresholdGate implements Gate {

    private final Threshold threshold;

    public ThresholdGate(Threshold threshold) {
        this.threshold = Objects.requireNonNull(threshold, "threshold");
    }

    @Override
    public String name() {
        return threshold.name();
    }

    @Override
    public String rule() {
        return "k6 threshold " + threshold.name() + " holds over the repeat";
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        ScenarioSeconds target = threshold.scenario() == null ? facts.primary()
                : facts.scenarios().apply(threshold.scenario());
        double value = measure(target, facts.spanSec());
        return new GateResult(name(), threshold.holds(value), Double.isNaN(value) ? null : Gate.round(value, 4),
                threshold.limit());
    }

    private double measure(ScenarioSeconds s, long spanSec) {
        Aggregation.Kind kind = threshold.aggregation().kind();
        if (s == null || s.count() == 0 && kind != Aggregation.Kind.COUNT) {
            return Double.NaN;
        }
        double perSec = spanSec == 0 ? Double.NaN : 1.0 / spanSec;
        return switch (threshold.metric()) {
            case HTTP_REQ_DURATION -> switch (kind) {
                case AVG -> s.meanServiceUs() / 1000.0;
                case MIN -> s.minServiceUs() / 1000.0;
                case MAX -> s.maxServiceUs() / 1000.0;
                case MED -> s.serviceAtPercentileUs(50) / 1000.0;
                case PERCENTILE -> s.serviceAtPercentileUs(threshold.aggregation().percentile()) / 1000.0;
                default -> Double.NaN;
            };
            case HTTP_REQ_FAILED -> (double) s.failed() / s.count();
            case HTTP_REQS -> kind == Aggregation.Kind.COUNT ? s.count() : s.count() * perSec;
            case DROPPED_ITERATIONS -> kind == Aggregation.Kind.COUNT ? s.ledgerTotals()[2]
                    : s.ledgerTotals()[2] * perSec;
        };
    }
}
