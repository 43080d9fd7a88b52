package io.rigscope.generator;

import io.rigscope.generator.health.HealthMonitor;
import io.rigscope.generator.http.ClientLoops;
import io.rigscope.generator.outbox.Outbox;
import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.generator.outbox.SampleJournal;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.Config;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.ScheduleEnd;
import io.rigscope.model.wire.ScheduleStart;
import io.rigscope.model.wire.VerdictFacts;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One execution of a {@link LoadPlan}: runs on the options' client loops (or opens and closes loops of its own), owns its scenarios (their lanes and connections),
 * sample batcher, health monitor and outbox. The schedule runs on the event loops themselves (see {@link Lane});
 * the calling thread only starts, waits and publishes the end.
 */
final class GeneratorRun {

    private static final Logger LOG = LoggerFactory.getLogger(GeneratorRun.class);

    private final LoadPlan plan;
    private final GeneratorOptions options;
    private final RecordSink sink;
    private final WireCodec codec;
    private final MicroClock clock = new MicroClock();
    private final CompletionQueue completions = new CompletionQueue(clock);
    private volatile Thread runThread;
    /** Why the run was asked to stop (the end marker's {@code stopped} when that ended the schedule), or null. */
    private volatile VerdictFacts.Abort stoppedBy;
    /** True when the schedule ended because of a stop, not its duration. */
    private boolean endedByStop;
    private SampleBatcher batcher;

    GeneratorRun(LoadPlan plan, GeneratorOptions options, RecordSink sink, WireCodec codec) {
        this.plan = plan;
        this.options = options;
        this.sink = sink;
        this.codec = codec;
    }

    /**
     * Asks the run to stop starting requests, saying why: when that ends the schedule before its duration, the end
     * marker carries {@code stop}'s reason under {@code stopped}. The first stop's reason is kept; a stop without
     * one (a signal) leaves no {@code stopped}.
     */
    void stop(Generator.Stop stop) {
        if (!completions.stopping() && stop.reason() != null) {
            stoppedBy = stop.reason();
        }
        stop();
    }

