package io.rigscope.model.wire;

import java.util.Objects;

/** Validation shared by the records' compact constructors. Package-private: not an API. */
final class Checks {
    private Checks() {
    }

    static void header(String run, int rep, String src, long ts) {
        nonBlank(run, "run");
        nonBlank(src, "src");
        if (rep < 0) {
            throw new IllegalArgumentException("rep must be >= 0, was " + rep);
        }
        if (ts <= 0) {
            throw new IllegalArgumentException("ts (epoch microseconds) must be > 0, was " + ts);
        }
    }

    static String nonBlank(String value, String name) {
        Objects.requireNonNull(value, () -> name + " is missing");
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " is blank");
        }
        return value;
    }

    static long nonNegative(long value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, was " + value);
        }
        return value;
    }

    static double nonNegative(double value, String name) {
        if (!(value >= 0)) {
            throw new IllegalArgumentException(name + " must be >= 0, was " + value);
        }
        return value;
    }
}
