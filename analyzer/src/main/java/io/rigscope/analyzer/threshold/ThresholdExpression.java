package io.rigscope.analyzer.threshold;

import io.rigscope.analyzer.threshold.Metric.MetricType;
import io.rigscope.analyzer.threshold.ThresholdParser.ThresholdSyntaxException;
import java.util.Objects;

/**
 * One threshold expression, {@code AGG OP NUMBER}: the one grammar of k6 thresholds in rigscope, read for
 * rigscope's own thresholds ({@link ThresholdParser}) and for an imported k6 run's.
 *
 * <p>AGG is {@code avg}, {@code min}, {@code med}, {@code max}, {@code p(N)} (N within 0..100), {@code rate},
 * {@code count} or {@code value}; OP is {@code <}, {@code <=}, {@code >}, {@code >=}, {@code ==}, {@code ===} or
 * {@code !=}; NUMBER is a decimal with an optional sign and exponent. Spaces are allowed between the parts and
 * inside {@code p( N )}. Anything else is rejected with a {@link ThresholdSyntaxException} that names the
 * expression, the metric when known, what was expected and the column. Which aggregations a metric allows is
 * {@link MetricType}'s table.
 *
 * @param aggregation what is aggregated
 * @param comparison the operator
 * @param limit the right-hand side, in the metric's unit
 * @param text the expression as written, without surrounding spaces
 */
public record ThresholdExpression(Aggregation aggregation, Comparison comparison, double limit, String text) {

    private static final String AGGREGATIONS = "avg, min, med, max, p(N), rate, count, value";

    public ThresholdExpression {
        Objects.requireNonNull(aggregation, "aggregation");
        Objects.requireNonNull(comparison, "comparison");
        Objects.requireNonNull(text, "text");
    }

    /**
     * Parses an expression whose metric's type is not known yet (an imported k6 run's: whether the metric allows
     * the aggregation is judged later, against its type).
     *
     * @param text e.g. {@code p(95)<200}; null reads as empty
     * @throws ThresholdSyntaxException naming the expression, what is wrong and where
     */
    public static ThresholdExpression parse(String text) {
        return new Cursor(null, null, text == null ? "" : text).parse();
    }

    /**
     * Parses an expression on a metric of a known type, rejecting an aggregation the type does not allow.
     *
     * @param metricName the metric's k6 name, for messages
     * @param type its type
     * @param text e.g. {@code p(99)<500}; null reads as empty
     * @throws ThresholdSyntaxException naming the metric, the expression, what is wrong and where
     */
    public static ThresholdExpression parse(String metricName, MetricType type, String text) {
        return new Cursor(Objects.requireNonNull(metricName, "metricName"), Objects.requireNonNull(type, "type"),
                text == null ? "" : text).parse();
    }

    /** True when {@code measured OP limit}; NaN (nothing measured) never holds. */
    public boolean holds(double measured) {
        return !Double.isNaN(measured) && comparison.holds(measured, limit);
    }

    /** A hand-written scanner over one expression. */
    private static final class Cursor {
        private final String metric;
        private final MetricType type;
        private final String text;
        private int pos;

        Cursor(String metric, MetricType type, String text) {
            this.metric = metric;
            this.type = type;
            this.text = text;
        }

        ThresholdExpression parse() {
            skipSpaces();
            Aggregation aggregation = aggregation();
            if (type != null && !type.allows(aggregation.kind())) {
                throw error("'" + aggregation.text() + "' is not allowed on " + metric + " (allowed: "
                        + type.allowedText() + ")");
            }
            skipSpaces();
            Comparison comparison = comparison();
            skipSpaces();
            double limit = number("a number after '" + comparison.symbol() + "'");
            skipSpaces();
            if (pos != text.length()) {
                throw error("unexpected '" + text.substring(pos) + "' after the number");
            }
            return new ThresholdExpression(aggregation, comparison, limit, text.strip());
        }

        private Aggregation aggregation() {
            int start = pos;
            while (pos < text.length() && Character.isLetter(text.charAt(pos))) {
                pos++;
            }
            String word = text.substring(start, pos);
            for (Aggregation.Kind kind : Aggregation.Kind.values()) {
                if (kind != Aggregation.Kind.PERCENTILE && kind.method().equals(word)) {
                    return new Aggregation(kind, 0);
                }
            }
            if (word.equals(Aggregation.Kind.PERCENTILE.method())) {
                expect('(');
                skipSpaces();
                double pct = number("a percentile in p(N)");
                skipSpaces();
                expect(')');
                if (!(pct >= 0 && pct <= 100)) {
                    pos = start;
                    throw error("percentile " + Threshold.number(pct) + " is outside 0..100");
                }
                return new Aggregation(Aggregation.Kind.PERCENTILE, pct);
            }
            pos = start;
            throw error(word.isEmpty() ? "expected an aggregation (" + AGGREGATIONS + ")"
                    : "unknown aggregation '" + word + "' (expected " + AGGREGATIONS + ")");
        }

        private Comparison comparison() {
            String rest = text.substring(pos);
            // longest first: === before ==, <= before <
            for (Comparison c : new Comparison[] {Comparison.STRICT_EQ, Comparison.EQ, Comparison.NE,
                Comparison.LE, Comparison.GE, Comparison.LT, Comparison.GT}) {
                if (rest.startsWith(c.symbol())) {
                    pos += c.symbol().length();
                    return c;
                }
            }
            throw error("expected an operator (<, <=, >, >=, ==, ===, !=)");
        }

        private double number(String what) {
            int start = pos;
            if (pos < text.length() && (text.charAt(pos) == '-' || text.charAt(pos) == '+')) {
                pos++;
            }
            while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
                pos++;
            }
            if (pos > start && Character.isDigit(text.charAt(pos - 1)) && pos < text.length()
                    && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
                int e = pos + 1;
                if (e < text.length() && (text.charAt(e) == '-' || text.charAt(e) == '+')) {
                    e++;
                }
                if (e < text.length() && Character.isDigit(text.charAt(e))) {
                    while (e < text.length() && Character.isDigit(text.charAt(e))) {
                        e++;
                    }
                    pos = e;
                }
            }
            String digits = text.substring(start, pos);
            try {
                if (digits.isEmpty() || !Character.isDigit(digits.charAt(digits.length() - 1))) {
                    throw new NumberFormatException();
                }
                return Double.parseDouble(digits);
            } catch (NumberFormatException e) {
                pos = start;
                throw error("expected " + what);
            }
        }

        private void expect(char c) {
            if (pos >= text.length() || text.charAt(pos) != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        private void skipSpaces() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private ThresholdSyntaxException error(String what) {
            return new ThresholdSyntaxException("threshold '" + text + "'" + (metric == null ? "" : " on " + metric)
                    + ": " + what + " at column " + (pos + 1));
        }
    }

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

    /** A k6 threshold operator. {@code ===} is k6's strict equality; on numbers it equals {@code ==}. */
    public enum Comparison {
        LT("<"), LE("<="), GT(">"), GE(">="), EQ("=="), STRICT_EQ("==="), NE("!=");

        private final String symbol;

        Comparison(String symbol) {
            this.symbol = symbol;
        }

        /** As written in a threshold. */
        public String symbol() {
            return symbol;
        }

        /** True when {@code value <op> limit} holds. */
        public boolean holds(double value, double limit) {
            return switch (this) {
                case LT -> value < limit;
                case LE -> value <= limit;
                case GT -> value > limit;
                case GE -> value >= limit;
                case EQ, STRICT_EQ -> value == limit;
                case NE -> value != limit;
            };
        }
    }
}
