package io.rigscope.collectors;

import java.time.Duration;
import java.util.Objects;

/**
 * Retry delays for a collector whose source went away: {@code first}, doubling after each consecutive
 * failure, capped at {@code max}; back to {@code first} once a record arrives.
 */
public record Backoff(Duration first, Duration max) {

    public Backoff {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(max, "max");
        if (first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
            throw new IllegalArgumentException("backoff needs 0 < first <= max, got first=" + first + " max=" + max);
        }
    }

    /** 0.5 s doubling to 10 s. */
    public static Backoff defaults() {
        return new Backoff(Duration.ofMillis(500), Duration.ofSeconds(10));
    }

    /** The delay before attempt {@code failures + 1}, after {@code failures >= 1} failures in a row. */
    public Duration delayAfter(int failures) {
        Duration d = first;
        for (int i = 1; i < failures && d.compareTo(max) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(max) > 0 ? max : d;
    }
}
