package io.rigscope.benchmarks.analyzer;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * A jHiccup-style probe: a thread that sleeps 1 ms at a time and records, per wall second, the most it overslept.
 * A hiccup is time no thread of this process could run (a safepoint, or the CPUs taken by others): when a slow
 * second's close coincides with one, the analyzer was not what held it. One writer (its own thread); any reader.
 */
final class HiccupProbe implements AutoCloseable {

    private static final long SLEEP_NANOS = 1_000_000;

    private final BenchClock clock;
    private final long fromSec;
    private final AtomicLongArray worstUsBySec;
    private final Thread thread;
    private volatile boolean running = true;

    /** Starts probing seconds {@code fromSec} to {@code fromSec + seconds - 1} (epoch seconds). */
    HiccupProbe(BenchClock clock, long fromSec, int seconds) {
        this.clock = clock;
        this.fromSec = fromSec;
        this.worstUsBySec = new AtomicLongArray(seconds);
        this.thread = new Thread(this::probe, "bench-hiccup");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void probe() {
        while (running) {
            long before = System.nanoTime();
            LockSupport.parkNanos(SLEEP_NANOS);
            long after = System.nanoTime();
            long oversleptUs = (after - before - SLEEP_NANOS) / 1000;
            long i = Math.floorDiv(clock.epochUs(after), 1_000_000L) - fromSec;
            if (i >= 0 && i < worstUsBySec.length() && oversleptUs > worstUsBySec.get((int) i)) {
                worstUsBySec.set((int) i, oversleptUs);
            }
        }
    }

    /** The worst oversleep in epoch seconds {@code [fromSec, toSec]}, µs. */
    long worstUs(long firstSec, long lastSec) {
        long worst = 0;
        for (long s = firstSec; s <= lastSec; s++) {
            long i = s - fromSec;
            if (i >= 0 && i < worstUsBySec.length()) {
                worst = Math.max(worst, worstUsBySec.get((int) i));
            }
        }
        return worst;
    }

    /** The worst oversleep over everything probed, µs. */
    long worstUs() {
        return worstUs(fromSec, fromSec + worstUsBySec.length() - 1);
    }

    @Override
    public void close() {
        running = false;
    }
}
