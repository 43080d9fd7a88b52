package io.rigscope.benchmarks.analyzer;

import java.time.Instant;

/**
 * The live bench's clock: {@link System#nanoTime()} anchored once to the wall clock, so the series' event time
 * (epoch µs on every record) and the moment a decision arrives are read from one clock that never jumps.
 * Immutable, thread-safe.
 */
final class BenchClock {

    private final long baseEpochUs;
    private final long baseNanos;

    BenchClock() {
        Instant now = Instant.now();
        this.baseNanos = System.nanoTime();
        this.baseEpochUs = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** Epoch microseconds now. */
    long nowUs() {
        return epochUs(System.nanoTime());
    }

    /** Epoch microseconds of a {@link System#nanoTime()} reading. */
    long epochUs(long nanos) {
        return baseEpochUs + Math.floorDiv(nanos - baseNanos, 1_000L);
    }

    /** The {@link System#nanoTime()} reading of an epoch microsecond. */
    long nanosOf(long epochUs) {
        return baseNanos + (epochUs - baseEpochUs) * 1_000L;
    }
}
