package io.rigscope.generator;

import io.rigscope.generator.health.HealthMonitor;
import io.rigscope.generator.outbox.Outbox;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.generator.schedule.Pacer;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.Sample;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.netty.resources.LoopResources;

/** One execution of a {@link LoadPlan}: owns its threads, clients, collector, health monitor and outbox. */
final class GeneratorRun implements RunContext {

    private static final Logger LOG = LoggerFactory.getLogger(GeneratorRun.class);

    private final LoadPlan plan;
    private final GeneratorOptions options;
    private final RecordSink sink;
    private final WireCodec codec;
    private final MicroClock clock = new MicroClock();
    private final Set<Exchange> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;
    private volatile boolean sweeperDone;
    private volatile Thread runThread;
    private Collector collector;

    GeneratorRun(LoadPlan plan, GeneratorOptions options, RecordSink sink, WireCodec codec) {
        this.plan = plan;
        this.options = options;
        this.sink = sink;
        this.codec = codec;
    }

    @Override
    public MicroClock clock() {
        return clock;
    }

    @Override
    public void register(Exchange x) {
        inFlight.add(x);
    }

    @Override
    public void unregister(Exchange x) {
        inFlight.remove(x);
    }

    @Override
    public void collect(Sample sample, Throwable error) {
        if (error != null && LOG.isDebugEnabled()) {
            LOG.debug("{} request failed: {}", sample.scenario(), error.toString());
        }
        collector.accept(sample);
    }

    @Override
    public boolean stopping() {
        return stopping;
    }

