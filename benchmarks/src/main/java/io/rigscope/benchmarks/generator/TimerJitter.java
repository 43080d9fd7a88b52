package io.rigscope.benchmarks.generator;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongPredicate;
import org.HdrHistogram.Histogram;

/**
 * The host's own timer jitter: one thread that does nothing but sleep to a fixed schedule (a wake due every
 * {@code period}) and records how late each wake came ({@code woke - due}). It is what a sleeping event loop, the
 * generator's among them, cannot do better than on this host at that moment: the generator's send lag
 * ({@code t1 - t0}) includes this lateness and adds its own work. When this thread's p99 is already over a lag goal,
 * the host, not the generator, keeps the goal out of reach.
 *
 * @param periodUs the schedule's period, µs
 * @param wakes the wakes measured
 * @param p50Ms median lateness
 * @param p99Ms p99 lateness
 * @param maxMs largest lateness
 */
public record TimerJitter(double periodUs, long wakes, double p50Ms, double p99Ms, double maxMs) {

    /**
     * The period of a probe that runs beside a load ({@link #start}): 1,000 wakes a second, a small share of a core,
     * so that measuring the contention does not add much of it.
     */
    public static final Duration BESIDE_LOAD_PERIOD = Duration.ofMillis(1);

    /** Sleeps to a schedule of {@code period} for {@code length} on the calling thread and returns the lateness. */
    public static TimerJitter measure(Duration length, Duration period) {
        long periodNanos = checked(period);
        Histogram late = new Histogram(Duration.ofSeconds(10).toNanos(), 3);
        long end = System.nanoTime() + length.toNanos();
        sleepToSchedule(periodNanos, late, due -> due - end >= 0);
        return of(periodNanos, late);
    }

    /**
     * Starts the same probe on a thread of its own ({@code rig-bench-jitter}), to measure the host while something
     * else runs (the bench's measured run); {@link Running#stop()} ends it and returns the lateness.
     */
    public static Running start(Duration period) {
        return new Running(checked(period));
    }

    /** A probe running on its own thread. */
    public static final class Running {
        private final long periodNanos;
        private final Histogram late = new Histogram(Duration.ofSeconds(10).toNanos(), 3);
        private final Thread thread;
        private volatile boolean stopped;

        private Running(long periodNanos) {
            this.periodNanos = periodNanos;
            this.thread = new Thread(() -> sleepToSchedule(periodNanos, late, due -> stopped), "rig-bench-jitter");
            thread.setDaemon(true);
            thread.start();
        }

        /** Ends the probe (within one period) and returns what it measured. */
        public TimerJitter stop() {
            stopped = true;
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while stopping the timer jitter probe", e);
            }
            return of(periodNanos, late);
        }
    }

    private static long checked(Duration period) {
        if (period.isZero() || period.isNegative()) {
            throw new IllegalArgumentException("period must be > 0, was " + period);
        }
        return period.toNanos();
    }

    /** Sleeps to each due time until {@code over} says stop for the next one, recording how late each wake came. */
    private static void sleepToSchedule(long periodNanos, Histogram late, LongPredicate over) {
        long due = System.nanoTime() + periodNanos;
        while (!over.test(due)) {
            long now = System.nanoTime();
            while (due - now > 0) {
                LockSupport.parkNanos(due - now);
                now = System.nanoTime();
            }
            late.recordValue(Math.min(now - due, late.getHighestTrackableValue()));
            // the next wake is due one period after this one was due; wakes missed while late are not replayed
            due += periodNanos;
            if (due - now <= 0) {
                due = now + periodNanos - Math.floorMod(now - due, periodNanos);
            }
        }
    }

    private static TimerJitter of(long periodNanos, Histogram late) {
        long n = late.getTotalCount();
        return new TimerJitter(periodNanos / 1000.0, n, n == 0 ? Double.NaN : late.getValueAtPercentile(50) / 1e6,
                n == 0 ? Double.NaN : late.getValueAtPercentile(99) / 1e6, n == 0 ? Double.NaN : late.getMaxValue() / 1e6);
    }

    /**
     * Whether a send-lag p99 goal of {@code goalMs} is within this host's reach: its own timer's p99 lateness is
     * at or under the goal.
     */
    public boolean allows(double goalMs) {
        return p99Ms <= goalMs;
    }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("period_us", periodUs);
        m.put("wakes", wakes);
        m.put("p50_ms", BenchResult.round(p50Ms, 3));
        m.put("p99_ms", BenchResult.round(p99Ms, 3));
        m.put("max_ms", BenchResult.round(maxMs, 3));
        return m;
    }
}
