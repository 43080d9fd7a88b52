package io.rigscope.generator;

import io.rigscope.generator.outbox.Outbox;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.LatencySettings;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The single thread ({@code rig-gen-batch}) that turns finished requests into wire records: it batches
 * samples into {@link SampleBatch} records (at most {@code batchMaxSamples} or {@code batchMaxAge} old) and
 * publishes each second's {@link Ledger} once that second is final, after every sample that ended in it.
 *
 * <p>It keeps only what the schedule and the ledger need: per second, how many requests ended in it (the
 * ledger's {@code completed}); per scenario, completions, failures by kind, first and last send, and the send
 * lag {@code t1 - t0} (the schedule's own adherence, which {@code rigscope bench generator} reports). It keeps
 * no latency figures and no claims: the analyzer is the only source of those, from the samples published here.
 * The lag histogram is its own; nothing else reads it.
 *
 * <p>Second S is final when {@code (S+1) s <= bound}, with the bound the least of: the batcher's clock when
 * it looks; each open-loop scheduler's progress (every request due before it was counted); for a
 * closed-loop request registered but not yet counted, its start; for a request whose end has been stamped but
 * whose sample is not yet queued, that end. See {@link #closeableBeforeUs}.
 */
final class SampleBatcher {

    private final String series;
    private final int rep;
    private final String src;
    private final MicroClock clock;
    private final List<ScenarioRun> scenarios;
    private final Outbox outbox;
    private final ProgressListener listener;
    private final int batchMaxSamples;
    private final long batchMaxAgeNanos;
    private final CompletionQueue completions;
    private final Map<String, Totals> totals = new LinkedHashMap<>();
    private final List<Sample> pending = new ArrayList<>();
    private long pendingSinceNanos;
    private long lateSamples;
    private long nextSec;
    private final Thread thread;
    private volatile boolean finishing;
    private volatile RuntimeException failure;

    /** Running totals of one scenario; the batcher thread only. */
    private static final class Totals {
        final Histogram lagUs = new Histogram(LatencySettings.LOWEST_US, LatencySettings.HIGHEST_US,
                LatencySettings.DIGITS);
        /** Requests that ended in each second not yet published (by t2), for the ledger's {@code completed}. */
        final Map<Long, Completions> bySecond = new HashMap<>();
        final Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
        /** The second of the last sample recorded and its completions (most samples end in it: no lookup). */
        long lastEndSec = Long.MIN_VALUE;
        Completions lastEnded;
        long completed;
        long failed;
        long firstSendUs = Long.MAX_VALUE;
        long lastSendUs;
    }

    /** Requests that ended in one second (by t2). */
    private static final class Completions {
        long count;
    }

    SampleBatcher(String series, int rep, String src, CompletionQueue completions, List<ScenarioRun> scenarios,
              Outbox outbox, ProgressListener listener, int batchMaxSamples, Duration batchMaxAge, long startEpochUs) {
        this.series = series;
        this.rep = rep;
        this.src = src;
        this.clock = completions.clock;
        this.completions = completions;
        this.scenarios = List.copyOf(scenarios);
        this.outbox = outbox;
        this.listener = listener;
        this.batchMaxSamples = batchMaxSamples;
        this.batchMaxAgeNanos = batchMaxAge.toNanos();
        this.nextSec = Math.floorDiv(startEpochUs, 1_000_000L);
        for (ScenarioRun s : scenarios) {
            totals.put(s.scenario.name(), new Totals());
        }
        this.thread = new Thread(this::loop, "rig-gen-batch");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void loop() {
        try {
            while (!finishing) {
                LockSupport.parkNanos(10_000_000L);
                long cutNanos = clock.nanoTime();
                boolean secondMayClose = clock.epochUs(cutNanos) >= (nextSec + 1) * 1_000_000L;
                long boundUs = secondMayClose ? closeableBeforeUs(cutNanos) : Long.MIN_VALUE;
                drain();
                if (!pending.isEmpty() && (pending.size() >= batchMaxSamples
                        || cutNanos - pendingSinceNanos >= batchMaxAgeNanos)) {
                    flushSamples();
                }
                if (secondMayClose) {
                    closeSecondsBefore(boundUs, false);
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    /**
     * The epoch µs before which every second is final. Called after reading the clock ({@code cutNanos}) and
     * before draining the queue. Open loop, a lane counts every request due before its
     * {@code decidedBeforeNanos} before moving it, so the bound is at most that. A lane queues each sample (and,
     * closed loop, counts each start) inside a {@code stamping} section that raises the flag before it reads
     * the clock: a lane seen outside the section has queued every sample whose end it read before
     * {@code cutNanos} (the drain that follows sees them), and any end it reads later is at or after
     * {@code cutNanos}; a lane seen inside it is waited for (a few instructions) until it leaves.
     */
    private long closeableBeforeUs(long cutNanos) {
        long bound = cutNanos;
        for (ScenarioRun s : scenarios) {
            for (Lane l : s.lanes) {
                if (s.mode == LoopMode.OPEN) {
                    long decided = l.decidedBeforeNanos;
                    if (decided - bound < 0) {
                        bound = decided;
                    }
                }
                awaitOutsideStamping(l);
            }
        }
        return clock.epochUs(bound);
    }

    private static void awaitOutsideStamping(Lane lane) {
        int spins = 0;
        while (lane.stamping) {
            if (++spins < 1_000) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    private void drain() {
        Sample s;
        while ((s = completions.poll()) != null) {
            if (pending.isEmpty()) {
                pendingSinceNanos = clock.nanoTime();
            }
            pending.add(s);
            record(s);
        }
    }

    private void record(Sample s) {
        Totals t = totals.get(s.scenario());
        t.completed++;
        t.lagUs.recordValue(Math.min(s.t1() - s.t0(), LatencySettings.HIGHEST_US));
        t.firstSendUs = Math.min(t.firstSendUs, s.t1());
        t.lastSendUs = Math.max(t.lastSendUs, s.t1());
        if (s.failed()) {
            t.failed++;
            t.errors.merge(s.err(), 1L, Long::sum);
        }
        long endSec = Math.floorDiv(s.t2(), 1_000_000L);
        if (endSec < nextSec) {
            lateSamples++;
        }
        if (endSec != t.lastEndSec) {
            t.lastEnded = t.bySecond.computeIfAbsent(endSec, k -> new Completions());
            t.lastEndSec = endSec;
        }
        t.lastEnded.count++;
    }

    private void flushSamples() {
        if (pending.isEmpty()) {
            return;
        }
        outbox.offer(new SampleBatch(series, rep, src, clock.nowUs(), pending));
        pending.clear();
    }

    /** Publishes the ledgers of every second that ends at or before {@code boundUs}, samples first. */
    private void closeSecondsBefore(long boundUs, boolean last) {
        if ((nextSec + 1) * 1_000_000L > boundUs) {
            return;
        }
        flushSamples();
        while ((nextSec + 1) * 1_000_000L <= boundUs) {
            boolean isLast = last && (nextSec + 2) * 1_000_000L > boundUs;
            publishSecond(nextSec, isLast);
            nextSec++;
        }
    }

    private void publishSecond(long sec, boolean last) {
        long ts = clock.nowUs();
        for (ScenarioRun s : scenarios) {
            String name = s.scenario.name();
            SecondCounts c = s.bySecond.remove(sec);
            long scheduled = c == null ? 0 : c.scheduled.sum();
            long sent = c == null ? 0 : c.sent.sum();
            long dropped = c == null ? 0 : c.dropped.sum();
            Totals t = totals.get(name);
            Completions ended = t.bySecond.remove(sec);
            if (t.lastEndSec == sec) {
                t.lastEndSec = Long.MIN_VALUE; // a late sample of this second gets an entry of its own, as before
                t.lastEnded = null;
            }
            long completed = ended == null ? 0 : ended.count;
            outbox.offer(new Ledger(series, rep, src, ts, name, sec, scheduled, sent, dropped, completed, last));
            listener.onSecond(new SecondReport(sec, name, scheduled, sent, dropped, completed, s.inFlight()));
        }
    }

    /**
     * Stops the thread, then publishes what is left: the remaining samples and every second's ledger through
     * the one holding {@code endEpochUs}, the last flagged {@code last}. Call after every request has ended.
     */
    void finish(long endEpochUs) {
        finishing = true;
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the sample batcher", e);
        }
        if (failure != null) {
            throw new IllegalStateException("the sample batcher failed: " + failure, failure);
        }
        drain();
        long lastSec = Math.max(nextSec, Math.floorDiv(endEpochUs, 1_000_000L));
        for (ScenarioRun s : scenarios) {
            for (long sec : s.bySecond.keySet()) {
                lastSec = Math.max(lastSec, sec);
            }
        }
        for (Totals t : totals.values()) {
            for (long sec : t.bySecond.keySet()) {
                lastSec = Math.max(lastSec, sec);
            }
        }
        flushSamples();
        closeSecondsBefore((lastSec + 1) * 1_000_000L, true);
    }

    /** Samples that ended in a second whose ledger was already published (a watermark bug; expected 0). */
    long lateSamples() {
        return lateSamples;
    }

    /** Per-scenario totals of the schedule; call after {@link #finish}. */
    List<ScenarioSummary> summaries() {
        List<ScenarioSummary> out = new ArrayList<>();
        for (ScenarioRun s : scenarios) {
            Totals t = totals.get(s.scenario.name());
            out.add(new ScenarioSummary(s.scenario.name(), s.scheduledTotal(), s.sentTotal(), s.droppedTotal(),
                    t.completed, t.failed, t.errors, ms(t.lagUs, 50), ms(t.lagUs, 99),
                    t.lagUs.getTotalCount() == 0 ? Double.NaN : t.lagUs.getMaxValue() / 1000.0,
                    t.firstSendUs == Long.MAX_VALUE ? 0 : t.firstSendUs, t.lastSendUs, s.inFlightMax()));
        }
        return out;
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }
}
