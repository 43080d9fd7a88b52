package io.rigscope.benchmarks.analyzer;

import io.rigscope.model.wire.Config;
import io.rigscope.model.wire.DatabaseGain;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Health;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.RepeatStart;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.SeriesEnd;
import io.rigscope.model.wire.SeriesStart;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WirePublisher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * One repeat of an open-loop load and its telemetry, published in real time: simulated generators whose
 * requests start on a fixed schedule ({@code ratePerSec}, intended start = actual send), take 2-2.5 ms, and are
 * held by planted server stalls; each request's sample is published once the wall clock passes its end, in
 * {@link SampleBatch} records sealed as the generator seals them (500 samples or 50 ms), with each second's
 * {@link Ledger} after that second's samples and a {@link Health} record per second, plus every telemetry stream
 * at its real rate ({@link LiveTelemetry}). With {@code sources} above 1 the schedule is shared as
 * {@code generate --share K/N} shares it: request {@code i} is generator {@code gen-(i mod N + 1)}'s, each generator
 * seals its own batches and publishes its own ledger and health, and the REPEAT_START says {@code generators: N}. Event time is the {@link BenchClock}, so a second's end on the
 * records is the moment it ended on the wall clock.
 *
 * <p>Stall {@code k} (from 0) starts at {@code k x stallEvery + stallEvery / 2 + 700 ms} into the repeat (a
 * stall over 300 ms straddles a second boundary) and alternates kinds: even {@link StallKind#HOST_IO}, odd
 * {@link StallKind#WAL_POOL}.
 *
 * <p>{@link #run()} blocks its caller (a dedicated thread) for the repeat; counters may be read from any thread.
 */
final class LiveLoad {

    /** What a planted stall looks like in the telemetry. */
    enum StallKind { HOST_IO, WAL_POOL }

    /** A planted server stall: requests in the server during {@code [startUs, endUs)} end after {@code endUs}. */
    record Stall(long startUs, long endUs, StallKind kind) {
    }

    static final String GEN = "gen-1";
    static final String SCENARIO = "ingest";
    private static final int REP = 1;
    private static final int BATCH_MAX_SAMPLES = 500;
    private static final long BATCH_MAX_AGE_US = 50_000;
    private static final long TICK_NANOS = 5_000_000;
    private static final long BASE_SERVICE_US = 2_000;
    private static final long JITTER_US = 500;

    private final String series;
    private final BenchClock clock;
    private final WirePublisher publisher;
    private final int ratePerSec;
    private final Source[] sources;
    private final long startSec;
    private final long startUs;
    private final long endUs;
    private final List<Stall> stalls;
    private final LiveTelemetry telemetry;
    /** Each second's last awaited record acknowledged (ledgers and sample batches); null: not tracked. */
    private final SecondPath path;
    private final SplittableRandom random = new SplittableRandom(7);
    /** From a second's end to its ledger handed to the producer; written by the load's thread. */
    private final LatencyTrack ledgerLag = new LatencyTrack();
    /** The same per second of the repeat (index: second - startSec), µs; written by the load's thread. */
    private final long[] ledgerLagUsBySec;

    private long nextIndex;
    private long nextSec;
    private long lastT2Us;
    private long sent;
    private long worstTickLateUs;
    private volatile long samplesPublished;
    private volatile long lastSampleNanos;
    private volatile long pacingLagMaxUs;
    private volatile long telemetryRecords;

    /**
     * @param startSec the epoch second the repeat starts at (in the future: the wait is the warm-up)
     * @param duration the repeat's length in whole seconds
     * @param sources generators sharing the schedule (1: {@code gen-1} alone)
     * @param path receives the acknowledgements of the ledgers and sample batches, or null
     */
    LiveLoad(String series, BenchClock clock, WirePublisher publisher, int ratePerSec, int sources, long startSec,
             int durationSec, long stallEveryMs, long stallMs, SecondPath path) {
        if (sources < 1) {
            throw new IllegalArgumentException("sources must be >= 1, was " + sources);
        }
        this.series = series;
        this.clock = clock;
        this.publisher = publisher;
        this.ratePerSec = ratePerSec;
        this.sources = new Source[sources];
        for (int k = 0; k < sources; k++) {
            this.sources[k] = new Source(sources == 1 ? GEN : "gen-" + (k + 1));
        }
        this.startSec = startSec;
        this.startUs = startSec * 1_000_000L;
        this.endUs = startUs + durationSec * 1_000_000L;
        this.nextSec = startSec;
        this.ledgerLagUsBySec = new long[durationSec + 8];
        List<Stall> planted = new ArrayList<>();
        if (stallMs > 0) {
            for (int k = 0; ; k++) {
                long a = startUs + (k * stallEveryMs + stallEveryMs / 2 + 700) * 1000;
                if (a + stallMs * 1000 > endUs) {
                    break;
                }
                planted.add(new Stall(a, a + stallMs * 1000, k % 2 == 0 ? StallKind.HOST_IO : StallKind.WAL_POOL));
            }
        }
        this.stalls = List.copyOf(planted);
        this.telemetry = new LiveTelemetry(series, REP, startSec);
        this.path = path;
    }

    /** The planted stalls. */
    List<Stall> stalls() {
        return stalls;
    }

    /** SERIES_START and CONFIG: the orchestrator's markers before any data. */
    void publishPreamble(Map<String, Object> config) {
        long ts = startUs - 10_000_000L;
        publisher.publish(new Marker(series, 0, "orchestrator", ts, "sustained", SeriesStart.EMPTY));
        publisher.publish(new Marker(series, 0, "orchestrator", ts + 1, null, new Config(config)));
        publisher.flush();
    }

    /**
     * Publishes the repeat in real time (REPEAT_START at its start, data, REPEAT_END, RECONCILIATION, then
     * SERIES_END) and returns once everything is acknowledged.
     */
    void run() {
        sleepUntilUs(startUs - 500_000);
        long durationMs = (endUs - startUs) / 1000;
        publisher.publish(new Marker(series, REP, "orchestrator", startUs, "sustained", sources.length == 1
                ? RepeatStart.ofDurationMs(durationMs)
                : new RepeatStart(null, null, null, null, null, null, durationMs, null, null, null, null,
                        sources.length, null, null, null)));
        long intendedTickNanos = clock.nanosOf(startUs);
        while (true) {
            LockSupport.parkNanos(intendedTickNanos - System.nanoTime());
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("the load was interrupted at second " + nextSec);
            }
            long nowNanos = System.nanoTime();
            long nowUs = clock.epochUs(nowNanos);
            long lateUs = (nowNanos - intendedTickNanos) / 1000;
            worstTickLateUs = Math.max(worstTickLateUs, lateUs);
            pacingLagMaxUs = Math.max(pacingLagMaxUs, lateUs);
            intendedTickNanos += TICK_NANOS;
            if (intendedTickNanos - nowNanos < 0) {
                // late: the next tick on the grid, never one from now: a tick lands on every second's end
                intendedTickNanos += (nowNanos - intendedTickNanos + TICK_NANOS - 1) / TICK_NANOS * TICK_NANOS;
            }
            startRequests(nowUs);
            boolean inFlight = false;
            for (Source source : sources) {
                endRequests(source, nowUs);
                if (!source.pending.isEmpty() && (source.pending.size() >= BATCH_MAX_SAMPLES
                        || nowUs - source.pendingSinceUs >= BATCH_MAX_AGE_US)) {
                    seal(source, nowUs);
                }
                inFlight |= !source.inFlight.isEmpty();
            }
            boolean drained = nextIndex * 1_000_000L / ratePerSec + startUs >= endUs && !inFlight;
            long finalSec = drained ? Math.max(endUs / 1_000_000L - 1, Math.floorDiv(lastT2Us, 1_000_000L)) : Long.MAX_VALUE;
            while ((nextSec + 1) * 1_000_000L <= nowUs && nextSec <= finalSec) {
                closeSecond(nextSec, nextSec == finalSec, nowUs);
                nextSec++;
            }
            if (nextSec > finalSec) {
                break;
            }
        }
        long endMarkerUs = Math.max(endUs, nextSec * 1_000_000L);
        publisher.publish(new Marker(series, REP, "orchestrator", endMarkerUs, "sustained", RepeatEnd.EMPTY));
        publisher.publish(new DatabaseGain(series, REP, "orchestrator", endMarkerUs + 1, null, sent, sent).toMarker());
        publisher.publish(new Marker(series, 0, "orchestrator", endMarkerUs + 2, null, SeriesEnd.EMPTY));
        publisher.flush();
        if (publisher.failed() > 0) {
            throw new IllegalStateException(publisher.failed() + " records failed to publish: " + publisher.lastError());
        }
    }

    private void startRequests(long nowUs) {
        while (true) {
            long t0 = startUs + nextIndex * 1_000_000L / ratePerSec;
            if (t0 > nowUs || t0 >= endUs) {
                return;
            }
            long serviceUs = BASE_SERVICE_US + random.nextLong(JITTER_US);
            long t2 = t0 + serviceUs;
            for (Stall s : stalls) {
                if (t0 < s.endUs() && t2 > s.startUs()) {
                    t2 = Math.max(t2, s.endUs() + serviceUs);
                }
            }
            Source source = sources[(int) (nextIndex % sources.length)];
            source.inFlight.add(new Sample(SCENARIO, t0, t0, t2, 201, ErrorKind.NONE, 1, 1, 180));
            source.scheduledBySec.computeIfAbsent(Math.floorDiv(t0, 1_000_000L), s -> new long[1])[0]++;
            sent++;
            nextIndex++;
        }
    }

    private void endRequests(Source source, long nowUs) {
        while (!source.inFlight.isEmpty() && source.inFlight.peek().t2() <= nowUs) {
            Sample s = source.inFlight.poll();
            if (source.pending.isEmpty()) {
                source.pendingSinceUs = nowUs;
            }
            source.pending.add(s);
            source.completedBySec.computeIfAbsent(Math.floorDiv(s.t2(), 1_000_000L), k -> new long[1])[0]++;
            lastT2Us = Math.max(lastT2Us, s.t2());
            if (source.pending.size() >= BATCH_MAX_SAMPLES) {
                seal(source, nowUs);
            }
        }
    }

    private void seal(Source source, long nowUs) {
        if (source.pending.isEmpty()) {
            return;
        }
        SampleBatch batch = new SampleBatch(series, REP, source.name, nowUs, source.pending);
        if (path == null) {
            publisher.publish(batch);
        } else {
            // pending is in end order (inFlight is ordered by t2)
            long fromSec = Math.floorDiv(source.pending.get(0).t2(), 1_000_000L);
            long toSec = Math.floorDiv(source.pending.get(source.pending.size() - 1).t2(), 1_000_000L);
            publisher.publish(batch, error -> path.samplesAcked(fromSec, toSec, clock.nowUs()));
        }
        long n = source.pending.size();
        source.pending.clear();
        lastSampleNanos = System.nanoTime();
        samplesPublished += n;
    }

    /**
     * Per generator its samples first, then the second's ledger; then each generator's health and the telemetry
     * describing the second.
     */
    private void closeSecond(long sec, boolean last, long nowUs) {
        long c = 0;
        for (Source source : sources) {
            seal(source, nowUs);
            long[] scheduled = source.scheduledBySec.remove(sec);
            long[] completed = source.completedBySec.remove(sec);
            long s = scheduled == null ? 0 : scheduled[0];
            long done = completed == null ? 0 : completed[0];
            Ledger ledger = new Ledger(series, REP, source.name, nowUs, SCENARIO, sec, s, s, 0, done, last);
            if (path == null) {
                publisher.publish(ledger);
            } else {
                publisher.publish(ledger, error -> path.ledgerAcked(sec, clock.nowUs()));
            }
            c += done;
        }
        long lagUs = clock.nowUs() - (sec + 1) * 1_000_000L;
        ledgerLag.record(lagUs);
        if (sec - startSec < ledgerLagUsBySec.length) {
            ledgerLagUsBySec[(int) (sec - startSec)] = lagUs;
        }
        Stall stall = stallIn(sec);
        long secEndUs = (sec + 1) * 1_000_000L;
        double oldestMs = stall != null && stall.endUs() > secEndUs ? (secEndUs - stall.startUs()) / 1000.0 : 2.5;
        for (Source source : sources) {
            publisher.publish(new Health(series, REP, source.name, secEndUs, 0.0, 0.0, worstTickLateUs / 1000.0, 0.0,
                    source.inFlight.size(), oldestMs));
        }
        worstTickLateUs = 0;
        for (WireRecord r : telemetry.afterSecond(sec, stall, c)) {
            publisher.publish(r);
        }
        telemetryRecords = telemetry.records();
    }

    private Stall stallIn(long sec) {
        long a = sec * 1_000_000L;
        for (Stall s : stalls) {
            if (s.startUs() < a + 1_000_000L && s.endUs() > a) {
                return s;
            }
        }
        return null;
    }

    private void sleepUntilUs(long epochUs) {
        long deadline = clock.nanosOf(epochUs);
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("interrupted before the repeat started");
            }
        }
    }

    /** Samples published so far. */
    long samplesPublished() {
        return samplesPublished;
    }

    /** Samples published per second of wall time, from the repeat's start to the last batch (0 before one). */
    double samplesPerSec() {
        long spanNanos = lastSampleNanos - clock.nanosOf(startUs);
        return samplesPublished == 0 || spanNanos <= 0 ? 0 : samplesPublished * 1e9 / spanNanos;
    }

    /** The latest a tick of the pacing loop ran after its intended time, µs. */
    long pacingLagMaxUs() {
        return pacingLagMaxUs;
    }

    /**
     * From each second's end to its ledger handed to the producer: the part of a second's close latency that is
     * the load's own (its 5 ms tick and any stall of its thread). Read once, after {@link #run()} returned.
     */
    LiveAnalyzerBench.Latency ledgerLag() {
        ledgerLag.takeInterval();
        return ledgerLag.total();
    }

    /** Second {@code startSec + i}'s ledger lag, µs (0 when none); read after {@link #run()} returned. */
    long ledgerLagUs(int i) {
        return i < ledgerLagUsBySec.length ? ledgerLagUsBySec[i] : 0;
    }

    /** Telemetry records published so far. */
    long telemetryRecords() {
        return telemetryRecords;
    }

    /** The epoch second the repeat starts at. */
    long startSec() {
        return startSec;
    }

    /** The repeat's scheduled end, epoch µs. */
    long endUs() {
        return endUs;
    }

    /** One generator's share of the schedule: its requests in flight, its open batch and its ledger counts. */
    private static final class Source {
        final String name;
        final PriorityQueue<Sample> inFlight = new PriorityQueue<>(Comparator.comparingLong(Sample::t2));
        final List<Sample> pending = new ArrayList<>(BATCH_MAX_SAMPLES);
        /** Per second: requests whose intended start fell in it. */
        final Map<Long, long[]> scheduledBySec = new HashMap<>();
        /** Per second: requests that ended in it. */
        final Map<Long, long[]> completedBySec = new HashMap<>();
        long pendingSinceUs;

        Source(String name) {
            this.name = name;
        }
    }
}
