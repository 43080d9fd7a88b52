package io.rigscope.analyzer.pipeline;

import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.series.Progress;
import io.rigscope.analyzer.series.SeriesAnalysis;
import io.rigscope.model.wire.WireRecord;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The analyzer as a Reactor pipeline: input batches -> one {@link SeriesAnalysis} on its own thread -> decisions.
 * (A Kafka source's records are decoded ahead, off this analysis' thread: {@link AnalyzerInput#fromKafka};
 * docs/analyzer.md, "Replay against raw consume".) The last verdict is always the {@link Decision.Series},
 * whose body is the report.
 *
 * <p>Cold: each subscription creates its own analysis and thread. A live analysis ({@code stopWhenComplete})
 * ends when the series is complete (SERIES_END, every repeat's data in, and the telemetry that covers them), or
 * when its data is complete and nothing more arrived for {@code attribution_grace_s} of wall-clock time (the
 * telemetry stopped with the series), or when a silent generator ended its repeat and nothing arrived since for the
 * grace; otherwise it ends when the input does. Live, the analyzer's clock is read every second for
 * {@link SeriesAnalysis#checkLiveness} (a generator that died). That clock is an {@link AnalyzerClock}
 * (the system's, or a test's virtual time). Cancelling stops the source without a SERIES
 * verdict.
 */
public final class AnalyzerPipeline {

    /**
     * Input batches asked ahead of the analysis (a new ask once 6 were taken): room for the input to decode the next
     * batches while the analysis works on one.
     */
    static final int INPUT_PREFETCH = 8;

    /** Liveness is judged at a tick only when the source's last heartbeat (an empty batch) is this recent. */
    private static final long ALIVE_WITHIN_NANOS = 2_000_000_000L;

    private final Supplier<SeriesAnalysis> analyses;
    private final AnalyzerClock clock;

    /**
     * @param analyses makes a fresh analysis for each subscription
     * @param clock the clock a live analysis reads ({@link AnalyzerClock#SYSTEM} in use)
     */
    public AnalyzerPipeline(Supplier<SeriesAnalysis> analyses, AnalyzerClock clock) {
        this.analyses = Objects.requireNonNull(analyses, "analyses");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * @param input record batches of the series
     * @param stopWhenComplete end as soon as the series is complete (for a following, live input)
     * @param onStart receives the analysis' progress counters when a subscription starts
     */
    public Flux<Decision> decisions(Flux<List<WireRecord>> input, boolean stopWhenComplete, Consumer<Progress> onStart) {
        return Flux.using(() -> Schedulers.newSingle("analyzer", true),
                scheduler -> Flux.defer(() -> run(input, stopWhenComplete, onStart, scheduler)),
                Scheduler::dispose);
    }

    private Flux<Decision> run(Flux<List<WireRecord>> input, boolean stopWhenComplete, Consumer<Progress> onStart,
                              Scheduler scheduler) {
        SeriesAnalysis analysis = analyses.get();
        onStart.accept(analysis.progress());
        AtomicLong lastBatchNanos = new AtomicLong(clock.nanos().getAsLong());
        // the last empty batch: a Kafka source's heartbeat (a write probe acknowledged, every partition read to its
        // end); silence is judged only in the seconds one came, never from the wall clock alone
        AtomicLong lastAliveNanos = new AtomicLong(clock.nanos().getAsLong() - ALIVE_WITHIN_NANOS);
        Flux<List<Decision>> decided = input
                .publishOn(scheduler, INPUT_PREFETCH)
                .map(batch -> {
                    if (batch.isEmpty()) {
                        lastAliveNanos.set(clock.nanos().getAsLong());
                        return List.of();
                    }
                    lastBatchNanos.set(clock.nanos().getAsLong());
                    return analysis.acceptAll(batch);
                });
        if (stopWhenComplete) {
            // Liveness: every second the analyzer's clock is read, so a generator that died (nothing more arrives
            // from it) ends its repeat within generator_silence_s (SeriesAnalysis#checkLiveness). On the analysis'
            // own thread, like every batch.
            Sinks.Empty<Void> inputDone = Sinks.empty();
            Flux<List<Decision>> ticks = Flux.interval(Duration.ofSeconds(1), scheduler)
                    .takeUntilOther(inputDone.asMono())
                    .map(tick -> {
                        // a broker that does not take writes is not a silent generator: without a heartbeat in the
                        // last 2 s (an outage, a shutdown, a restart still electing leaders; a source that never
                        // heartbeats) the clock is not read, and Liveness restarts its count after
                        long nowNanos = clock.nanos().getAsLong();
                        return nowNanos - lastAliveNanos.get() < ALIVE_WITHIN_NANOS
                                ? analysis.checkLiveness(clock.epochMicros().getAsLong()) : List.<Decision>of();
                    })
                    .filter(out -> !out.isEmpty());
            decided = Flux.merge(decided.doFinally(signal -> inputDone.tryEmitEmpty()), ticks);
            // Complete: SERIES_END, every repeat's data, and the telemetry that covers them. When the telemetry
            // stops with the series (nothing more arrives), the quiet itself ends the wait: once the data is
            // complete and no record came for the grace, the analysis finishes with what it has.
            long graceNanos = Duration.ofSeconds(Math.max(1, analysis.settings().attribution().graceSec())).toNanos();
            Flux<Long> quietAfterData = Flux.interval(Duration.ofSeconds(1), scheduler)
                    .filter(tick -> (analysis.dataComplete() || analysis.endedBySilence())
                            && clock.nanos().getAsLong() - lastBatchNanos.get() > graceNanos);
            decided = decided.takeUntil(out -> analysis.complete()).takeUntilOther(quietAfterData);
        }
        return decided
                .concatMapIterable(out -> out)
                .concatWith(Mono.fromCallable(analysis::finish).subscribeOn(scheduler).flatMapIterable(out -> out));
    }

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
}
