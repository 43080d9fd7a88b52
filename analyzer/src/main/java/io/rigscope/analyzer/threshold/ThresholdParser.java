package io.rigscope.analyzer.threshold;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Parses k6 thresholds. The input is k6's {@code thresholds} option: metric name (optionally with a
 * {@code {scenario:NAME}} tag filter) to a list of expressions, each a string or an object with a
 * {@code threshold} string and, optionally, k6's {@code abortOnFail} (a boolean) and {@code delayAbortEval} (a
 * duration string, {@link K6Duration}); other fields are ignored.
 *
 * <p>An expression is {@code AGG OP NUMBER} with optional spaces: AGG is {@code avg}, {@code min},
 * {@code med}, {@code max}, {@code p(N)}, {@code rate} or {@code count}; OP is {@code <}, {@code <=},
 * {@code >}, {@code >=}, {@code ==}, {@code ===} or {@code !=}. Anything else is rejected with a
 * {@link ThresholdSyntaxException} that names the metric, the expression, the column and what was expected.
 *
 * <p>Stateless and thread-safe.
 */
public final class ThresholdParser {

    private ThresholdParser() {
    }

    /** Parses a whole k6 {@code thresholds} map, in the map's order. */
    public static List<Threshold> parseAll(Map<String, ?> thresholds) {
        List<Threshold> out = new ArrayList<>();
        for (var entry : thresholds.entrySet()) {
            Object value = entry.getValue();
            List<?> expressions = value instanceof List<?> list ? list : List.of(value == null ? "" : value);
            for (Object e : expressions) {
                Object text = e instanceof Map<?, ?> object ? object.get("threshold") : e;
                if (!(text instanceof String s)) {
                    throw new ThresholdSyntaxException("threshold on " + entry.getKey()
                            + " is not a string nor an object with a \"threshold\" string: " + e);
                }
                Threshold t = parse(entry.getKey(), s);
                out.add(e instanceof Map<?, ?> object ? withAbort(t, entry.getKey(), s, object) : t);
            }
        }
        return out;
    }

    /** k6's {@code abortOnFail} and {@code delayAbortEval} of a threshold written as an object. */
    private static Threshold withAbort(Threshold t, String metricKey, String expression, Map<?, ?> object) {
        Object abort = object.get("abortOnFail");
        Object delay = object.get("delayAbortEval");
        String where = "threshold '" + expression + "' on " + metricKey;
        if (abort != null && !(abort instanceof Boolean)) {
            throw new ThresholdSyntaxException(where + ": abortOnFail must be true or false, not " + abort);
        }
        if (delay != null && !(delay instanceof String)) {
            throw new ThresholdSyntaxException(where + ": delayAbortEval must be a duration string such as \"10s\", not "
                    + delay);
        }
        if (!Boolean.TRUE.equals(abort)) {
            return t; // k6 too reads delayAbortEval only with abortOnFail
        }
        try {
            return t.abortingAfter(delay == null ? java.time.Duration.ZERO : K6Duration.parse((String) delay));
        } catch (IllegalArgumentException e) {
            throw new ThresholdSyntaxException(where + ": delayAbortEval " + e.getMessage());
        }
    }

    /**
     * Parses {@code METRIC: EXPRESSION}, the command-line form, e.g. {@code http_req_duration: p(99)<500}.
     */
    public static Threshold parseFlag(String text) {
        int colon = text.indexOf(':', text.indexOf('}') + 1);
        if (colon < 0) {
            throw new ThresholdSyntaxException("threshold '" + text
                    + "' must be METRIC: EXPRESSION, e.g. 'http_req_duration: p(99)<500'");
        }
        return parse(text.substring(0, colon).strip(), text.substring(colon + 1).strip());
    }

