package io.rigscope.analyzer.threshold;

import io.rigscope.analyzer.threshold.ThresholdExpression.Aggregation;
import io.rigscope.analyzer.threshold.ThresholdExpression.Comparison;
import java.time.Duration;
import java.util.Objects;

/**
 * One parsed k6 threshold, e.g. {@code http_req_duration{scenario:ingest}: p(99)<500}.
 *
 * @param metric the metric it judges
 * @param scenario the {@code scenario} tag filter, or null for the repeat's primary scenario
 * @param aggregation what is aggregated
 * @param comparison the operator
 * @param limit the right-hand side, in the metric's unit (ms for durations)
 * @param abortOnFail k6's {@code abortOnFail}: a live repeat stops when the threshold fails
 *                    ({@link io.rigscope.analyzer.repeat.RepeatJudge.AbortOnFail})
 * @param delayAbortEval k6's {@code delayAbortEval}: how long into the repeat's schedule before it is checked for
 *                       {@code abortOnFail}; zero when not given
 */
public record Threshold(Metric metric, String scenario, Aggregation aggregation, Comparison comparison,
                        double limit, boolean abortOnFail, Duration delayAbortEval) {

    public Threshold {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(aggregation, "aggregation");
        Objects.requireNonNull(comparison, "comparison");
        delayAbortEval = delayAbortEval == null ? Duration.ZERO : delayAbortEval;
        if (!metric.allows(aggregation.kind())) {
            throw new IllegalArgumentException(aggregation.text() + " is not allowed on " + metric.k6Name());
        }
        if (delayAbortEval.isNegative()) {
            throw new IllegalArgumentException("delayAbortEval is negative: " + delayAbortEval);
        }
    }

    /** A threshold that never stops a repeat. */
    public Threshold(Metric metric, String scenario, Aggregation aggregation, Comparison comparison, double limit) {
        this(metric, scenario, aggregation, comparison, limit, false, Duration.ZERO);
    }

    /** This threshold with k6's {@code abortOnFail} set, checked from {@code delay} into the repeat. */
    public Threshold abortingAfter(Duration delay) {
        return new Threshold(metric, scenario, aggregation, comparison, limit, true, delay);
    }

    /** The gate name: {@code metric[{scenario:x}]: expression}, e.g. {@code http_req_duration: p(99)<500}. */
    public String name() {
        return metric.k6Name() + (scenario == null ? "" : "{scenario:" + scenario + "}") + ": " + expression();
    }

    /** The expression as k6 writes it, e.g. {@code p(99)<500}. */
    public String expression() {
        return aggregation.text() + comparison.symbol() + number(limit);
    }

    /** True when the measured value satisfies the threshold. NaN (nothing measured) never does. */
    public boolean holds(double value) {
        return !Double.isNaN(value) && comparison.holds(value, limit);
    }

    /** A threshold's number as k6 writes it: {@code 500}, not {@code 500.0}; {@code 0.01} as it is. */
    public static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
    }
}
