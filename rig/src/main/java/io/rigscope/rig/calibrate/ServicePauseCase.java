package io.rigscope.rig.calibrate;

import io.rigscope.model.wire.ProcessMetrics;
import io.rigscope.rig.series.SeriesPlan;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code service-pause}: the service itself stops, neither the database nor the instrument. Once, {@link #AFTER} into
 * the repeat, the SUT's process (its own JVM) is stopped with SIGSTOP and resumed with SIGCONT {@link #PAUSE} later,
 * while the load runs: the requests due meanwhile wait in the kernel's accept queue and socket buffers, and those the
 * SUT was handling wait inside it. The database is idle throughout, the generator healthy; the process collector
 * ({@code rig.process}) sees the process stopped. Expected cause {@code service}, attributed.
 */
final class ServicePauseCase implements CalibrationCase {

    static final Duration LOAD = Duration.ofSeconds(20);
    static final Duration AFTER = Duration.ofSeconds(8);
    static final Duration PAUSE = Duration.ofMillis(800);
    static final double RATE = 200;

    @Override
    public String name() {
        return "service-pause";
    }

    @Override
    public String expected() {
        return "service";
    }

    @Override
    public String recipe() {
        return String.format(Locale.ROOT, "%.0f req/s x 10 events for %d s; %d s in, the SUT's process stopped "
                + "(SIGSTOP) for %d ms, then resumed (SIGCONT)", RATE, LOAD.toSeconds(), AFTER.toSeconds(),
                PAUSE.toMillis());
    }

    @Override
    public SeriesPlan plan(String series, URI target, String apiKey) {
        return CasePlans.sustained(series, target, apiKey, 10, RATE, LOAD, 512, 5);
    }

    @Override
    public Provocation provoke(CaseContext ctx, Duration repeat) {
        long pid = ctx.sutPid();
        if (pid <= 0) {
            throw new IllegalStateException("service-pause needs the SUT's pid");
        }
        AtomicLong stoppedUs = new AtomicLong();
        AtomicLong resumedUs = new AtomicLong();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rig-service-pause");
            t.setDaemon(true);
            return t;
        });
        ScheduledFuture<?> stop = timer.schedule(() -> {
            // The provocation: the SUT's JVM stopped and resumed by signals, as a debugger or the OOM killer's cousin would.
            signal("STOP", pid);
            stoppedUs.set(nowUs());
            long end = System.nanoTime() + PAUSE.toNanos();
            long left;
            while ((left = end - System.nanoTime()) > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(left);
            }
            signal("CONT", pid);
            resumedUs.set(nowUs());
        }, AFTER.toMillis(), TimeUnit.MILLISECONDS);
        ctx.console().printf("provoke: the SUT (pid %d) will be stopped with SIGSTOP for %d ms, %d s into the repeat%n",
                pid, PAUSE.toMillis(), AFTER.toSeconds());
        return new Provocation() {
            @Override
            public void close() {
                stop.cancel(false);
                if (stoppedUs.get() != 0 && resumedUs.get() == 0) {
                    signal("CONT", pid); // never leave it stopped
                }
                timer.shutdown();
            }

            @Override
            public String note() {
                if (stoppedUs.get() == 0) {
                    return "the SUT was never stopped (the repeat ended first)";
                }
                return String.format(Locale.ROOT, "SUT pid %d stopped at %s and resumed at %s UTC", pid,
                        WireTelemetry.clock(stoppedUs.get()), WireTelemetry.clock(resumedUs.get()));
            }
        };
    }

    private static void signal(String signal, long pid) {
        try {
            Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot send SIG" + signal + " to " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long nowUs() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    @Override
    public String telemetry(WireTelemetry t) {
        ProcessMetrics p = t.worstProcessPause().orElse(null);
        String process = p == null ? "rig.process: no record"
                : String.format(Locale.ROOT, "rig.process worst pause %.0f ms (stopped %.0f ms, safepoint %s ms) in the "
                                + "second ending %s, CPU %.0f %%, %d threads; %d records",
                        p.pauseMs(), p.stoppedMs(), p.safepointMs() == null ? "-" : String.format(Locale.ROOT, "%.1f",
                                p.safepointMs()), WireTelemetry.clock(p.ts()), p.cpuPct(), p.threads(),
                        t.processSamples());
        return process + "; worst generator loop lag " + t.worstLoopLag().map(h -> String.format(Locale.ROOT, "%.0f ms",
                h.loopLagMs())).orElse("-") + "; waits " + t.topWaits(3) + "; " + t.platform();
    }
}
