package io.rigscope.analyzer.threshold;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A duration as k6 writes one ({@code delayAbortEval}, a scenario's {@code duration}) and as rigscope's flags take
 * them: one or more {@code NUMBER UNIT} parts, units {@code ms}, {@code s}, {@code m}, {@code h}, e.g.
 * {@code 500ms}, {@code 30s}, {@code 1m30s}, {@code 1.5s}. A bare {@code 0} is zero. Stateless.
 */
public final class K6Duration {

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
