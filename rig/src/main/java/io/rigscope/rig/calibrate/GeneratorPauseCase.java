package io.rigscope.rig.calibrate;

import io.netty.util.concurrent.EventExecutor;
import io.rigscope.generator.http.ClientLoops;
import io.rigscope.model.wire.Health;
import io.rigscope.rig.series.SeriesPlan;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code generator-pause}: the instrument stalls, not the server. Once, {@link #AFTER} into the repeat, every
 * event loop of the generator's HTTP client (the case run's {@link ClientLoops}, which its series' generator runs on) is
 * parked for {@link #PAUSE}: replies that arrive meanwhile are stamped late, and the requests due meanwhile go
 * out together when the loops wake. The server is untouched; the generator's health ({@code rig.health}
 * loop lag) shows the stall. Expected cause {@code generator}, never a server cause.
 *
 * <p>The load is 400 req/s of 10 events with a 512 cap, so that the requests due during the pause are sent
 * (late) when it ends rather than dropped. Late sends count in response time, not service time; what lifts
 * service time is the requests in flight when the loops stop (rarely more than one at ~1 ms each) and the burst of
 * the backlog at the SUT when they wake. With 600 ms (240 requests at once) the second after the pause had p99
 * 109-146 ms and was a freeze-second in one run of two (worst 627 ms: one request was in flight); 1 s (400 at once)
 * is the pause used.
 */
final class GeneratorPauseCase implements CalibrationCase {

    static final Duration LOAD = Duration.ofSeconds(20);
    static final Duration AFTER = Duration.ofSeconds(8);
    static final Duration PAUSE = Duration.ofMillis(1000);

    @Override
    public String name() {
        return "generator-pause";
    }

    @Override
    public String expected() {
        return "generator";
    }

    @Override
    public String recipe() {
        return "400 req/s x 10 events for " + LOAD.toSeconds() + " s; " + AFTER.toSeconds() + " s in, every "
                + "client event loop of the generator parked " + PAUSE.toMillis() + " ms once";
    }

    @Override
    public SeriesPlan plan(String series, URI target, String apiKey) {
        return CasePlans.sustained(series, target, apiKey, 10, 400, LOAD, 512, 5);
    }

    @Override
    public Provocation provoke(CaseContext ctx, Duration repeat) {
        ClientLoops loops = ctx.generatorLoops();
        long atNanos = System.nanoTime() + AFTER.toNanos();
        AtomicLong firstParkUs = new AtomicLong();
        AtomicLong lastWakeUs = new AtomicLong();
        List<io.netty.util.concurrent.Future<?>> parks = new ArrayList<>();
        for (EventExecutor loop : loops.group()) {
            parks.add(loop.schedule(() -> {
                // The provocation: a deliberate blocking park on the generator's own event loop.
                long start = System.nanoTime();
                firstParkUs.compareAndSet(0, nowUs());
                long end = start + PAUSE.toNanos();
                long left;
                while ((left = end - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(left);
                }
                lastWakeUs.accumulateAndGet(nowUs(), Math::max);
            }, atNanos - System.nanoTime(), TimeUnit.NANOSECONDS));
        }
        ctx.console().printf("provoke: every generator event loop (%d) will be parked %d ms, %d s into the repeat%n",
                parks.size(), PAUSE.toMillis(), AFTER.toSeconds());
        return new Provocation() {
            @Override
            public void close() {
                parks.forEach(p -> p.cancel(false));
            }

            @Override
            public String note() {
                if (firstParkUs.get() == 0) {
                    return "the loops were never parked (the repeat ended first)";
                }
                return String.format(Locale.ROOT, "%d loops parked %d ms from %s to %s UTC", parks.size(),
                        PAUSE.toMillis(), WireTelemetry.clock(firstParkUs.get()), WireTelemetry.clock(lastWakeUs.get()));
            }
        };
    }

    private static long nowUs() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    @Override
    public String telemetry(WireTelemetry t) {
        Health worst = t.worstLoopLag().orElse(null);
        if (worst == null) {
            return "rig.health: no record";
        }
        return String.format(Locale.ROOT, "rig.health worst loop lag %.0f ms (second ending %s), JVM pause %.1f ms, "
                        + "in flight %d; worst JVM pause of the load %.1f ms; waits %s; %s", worst.loopLagMs(),
                WireTelemetry.clock(worst.ts()), worst.jvmPauseMs(), worst.inFlight(),
                t.worstJvmPause().map(Health::jvmPauseMs).orElse(0.0), t.topWaits(3), t.platform());
    }
}