    /** Asks the run to stop starting requests; it then finishes as usual. */
    void stop() {
        completions.stop();
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
                options.spoolDir().resolve("rigscope-spool-" + plan.src() + "-" + nonce + ".bin"), codec,
                options.journalDir() == null ? null : SampleJournal.create(options.journalDir(), plan.src(), codec));
        // the caller's loops, or loops of this run's own, closed when it ends
        ClientLoops own = options.clientLoops() == null ? ClientLoops.open(options.ioThreads()) : null;
        ClientLoops loops = own != null ? own : options.clientLoops();
        List<ScenarioRun> runs = new ArrayList<>();
        HealthMonitor health = null;
        ClientLoops.Release busyPoll = null;
        boolean outboxClosed = false;
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try {
            for (Scenario s : plan.scenarios()) {
                runs.add(new ScenarioRun(s, plan.mode(), completions, loops.group(), options,
                        loops.bootstrap(s.timeout()), keyPrefix, plan.share()));
            }
            if (loops.claimWarmup()) {
                Warmup.run(loops, options); // once per set of loops: the first run on them
            }
            for (ScenarioRun r : runs) {
                int wanted = r.lanes.stream().mapToInt(r::preconnectPerLane).sum();
                int opened = r.preconnect();
                if (opened < wanted) {
                    // one line: the failure's kind and message, never its stack trace (a closed port is common)
                    LOG.warn("{}: opened {} of {} keep-alive connection(s) to {} before the schedule: {}",
                            r.scenario.name(), opened, wanted, r.scenario.url(), oneLine(r.connectFailure()));
                }
            }
            if (options.busyPoll()) {
                busyPoll = loops.busyPoll();
            }
            // The schedule starts on a 10 ms boundary, leaving time to set up.
            long startEpochUs = (clock.nowUs() / 10_000 + 5) * 10_000;
            long startNanos = clock.nanosOf(startEpochUs);
            long endNanos = startNanos + plan.duration().toNanos();
            batcher = new SampleBatcher(plan.series(), plan.rep(), plan.src(), completions, runs, outbox,
                    options.listener(), options.batchMaxSamples(), options.batchMaxAge(), startEpochUs);
            startMarkers(outbox, startEpochUs);
            health = new HealthMonitor(plan.series(), plan.rep(), plan.src(), clock::nowUs, loops.group(),
                    () -> runs.stream().mapToInt(ScenarioRun::inFlight).sum(), () -> oldestInFlightAgeUs(runs),
                    outbox::offer);
            batcher.start();
            health.start();
            long cpuBefore = os.getProcessCpuTime();
            for (ScenarioRun r : runs) {
                r.start(startNanos, endNanos);
            }
            while (!completions.stopping() && System.nanoTime() - endNanos < 0) {
                LockSupport.parkNanos(Math.min(endNanos - System.nanoTime(), 100_000_000L));
            }
            long scheduleEndNanos = Math.min(System.nanoTime(), endNanos);
            endedByStop = completions.stopping() && scheduleEndNanos - endNanos < 0;
            if (endedByStop && stoppedBy != null) {
                LOG.info("{}: the schedule stopped early: {}", plan.src(), stoppedBy);
            }
            awaitQuiet(runs);
            if (busyPoll != null) {
                busyPoll.close();
            }
            long endUs = clock.nowUs();
            batcher.finish(endUs);
            health.close();
            double cpuPct = 100.0 * (os.getProcessCpuTime() - cpuBefore) / Math.max(1, System.nanoTime() - startNanos);
            List<ScenarioSummary> summaries = batcher.summaries();
            if (batcher.lateSamples() > 0) {
                LOG.error("{} sample(s) ended in a second whose ledger was already published", batcher.lateSamples());
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
            completions.stop();
            if (busyPoll != null) {
                busyPoll.close();
            }
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
                r.close();
            }
            if (own != null) {
                own.close();
            }
        }
    }

    /**
     * Waits until every lane has finished its schedule and has nothing in flight, at most the longest timeout
     * plus the drain grace (a lane's sweeper ends every request by its timeout, so this is a safety net).
     */
    private void awaitQuiet(List<ScenarioRun> runs) {
        Duration longest = plan.scenarios().stream().map(Scenario::timeout).max(Duration::compareTo).orElseThrow();
        long deadline = System.nanoTime() + longest.plus(options.drainGrace()).toNanos();
        ScenarioRun.awaitQuiet(runs, deadline);
        int left = runs.stream().mapToInt(ScenarioRun::inFlight).sum();
        if (left > 0) {
            LOG.warn("{} request(s) still in flight {} after the schedule ended; they are left out", left,
                    longest.plus(options.drainGrace()));
        }
    }

    private long oldestInFlightAgeUs(List<ScenarioRun> runs) {
        long now = clock.nanoTime();
        long oldest = now;
        for (ScenarioRun r : runs) {
            for (Lane l : r.lanes) {
                long t0 = l.oldestStartNanos;
                if (t0 != 0 && t0 - oldest < 0) {
                    oldest = t0;
                }
            }
        }
        return Math.max(0, (now - oldest) / 1_000);
    }

    private void startMarkers(Outbox outbox, long startEpochUs) {
        Marker.Kind startKind = startKind();
        long ts = clock.nowUs();
        if (startKind != null) {
            // with a shared schedule, the analyzer waits for every generator of it, not only the ones it has seen
            boolean shared = plan.share().n() > 1;
            ScheduleStart schedule = new ScheduleStart(plan.mode().label(), startEpochUs, plan.duration().toMillis(),
                    plan.scenarios().stream().map(Scenario::name).toList(), shared ? plan.share().toString() : null,
                    shared ? plan.share().n() : null);
            outbox.offer(new Marker(plan.series(), plan.rep(), plan.src(), ts, plan.phase(), schedule.body(startKind)));
        }
        outbox.offer(new Marker(plan.series(), plan.rep(), plan.src(), ts, plan.phase(), new Config(plan.toMap())));
    }

    /**
     * The SERIES_END/REPEAT_END/PHASE_END marker: the run's schedule facts ({@link RunSummary#toScheduleEnd}: not
     * the publishing counts, which are not final yet): per scenario scheduled, sent, dropped, completed, failed by
     * kind, send lag, first and last send. No latency and no claims: the analyzer derives those from the samples.
     */
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
        ScheduleEnd facts = summary.toScheduleEnd();
        VerdictFacts.Abort stopped = stoppedBy;
        if (stopped != null && endedByStop) {
            facts = facts.withStopped(stopped);
        }
        outbox.offer(new Marker(plan.series(), plan.rep(), plan.src(), clock.nowUs(), plan.phase(), facts.body(end)));
    }

    private Marker.Kind startKind() {
        return switch (plan.lifecycle()) {
            case SERIES -> Marker.Kind.SERIES_START;
            case REPEAT -> Marker.Kind.REPEAT_START;
            case PHASE -> Marker.Kind.PHASE_START;
            case NONE -> null;
        };
    }

    /** A connection failure in one line: {@code connection refused}, else its deepest cause's message. */
    private static String oneLine(Throwable failure) {
        if (failure == null) {
            return "no connection failure recorded";
        }
        if (ErrorKinds.of(failure) == ErrorKind.REFUSED) {
            return "connection refused";
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