    /** Asks the run to stop starting requests; it then finishes as usual. */
    void stop() {
        stopping = true;
        Thread t = runThread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Runs the plan on the calling thread and returns once everything is published. */
    RunSummary execute() {
        runThread = Thread.currentThread();
        String nonce = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
        String keyPrefix = plan.series() + "." + plan.rep() + "." + plan.src() + "." + nonce + ".";
        Outbox outbox = new Outbox(sink, options.outboxCapacity(),
                options.spoolDir().resolve("rigscope-spool-" + plan.src() + "-" + nonce + ".bin"), codec);
        LoopResources loops = LoopResources.create("rig-gen-http", options.ioThreads(), true);
        List<ScenarioRun> runs = new ArrayList<>();
        HealthMonitor health = null;
        boolean outboxClosed = false;
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try {
            for (Scenario s : plan.scenarios()) {
                runs.add(new ScenarioRun(s, plan.mode(), this, loops, keyPrefix));
            }
            Warmup.run(loops);
            // The schedule starts on a 10 ms boundary, leaving time to set up.
            long startEpochUs = (clock.nowUs() / 10_000 + 5) * 10_000;
            long startNanos = clock.nanosOf(startEpochUs);
            long endNanos = startNanos + plan.duration().toNanos();
            for (ScenarioRun r : runs) {
                r.decidedBeforeNanos = startNanos;
                r.stopAtNanos = endNanos;
            }
            collector = new Collector(plan.series(), plan.rep(), plan.src(), clock, runs, inFlight, outbox,
                    options.listener(), options.batchMaxSamples(), options.batchMaxAge(), startEpochUs);
            startMarkers(outbox, startEpochUs);
            health = new HealthMonitor(plan.series(), plan.rep(), plan.src(), clock::nowUs, loops.onClient(true),
                    inFlight::size, this::oldestInFlightAgeUs, outbox::offer);
            collector.start();
            health.start();
            Thread sweeper = new Thread(() -> sweepTimeouts(runs), "rig-gen-timeouts");
            sweeper.setDaemon(true);
            sweeper.start();
            long cpuBefore = os.getProcessCpuTime();

            List<Thread> schedulers = new ArrayList<>();
            if (plan.mode() == LoopMode.OPEN) {
                for (ScenarioRun r : runs) {
                    Thread t = new Thread(() -> schedule(r, startNanos, endNanos), "rig-gen-sched-" + r.scenario.name());
                    t.setPriority(Thread.MAX_PRIORITY);
                    t.start();
                    schedulers.add(t);
                }
            } else {
                new Pacer(0).awaitNanoTime(startNanos);
                for (ScenarioRun r : runs) {
                    for (int w = 0; w < r.scenario.maxInFlight(); w++) {
                        r.startClosed();
                    }
                }
            }
            while (!stopping && System.nanoTime() - endNanos < 0) {
                LockSupport.parkNanos(Math.min(endNanos - System.nanoTime(), 100_000_000L));
            }
            for (Thread t : schedulers) {
                join(t);
            }
            long scheduleEndNanos = Math.min(System.nanoTime(), endNanos);
            awaitInFlight(runs);
            long endUs = clock.nowUs();
            collector.finish(endUs);
            health.close();
            double cpuPct = 100.0 * (os.getProcessCpuTime() - cpuBefore) / Math.max(1, System.nanoTime() - startNanos);
            List<ScenarioSummary> summaries = collector.summaries();
            if (collector.lateSamples() > 0) {
                LOG.error("{} sample(s) ended in a second whose ledger was already published", collector.lateSamples());
            }
            RunSummary partial = new RunSummary(plan.series(), plan.rep(), plan.src(), plan.mode(), startEpochUs,
                    Duration.ofNanos(scheduleEndNanos - startNanos), Duration.ofNanos((endUs - startEpochUs) * 1000),
                    summaries, 0, 0, 0, 0, cpuPct);
            endMarker(outbox, partial);
            outboxClosed = true;
            outbox.close(Duration.ofMinutes(2));
            LOG.info("{}: published {} of {} record(s) ({} samples of {}; {} through the spool)", plan.src(),
                    outbox.published(), outbox.produced(), outbox.publishedSamples(), outbox.producedSamples(),
                    outbox.spooled());
            if (outbox.published() != outbox.produced()) {
                throw new IllegalStateException("published " + outbox.published() + " record(s) but produced "
                        + outbox.produced());
            }
            return new RunSummary(partial.series(), partial.rep(), partial.src(), partial.mode(), startEpochUs,
                    partial.scheduleElapsed(), partial.elapsed(), summaries, outbox.produced(), outbox.published(),
                    outbox.publishedSamples(), outbox.spooled(), cpuPct);
        } finally {
            stopping = true;
            sweeperDone = true;
            if (health != null) {
                health.close();
            }
            if (!outboxClosed) {
                try {
                    outbox.close(Duration.ofSeconds(10));
                } catch (RuntimeException e) {
                    LOG.warn("closing the outbox after a failed run: {}", e.toString());
                }
            }
            for (ScenarioRun r : runs) {
                r.dispose();
            }
            loops.disposeLater().block(Duration.ofSeconds(5));
        }
    }

    /** The open-loop scheduler of one scenario: runs on its own thread until the end of the schedule. */
    private void schedule(ScenarioRun r, long startNanos, long endNanos) {
        Pacer pacer = new Pacer(options.spinNanos());
        int cap = r.scenario.maxInFlight();
        for (long i = 0; ; i++) {
            long t0 = startNanos + r.schedule.offsetNanos(i);
            if (t0 - endNanos >= 0 || stopping) {
                break;
            }
            r.decidedBeforeNanos = t0;
            pacer.awaitNanoTime(t0);
            if (r.inFlight.get() >= cap) {
                r.count(t0, false);
                continue;
            }
            r.inFlight.incrementAndGet();
            r.count(t0, true);
            r.startOpen(i, t0);
        }
        r.decidedBeforeNanos = Long.MAX_VALUE;
    }

    /** Every 10 ms, ends the requests that have outlived their scenario's timeout. Stops with the run. */
    private void sweepTimeouts(List<ScenarioRun> runs) {
        while (!sweeperDone) {
            LockSupport.parkNanos(10_000_000L);
            long now = clock.nanoTime();
            for (Exchange x : inFlight) {
                x.scenario.expireIfOverdue(x, now);
            }
        }
    }

    private void awaitInFlight(List<ScenarioRun> runs) {
        Duration longest = plan.scenarios().stream().map(Scenario::timeout).max(Duration::compareTo).orElseThrow();
        long deadline = System.nanoTime() + longest.plus(options.drainGrace()).toNanos();
        while (!inFlight.isEmpty() && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(5_000_000L);
        }
        if (!inFlight.isEmpty()) {
            LOG.warn("{} request(s) still in flight {} after the schedule ended; they are left out", inFlight.size(),
                    longest.plus(options.drainGrace()));
        }
    }

    private long oldestInFlightAgeUs() {
        long now = clock.nanoTime();
        long oldest = now;
        for (Exchange x : inFlight) {
            if (x.t0Stamped) {
                long t0 = x.t0Nanos;
                if (t0 - oldest < 0) {
                    oldest = t0;
                }
            }
        }
        return Math.max(0, (now - oldest) / 1_000);
    }

    private void startMarkers(Outbox outbox, long startEpochUs) {
        Map<String, Object> config = plan.toMap();
        Marker.Kind startKind = startKind();
        long ts = clock.nowUs();
        if (startKind != null) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("mode", plan.mode().label());
            data.put("start_epoch_us", startEpochUs);
            data.put("duration_ms", plan.duration().toMillis());
            data.put("scenarios", plan.scenarios().stream().map(Scenario::name).toList());
            outbox.offer(new Marker(plan.series(), plan.rep(), plan.src(), ts, startKind, plan.phase(), data));
        }
        outbox.offer(new Marker(plan.series(), plan.rep(), plan.src(), ts, Marker.Kind.CONFIG, plan.phase(), config));
    }

    private void endMarker(Outbox outbox, RunSummary summary) {
        Marker.Kind start = startKind();
        if (start == null) {
            return;
        }
        Marker.Kind end = switch (start) {
            case SERIES_START -> Marker.Kind.SERIES_END;
            case REPEAT_START -> Marker.Kind.REPEAT_END;
            default -> Marker.Kind.PHASE_END;
        };
        Map<String, Object> data = summary.toMap();
        data.remove("records_produced");
        data.remove("records_published");
        data.remove("samples_published");
        data.remove("records_spooled");
        outbox.offer(new Marker(plan.series(), plan.rep(), plan.src(), clock.nowUs(), end, plan.phase(), data));
    }

    private Marker.Kind startKind() {
        return switch (plan.lifecycle()) {
            case SERIES -> Marker.Kind.SERIES_START;
            case REPEAT -> Marker.Kind.REPEAT_START;
            case PHASE -> Marker.Kind.PHASE_START;
            case NONE -> null;
        };
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + t.getName(), e);
        }
    }
}
