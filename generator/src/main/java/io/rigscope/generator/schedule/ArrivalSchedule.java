package io.rigscope.generator.schedule;

import java.time.Duration;

/**
 * Intended start times of an open-loop scenario, as absolute offsets from the scenario's start.
 *
 * <p>Offsets are computed from the index, never by adding intervals, so a late request does not shift the
 * ones after it and rounding never accumulates (request 1,000,000 at 20,000/s is due at exactly 50 s).
 * Immutable and thread-safe.
 */
public interface ArrivalSchedule {

    /** Offset of request {@code index} (0-based) from the start, nanoseconds; non-decreasing in index. */
    long offsetNanos(long index);

    /** How many requests are due in {@code [0, duration)}. */
    long countWithin(Duration duration);

    /**
     * A constant arrival rate: request i is due at {@code round(i * 1e9 / requestsPerSec)} ns.
     *
     * @param requestsPerSec > 0
     */
    static ArrivalSchedule constantRate(double requestsPerSec) {
        return new ConstantRate(requestsPerSec);
    }
}
