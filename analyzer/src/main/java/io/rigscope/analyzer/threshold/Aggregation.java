package io.rigscope.analyzer.threshold;

import java.util.Objects;

/**
 * What a threshold aggregates: {@code avg}, {@code min}, {@code med}, {@code max}, {@code p(N)},
 * {@code rate}, {@code count} or {@code value}. Which of them a metric allows: {@link MetricType}.
 *
 * @param kind the aggregation
 * @param percentile for {@link Kind#PERCENTILE}, N in {@code p(N)} (0..100); else 0
 */
public record Aggregation(Kind kind, double percentile) {

    /** The closed set of aggregation methods. */
    public enum Kind {
        AVG("avg", "avg"), MIN("min", "min"), MED("med", "med"), MAX("max", "max"), PERCENTILE("p", "p(N)"),
        RATE("rate", "rate"), COUNT("count", "count"), VALUE("value", "value");

        private final String method;
        private final String k6Text;

        Kind(String method, String k6Text) {
            this.method = method;
            this.k6Text = k6Text;
        }

        /** The method's word as k6 spells it in an expression: {@code p} for {@code p(N)}. */
        public String method() {
            return method;
        }

        /** As k6 writes it. */
        public String k6Text() {
            return k6Text;
        }
    }

    public Aggregation {
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.PERCENTILE && !(percentile >= 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile must be within 0..100, was " + percentile);
        }
    }

    /** As k6 writes it, e.g. {@code p(99)}. */
    public String text() {
        if (kind != Kind.PERCENTILE) {
            return kind.k6Text();
        }
        return "p(" + (percentile == Math.rint(percentile) ? String.valueOf((long) percentile)
                : String.valueOf(percentile)) + ")";
    }
}
