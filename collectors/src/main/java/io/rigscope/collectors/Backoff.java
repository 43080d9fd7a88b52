package io.rigscope.collectors;

import java.time.Duration;
import java.util.Objects;
import reactor.core.scheduler.Scheduler;
import reactor.util.retry.Retry;
import reactor.util.retry.RetryBackoffSpec;

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

    /**
     * Reactor's exponential backoff with these delays and no jitter: {@code first} after the first failure,
     * doubling after each further one in a row, capped at {@code max}, back to {@code first} once a record
     * arrives ({@code transientErrors}); retries forever, each delay on {@code timer}.
     */
    public RetryBackoffSpec retry(Scheduler timer) {
        return Retry.backoff(Long.MAX_VALUE, first).maxBackoff(max).jitter(0).transientErrors(true).scheduler(timer);
    }
}
