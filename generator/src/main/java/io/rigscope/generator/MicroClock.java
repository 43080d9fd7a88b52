package io.rigscope.generator;

import java.time.Instant;

/**
 * The generator's clock: monotonic {@link System#nanoTime()} anchored once to the wall clock, so epoch
 * microseconds never jump backwards during a run and intervals are exact. Immutable, thread-safe.
 */
final class MicroClock {

    private final long baseEpochUs;
    private final long baseNanos;

    MicroClock() {
        Instant now = Instant.now();
        this.baseNanos = System.nanoTime();
        this.baseEpochUs = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    long nanoTime() {
        return System.nanoTime();
    }

    /** Epoch microseconds of a {@link System#nanoTime()} reading. */
    long epochUs(long nanos) {
        return baseEpochUs + Math.floorDiv(nanos - baseNanos, 1_000L);
    }

    /** Epoch microseconds now. */
    long nowUs() {
        return epochUs(System.nanoTime());
    }

    /** The {@link System#nanoTime()} reading of an epoch microsecond. */
    long nanosOf(long epochUs) {
        return baseNanos + (epochUs - baseEpochUs) * 1_000L;
    }
}
