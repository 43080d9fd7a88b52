package io.rigscope.rig.calibrate;

import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.rig.series.SeriesPlan;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code cpu-starved}: the host's CPUs are saturated, the disk is healthy. The clean case's load (100 req/s of 10
 * events for 20 s, probe 5 req/s) while {@link #BUSY_PER_CPU} busy loops per CPU (daemon threads of rigscope's
 * JVM, normal priority, no IO) spin from the repeat's start to its end: vmstat's run queue several times the
 * core count, idle near 0. Everything waits for a CPU, the disk canary's thread too; its write+fsync totals grow
 * while the disk's share (its run-queue wait taken out) stays small.
 *
 * <p>Expected: not {@code host_io} (neither the dominant episode's cause nor any episode's attributed cause). What
 * the analyzer finds instead is not judged: on a starved host the generator is starved too (its health shows loop
 * lag and JVM pause probes that woke late), so {@code generator} is the true answer when its lag covers the
 * episode; {@code unattributed} or no episode at all are also allowed (the SUT's own CPU starvation has no rule).
 */
final class CpuStarvedCase implements CalibrationCase {

    static final Duration LOAD = Duration.ofSeconds(20);
    /** Busy loops per CPU: 4 on 2 cores puts vmstat's r near 10, as on the host of the report. */
    static final int BUSY_PER_CPU = 4;
    static final String EXPECTED = "not host_io";

    @Override
    public String name() {
        return "cpu-starved";
    }

    @Override
    public String expected() {
        return EXPECTED;
    }

    @Override
    public String recipe() {
        return "100 req/s x 10 events for " + LOAD.toSeconds() + " s, probe 5 req/s, synchronous_commit=off; "
                + BUSY_PER_CPU + " busy loops per CPU (" + BUSY_PER_CPU * cpus() + " here) for the whole repeat";
    }

    @Override
    public SeriesPlan plan(String series, URI target, String apiKey) {
        return CasePlans.sustained(series, target, apiKey, 10, 100, LOAD, 64, 5);
    }

    @Override
    public Provocation provoke(CaseContext ctx, Duration repeat) {
        int n = BUSY_PER_CPU * cpus();
        long untilNs = System.nanoTime() + repeat.toNanos();
        AtomicLong startedUs = new AtomicLong();
        AtomicLong endedUs = new AtomicLong();
        AtomicLong spins = new AtomicLong();
        List<Thread> loops = new ArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(() -> {
                startedUs.compareAndSet(0, nowUs());
                long local = 0;
                // The provocation: a loop that never sleeps, never blocks, until the repeat ends or close()
                while (!stop.get() && System.nanoTime() < untilNs) {
                    for (int k = 0; k < 10_000; k++) {
                        local++;
                    }
                }
                spins.addAndGet(local);
                endedUs.accumulateAndGet(nowUs(), Math::max);
            }, "rig-cal-busy-" + i);
            t.setDaemon(true);
            loops.add(t);
        }
        loops.forEach(Thread::start);
        ctx.console().printf("provoke: %d busy loops (%d per CPU) for the repeat's %d s%n", n, BUSY_PER_CPU,
                repeat.toSeconds());
        return new Provocation() {
            private boolean closed;

            @Override
            public void close() {
                if (closed) {
                    return;
                }
                closed = true;
                stop.set(true);
                for (Thread t : loops) {
                    try {
                        t.join(5_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }

            @Override
            public String note() {
                if (startedUs.get() == 0) {
                    return "the busy loops never ran";
                }
                return String.format(Locale.ROOT, "%d busy loops from %s to %s UTC (%.1f G iterations)", n,
                        WireTelemetry.clock(startedUs.get()),
                        endedUs.get() == 0 ? "?" : WireTelemetry.clock(endedUs.get()), spins.get() / 1e9);
            }
        };
    }

    private static int cpus() {
        return Runtime.getRuntime().availableProcessors();
    }

    private static long nowUs() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    @Override
    public String telemetry(WireTelemetry t) {
        return String.format(Locale.ROOT, "%s; %s; worst loop lag %.1f ms, worst JVM pause %.1f ms; waits %s",
                t.host(), t.canaryDiskShare(), t.worstLoopLag().map(h -> h.loopLagMs()).orElse(0.0),
                t.worstJvmPause().map(h -> h.jvmPauseMs()).orElse(0.0), t.topWaits(3));
    }

    /**
     * Judged on host_io only: ok when the dominant episode's cause is not {@code host_io} and no episode of the
     * sustained repeat is {@code host_io, attributed}. What was found instead is reported, not judged.
     */
    @Override
    public CaseResult judge(SeriesReport report, String telemetry, Provocation provoked) {
        CaseResult byCause = CaseResult.byCause(this, report, telemetry,
                provoked == null ? "not started" : provoked.note());
        boolean anyAttributed = report.repeats().stream().filter(r -> r.kind() == RepeatSummary.Kind.SUSTAINED)
                .flatMap(r -> r.episodes().stream())
                .anyMatch(e -> e.cause() == Cause.HOST_IO && e.confidence() == Confidence.ATTRIBUTED);
        boolean ok = provoked != null && !Cause.HOST_IO.code().equals(byCause.found()) && !anyAttributed;
        return new CaseResult(byCause.caseName(), byCause.expected(), byCause.found(), byCause.confidence(),
                byCause.evidence(), byCause.freezeSeconds(), byCause.windows(), byCause.verdict(), byCause.telemetry(),
                byCause.provoked(), ok);
    }
}
