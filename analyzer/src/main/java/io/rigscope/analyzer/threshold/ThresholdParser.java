package io.rigscope.analyzer.threshold;

import io.rigscope.analyzer.threshold.Metric.MetricType;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses rigscope's own k6 thresholds (those the analyzer judges live, on a {@link Metric}). The input is k6's
 * {@code thresholds} option: metric name (optionally with a {@code {scenario:NAME}} tag filter) to a list of
 * entries, each decoded by {@link ThresholdDecl} (a string, or an object with {@code threshold},
 * {@code abortOnFail} and {@code delayAbortEval}, a duration string, {@link K6Duration}).
 *
 * <p>An expression is read by {@link ThresholdExpression}'s grammar, the aggregation checked against the metric's
 * {@link MetricType}. Anything else is rejected with a {@link ThresholdSyntaxException} that names the metric, the
 * expression, the column and what was expected.
 *
 * <p>Stateless and thread-safe.
 */
public final class ThresholdParser {

    private ThresholdParser() {
    }

    /** Parses a whole k6 {@code thresholds} map ({@link ThresholdDecl#decodeAll}), in the map's order. */
    public static List<Threshold> parseAll(Map<String, ?> thresholds) {
        List<Threshold> out = new ArrayList<>();
        ThresholdDecl.decodeAll(thresholds).forEach((key, decls) -> decls.forEach(d -> out.add(parse(key, d))));
        return out;
    }

    /**
     * Parses one declared threshold on one metric key, with k6's {@code abortOnFail} and {@code delayAbortEval}
     * (k6 too reads delayAbortEval only with abortOnFail).
     *
     * @throws ThresholdSyntaxException naming what is wrong
     */
    public static Threshold parse(String metricKey, ThresholdDecl decl) {
        Threshold t = parse(metricKey, decl.expression());
        if (!decl.abortOnFail()) {
            return t;
        }
        try {
            return t.abortingAfter(decl.delayAbortEval() == null ? Duration.ZERO
                    : K6Duration.parse(decl.delayAbortEval()));
        } catch (IllegalArgumentException e) {
            throw new ThresholdSyntaxException("threshold '" + decl.expression() + "' on " + metricKey
                    + ": delayAbortEval " + e.getMessage());
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
        ThresholdExpression e = ThresholdExpression.parse(metric.k6Name(), metric.type(), expression);
        return new Threshold(metric, scenario, e.aggregation(), e.comparison(), e.limit());
    }

    /** A threshold that is not valid k6 syntax, or names a metric or aggregation rigscope cannot judge. */
    public static final class ThresholdSyntaxException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        ThresholdSyntaxException(String message) {
            super(message);
        }
    }

    /**
     * A duration as k6 writes one ({@code delayAbortEval}, a scenario's {@code duration}) and as rigscope's flags take
     * them: one or more {@code NUMBER UNIT} parts, units {@code ms}, {@code s}, {@code m}, {@code h}, e.g.
     * {@code 500ms}, {@code 30s}, {@code 1m30s}, {@code 1.5s}. A bare {@code 0} is zero. Stateless.
     */
    public static final class K6Duration {

        private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

        private K6Duration() {
        }

        /**
         * @throws IllegalArgumentException saying what was expected, without naming the input's owner (the caller
         *                                  names the flag or key)
         */
        public static Duration parse(String text) {
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("is empty; expected a duration like 30s, 10m, 1h30m, 500ms");
            }
            String s = text.strip();
            if (s.equals("0")) {
                return Duration.ZERO;
            }
            Matcher m = PART.matcher(s);
            Duration total = Duration.ZERO;
            int end = 0;
            while (m.find() && m.start() == end) {
                BigDecimal n = new BigDecimal(m.group(1));
                BigDecimal nanosPerUnit = BigDecimal.valueOf(switch (m.group(2)) {
                    case "ms" -> 1_000_000L;
                    case "s" -> 1_000_000_000L;
                    case "m" -> 60_000_000_000L;
                    default -> 3_600_000_000_000L;
                });
                total = total.plusNanos(n.multiply(nanosPerUnit).longValue());
                end = m.end();
            }
            if (end != s.length()) {
                throw new IllegalArgumentException("'" + text + "' is not a duration; expected e.g. 30s, 10m, 1h30m, 500ms");
            }
            return total;
        }
    }
}