    /**
     * Parses one expression on one metric key.
     *
     * @param metricKey e.g. {@code http_req_duration} or {@code http_req_duration{scenario:probe}}
     * @param expression e.g. {@code p(99)<500}
     * @throws ThresholdSyntaxException naming what is wrong
     */
    public static Threshold parse(String metricKey, String expression) {
        String key = metricKey == null ? "" : metricKey.strip();
        String name = key;
        String scenario = null;
        int brace = key.indexOf('{');
        if (brace >= 0) {
            if (!key.endsWith("}")) {
                throw new ThresholdSyntaxException("threshold metric '" + key + "': tag filter must end with '}'");
            }
            name = key.substring(0, brace);
            String tags = key.substring(brace + 1, key.length() - 1).strip();
            int tagColon = tags.indexOf(':');
            if (tagColon < 0 || tags.contains(",") || !tags.substring(0, tagColon).strip().equals("scenario")
                    || tags.substring(tagColon + 1).isBlank()) {
                throw new ThresholdSyntaxException("threshold metric '" + key
                        + "': the only tag filter supported is {scenario:NAME}");
            }
            scenario = tags.substring(tagColon + 1).strip();
        }
        String metricName = name;
        Metric metric = Metric.byK6Name(metricName).orElseThrow(() -> new ThresholdSyntaxException(
                "threshold metric '" + metricName + "' is unknown; one of: " + Metric.names()));
        return new Cursor(metric, scenario, expression == null ? "" : expression).parse();
    }

    /** A hand-written scanner over one expression. */
    private static final class Cursor {
        private final Metric metric;
        private final String scenario;
        private final String text;
        private int pos;

        Cursor(Metric metric, String scenario, String text) {
            this.metric = metric;
            this.scenario = scenario;
            this.text = text;
        }

        Threshold parse() {
            skipSpaces();
            Aggregation aggregation = aggregation();
            if (!metric.allows(aggregation.kind())) {
                throw error("'" + aggregation.text() + "' is not allowed on " + metric.k6Name() + " (allowed: "
                        + metric.allowedText() + ")");
            }
            skipSpaces();
            Comparison comparison = comparison();
            skipSpaces();
            double limit = number("a number after '" + comparison.symbol() + "'");
            skipSpaces();
            if (pos != text.length()) {
                throw error("unexpected '" + text.substring(pos) + "' after the number");
            }
            return new Threshold(metric, scenario, aggregation, comparison, limit);
        }

        private Aggregation aggregation() {
            int start = pos;
            while (pos < text.length() && Character.isLetter(text.charAt(pos))) {
                pos++;
            }
            String word = text.substring(start, pos);
            switch (word) {
                case "avg":
                    return new Aggregation(Aggregation.Kind.AVG, 0);
                case "min":
                    return new Aggregation(Aggregation.Kind.MIN, 0);
                case "med":
                    return new Aggregation(Aggregation.Kind.MED, 0);
                case "max":
                    return new Aggregation(Aggregation.Kind.MAX, 0);
                case "rate":
                    return new Aggregation(Aggregation.Kind.RATE, 0);
                case "count":
                    return new Aggregation(Aggregation.Kind.COUNT, 0);
                case "p":
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
                default:
                    pos = start;
                    throw error(word.isEmpty() ? "expected an aggregation (avg, min, med, max, p(N), rate, count)"
                            : "unknown aggregation '" + word + "' (expected avg, min, med, max, p(N), rate, count)");
            }
        }

        private Comparison comparison() {
            String rest = text.substring(pos);
            for (String op : new String[] {"===", "==", "!=", "<=", ">=", "<", ">"}) {
                if (rest.startsWith(op)) {
                    pos += op.length();
                    return switch (op) {
                        case "===" -> Comparison.STRICT_EQ;
                        case "==" -> Comparison.EQ;
                        case "!=" -> Comparison.NE;
                        case "<=" -> Comparison.LE;
                        case ">=" -> Comparison.GE;
                        case "<" -> Comparison.LT;
                        default -> Comparison.GT;
                    };
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
            return new ThresholdSyntaxException("threshold '" + text + "' on " + metric.k6Name() + ": " + what
                    + " at column " + (pos + 1));
        }
    }
}
