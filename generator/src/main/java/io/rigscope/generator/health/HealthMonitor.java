package io.rigscope.generator.health;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.rigscope.model.wire.Health;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The generator's own health, one {@link Health} record a second: is the instrument telling the truth?
 *
 * <ul>
 *   <li>JVM pause, jHiccup-style: a thread ({@code rig-gen-hiccup}) sleeps 1 ms again and again; the worst
 *       overshoot beyond the sleep in the second is the pause (any stall of the whole JVM shows here).</li>
 *   <li>GC pause: the sum of the {@link GarbageCollectorMXBean} collection-time deltas in the second.</li>
 *   <li>Event-loop lag: every 20 ms a task is posted to each event loop; the worst delay between posting and
 *       running in the second.</li>
 *   <li>CPU: process CPU time over the second, percent of one core.</li>
 *   <li>In flight: count and age of the oldest request, at the end of the second.</li>
 * </ul>
 *
 * <p>Runs on its own threads; {@code sink} is called on the {@code rig-gen-health} thread.
 */
public final class HealthMonitor implements AutoCloseable {

    private static final long HICCUP_SLEEP_NANOS = 1_000_000L;
    private static final long LOOP_PROBE_NANOS = 20_000_000L;

    private final String series;
    private final int rep;
    private final String src;
    private final LongSupplier nowEpochUs;
    private final EventLoopGroup loops;
    private final IntSupplier inFlight;
    private final LongSupplier oldestInFlightAgeUs;
    private final Consumer<Health> sink;
    private final AtomicLong worstHiccupNanos = new AtomicLong();
    private final AtomicLong worstLoopLagNanos = new AtomicLong();
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    private final Thread hiccup;
    private final Thread ticker;
    private volatile boolean closed;

    /**
     * @param nowEpochUs the generator's clock
     * @param loops the client's event loops (probed for lag)
     * @param inFlight requests in flight now
     * @param oldestInFlightAgeUs age of the oldest request in flight, 0 when none
     * @param sink receives one record a second
     */
    public HealthMonitor(String series, int rep, String src, LongSupplier nowEpochUs, EventLoopGroup loops,
                         IntSupplier inFlight, LongSupplier oldestInFlightAgeUs, Consumer<Health> sink) {
        this.series = series;
        this.rep = rep;
        this.src = src;
        this.nowEpochUs = nowEpochUs;
        this.loops = Objects.requireNonNull(loops, "loops");
        this.inFlight = inFlight;
        this.oldestInFlightAgeUs = oldestInFlightAgeUs;
        this.sink = sink;
        this.hiccup = new Thread(this::hiccupLoop, "rig-gen-hiccup");
        this.ticker = new Thread(this::tickLoop, "rig-gen-health");
        hiccup.setDaemon(true);
        ticker.setDaemon(true);
    }

    public void start() {
        hiccup.start();
        ticker.start();
    }

    private void hiccupLoop() {
        while (!closed) {
            long before = System.nanoTime();
            try {
                Thread.sleep(HICCUP_SLEEP_NANOS / 1_000_000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the monitor's own thread: keep the flag, then end
                return;
            }
            long over = System.nanoTime() - before - HICCUP_SLEEP_NANOS;
            worstHiccupNanos.accumulateAndGet(Math.max(0, over), Math::max);
        }
    }

    private void tickLoop() {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long lastCpu = os.getProcessCpuTime();
        long lastGcMs = gcMillis();
        long lastTick = System.nanoTime();
        long nextTick = lastTick + 1_000_000_000L;
        while (!closed) {
            long now = System.nanoTime();
            if (now - nextTick >= 0) {
                long cpu = os.getProcessCpuTime();
                long gc = gcMillis();
                double cpuPct = 100.0 * (cpu - lastCpu) / Math.max(1, now - lastTick);
                sink.accept(new Health(series, rep, src, nowEpochUs.getAsLong(),
                        worstHiccupNanos.getAndSet(0) / 1e6, gc - lastGcMs, worstLoopLagNanos.getAndSet(0) / 1e6,
                        cpuPct, inFlight.getAsInt(), oldestInFlightAgeUs.getAsLong() / 1000.0));
                lastCpu = cpu;
                lastGcMs = gc;
                lastTick = now;
                nextTick += 1_000_000_000L;
            }
            for (EventExecutor loop : loops) {
                long posted = System.nanoTime();
                loop.execute(() -> worstLoopLagNanos.accumulateAndGet(System.nanoTime() - posted, Math::max));
            }
            try {
                Thread.sleep(LOOP_PROBE_NANOS / 1_000_000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the monitor's own thread: keep the flag, then end
                return;
            }
        }
    }

    private long gcMillis() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : collectors) {
            sum += Math.max(0, gc.getCollectionTime());
        }
        return sum;
    }

    /** Stops both threads (no record for the partial second). */
    @Override
    public void close() {
        closed = true;
        hiccup.interrupt();
        ticker.interrupt();
        try {
            hiccup.join(1000);
            ticker.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
