package io.rigscope.analyzer.pipeline;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import reactor.core.scheduler.Scheduler;

/**
 * The clock a live analysis reads: the wall clock in epoch µs (to judge a silent generator against the records'
 * own timestamps) and a monotonic clock in ns (for the quiet and heartbeat spans). {@link #SYSTEM} in use; a test
 * gives {@link #of} a {@code VirtualTimeScheduler} set to the records' epoch, so a live analysis runs in virtual
 * time.
 *
 * @param epochMicros the wall clock, epoch µs
 * @param nanos a monotonic clock, ns
 */
public record AnalyzerClock(LongSupplier epochMicros, LongSupplier nanos) {

    /** The system's clocks. */
    public static final AnalyzerClock SYSTEM = new AnalyzerClock(() -> System.currentTimeMillis() * 1000L,
            System::nanoTime);

    public AnalyzerClock {
        Objects.requireNonNull(epochMicros, "epochMicros");
        Objects.requireNonNull(nanos, "nanos");
    }

    /**
     * Both clocks read from {@code scheduler.now}: only for a scheduler whose time is an epoch (a virtual-time
     * scheduler advanced to one); a real scheduler's {@code now} may be a monotonic clock with no epoch.
     */
    public static AnalyzerClock of(Scheduler scheduler) {
        return new AnalyzerClock(() -> scheduler.now(TimeUnit.MICROSECONDS), () -> scheduler.now(TimeUnit.NANOSECONDS));
    }
}
