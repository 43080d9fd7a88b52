package io.rigscope.analyzer.threshold;

import java.util.Objects;

/**
 * One k6 threshold expression, {@code AGG OP NUMBER}, with any of k6's aggregation methods: {@code avg},
 * {@code min}, {@code med}, {@code max}, {@code p(N)}, {@code rate}, {@code count}, {@code value}. Which of them a
 * metric allows depends on its type ({@link K6MetricType#allows}).
 *
 * @param method the aggregation method as k6 spells it ({@code p} for {@code p(N)})
 * @param percentile N of {@code p(N)}, 0..100; 0 otherwise
 * @param comparison the operator
 * @param limit the right-hand side
 * @param text the expression as written
 */
public record K6Expression(String method, double percentile, Comparison comparison, double limit, String text) {

    public K6Expression {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(comparison, "comparison");
        Objects.requireNonNull(text, "text");
    }

    /**
     * Parses an expression.
     *
     * @throws IllegalArgumentException naming the expression and what is wrong with it
     */
    public static K6Expression parse(String text) {
        String s = text == null ? "" : text.strip();
        int pos = 0;
        while (pos < s.length() && Character.isLetter(s.charAt(pos))) {
            pos++;
        }
        String method = s.substring(0, pos);
        double pct = 0;
        switch (method) {
            case "avg", "min", "med", "max", "rate", "count", "value" -> { }
            case "p" -> {
                int close = s.indexOf(')', pos);
                if (pos >= s.length() || s.charAt(pos) != '(' || close < 0) {
                    throw bad(s, "p(N) needs a percentile in parentheses");
                }
                pct = number(s, s.substring(pos + 1, close).strip(), "the percentile of p(N)");
                if (!(pct >= 0 && pct <= 100)) {
                    throw bad(s, "percentile " + pct + " is outside 0..100");
                }
                pos = close + 1;
            }
            default -> throw bad(s, method.isEmpty() ? "expected an aggregation (avg, min, med, max, p(N), rate, "
                    + "count, value)" : "unknown aggregation '" + method + "'");
        }
        String rest = s.substring(pos).stripLeading();
        Comparison comparison = null;
        for (Comparison c : new Comparison[] {Comparison.STRICT_EQ, Comparison.EQ, Comparison.NE, Comparison.LE,
            Comparison.GE, Comparison.LT, Comparison.GT}) {
            if (rest.startsWith(c.symbol())) {
                comparison = c;
                rest = rest.substring(c.symbol().length());
                break;
            }
        }
        if (comparison == null) {
            throw bad(s, "expected an operator (<, <=, >, >=, ==, ===, !=) after " + method);
        }
        double limit = number(s, rest.strip(), "a number after '" + comparison.symbol() + "'");
        return new K6Expression(method, pct, comparison, limit, s);
    }

    /** True when {@code measured OP limit}; NaN never holds. */
    public boolean holds(double measured) {
        return !Double.isNaN(measured) && comparison.holds(measured, limit);
    }

    private static double number(String s, String digits, String what) {
        try {
            if (digits.isEmpty() || !digits.matches("[+-]?[0-9]*\\.?[0-9]+([eE][+-]?[0-9]+)?")) {
                throw new NumberFormatException();
            }
            return Double.parseDouble(digits);
        } catch (NumberFormatException e) {
            throw bad(s, "expected " + what + ", found '" + digits + "'");
        }
    }

    private static IllegalArgumentException bad(String s, String what) {
        return new IllegalArgumentException("threshold '" + s + "': " + what);
    }
}
