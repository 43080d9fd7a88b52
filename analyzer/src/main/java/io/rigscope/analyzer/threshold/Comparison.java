package io.rigscope.analyzer.threshold;

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
