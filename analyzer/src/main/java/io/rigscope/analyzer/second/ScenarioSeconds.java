package io.rigscope.analyzer.second;

import io.rigscope.analyzer.decision.SecondClosing;
import io.rigscope.analyzer.decision.SecondHistogram;
import io.rigscope.analyzer.decision.SecondStats.SecondLedger;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.analyzer.second.RepeatTotals.TimeWatermark;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Sample;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The seconds of one scenario in one repeat: it takes each sample into its open second (a histogram) and each
 * ledger record, and closes seconds when they are final. What it keeps is in three parts, each its own class:
 * the {@link ClosedSeconds} (compressed, with the judge's queries), the {@link GeneratorLedgers} (each source's
 * ledger or time watermark: when a second is final) and the {@link RepeatTotals} (the repeat's counts, claims and
 * histograms).
 *
 * <p><b>When a second closes.</b> Second S is final for generator G when G's ledger for S has arrived and at
 * least its {@code completed} samples of S were seen; a generator that published no ledger for S (nothing
 * ended in S) is final for S once it published a ledger for S or a later second, or its {@code last} one.
 * S closes when it is final for every generator seen on this scenario. A sample that arrives for a closed
 * second (a ledger that undercounted) reopens it; the second closes again with the sample in it, so the
 * final figures never depend on arrival order.
 *
 * <p>A source that declared {@link SecondClosing.ByTime} ({@link #declare}) publishes no count per second: S is
 * final for it once its {@link TimeWatermark} passed S, or its stream ended with every sample it published seen.
 * Its sample for a second the watermark already passed is late: counted ({@link #lateSamples()}), its failure
 * and its claim kept, but it enters no second and no latency figure (the second's verdict stands). Its ledger
 * records carry counts only (its drops) and add up.
 *
 * <p>State is bounded by the repeat's length in seconds, never by its samples. Not thread-safe: one owner.
 */
public final class ScenarioSeconds {

    private final String scenario;
    private final ArrayDeque<Histogram> pool;
    private final HashMap<Long, OpenSecond> open = new HashMap<>();
    private final ClosedSeconds closed;
    private final GeneratorLedgers ledgers;
    private final RepeatTotals totals = new RepeatTotals();
    private final Set<Long> touched = new HashSet<>();
    private final Cursor cursor = new Cursor();
    /** What the responses said of the service's own time (Server-Timing); empty when none did. */
    private final ServerTimingTrack serverTiming = new ServerTimingTrack();
    /** Where closing seconds compress their histograms (one buffer reused, not two new ones a second). */
    private java.nio.ByteBuffer compressScratch;

    /**
     * Where the previous sample went: consecutive samples of one generator and second (the usual order) skip the
     * map look-ups. Forgotten when its second closes and after each batch.
     */
    private static final class Cursor {
        long sec = Long.MIN_VALUE;
        String generator;
        OpenSecond open;
        long[] seen;
        SourceLedger ledger;
        String ledgerOf;

        void forgetSecond() {
            sec = Long.MIN_VALUE;
            generator = null;
            open = null;
        }
    }

    /**
     * @param scenario the scenario's name
     * @param pool histograms to recycle, shared by the scenarios of one analysis (same thread)
     */
    public ScenarioSeconds(String scenario, ArrayDeque<Histogram> pool) {
        this.scenario = scenario;
        this.pool = pool;
        this.closed = new ClosedSeconds(pool);
        this.ledgers = new GeneratorLedgers(scenario);
    }

    /** The scenario's name. */
    public String scenario() {
        return scenario;
    }

    /** The one of {@code among} that holds {@code scenario}'s seconds, or null. */
    public static ScenarioSeconds named(List<ScenarioSeconds> among, String scenario) {
        for (ScenarioSeconds s : among) {
            if (s.scenario.equals(scenario)) {
                return s;
            }
        }
        return null;
    }

    /** Its closed seconds and their queries. */
    public ClosedSeconds closed() {
        return closed;
    }

    /** Its generators' ledgers. */
    GeneratorLedgers ledgers() {
        return ledgers;
    }

    /** Requests its generators' ledgers counted as due, over every generator and second. */
    public long ledgerScheduled() {
        return ledgers.totals().scheduled();
    }

    /** Requests its generators' ledgers counted as dropped (could not start), over every generator and second. */
    public long ledgerDropped() {
        return ledgers.totals().dropped();
    }

    /** Its figures over the repeat. */
    public RepeatTotals totals() {
        return totals;
    }

    /** What this scenario's responses said of the service's own time (Server-Timing). */
    public io.rigscope.analyzer.second.ServerTimingTrack serverTiming() {
        return serverTiming;
    }

    /**
     * Records one finished request into its second (cut by {@code t2}) and the totals.
     *
     * <p>Called once per sample. A source's name is a new string in every decoded batch: the cursor takes the new
     * instance once, at the batch's first sample, when it equals the one it holds, so the samples after it compare
     * the name by identity rather than character by character (docs/analyzer.md, "Replay against raw consume").
     *
     * @param generator the generator that sent it
     * @param slowUs the slow threshold in force, µs
     */
    public void record(String generator, Sample s, long slowUs) {
        long sec = Math.floorDiv(s.t2(), 1_000_000L);
        if (!s.serverTiming().isEmpty()) {
            serverTiming.record(s);
        }
        Cursor c = cursor;
        if (generator != c.ledgerOf) {
            if (!generator.equals(c.ledgerOf)) {
                c.ledger = ledgers.of(generator);
            }
            c.ledgerOf = generator;
        }
        if (generator != c.generator && generator.equals(c.generator)) {
            c.generator = generator; // the same source: only the string is new
        }
        SourceLedger source = c.ledger;
        source.seenTotal++;
        if (source.time != null) {
            boolean isLate = source.time.passed(sec);
            source.time.advance(s.t2());
            if (isLate) {
                totals.late(s);
                return;
            }
        }
        if (sec != c.sec || generator != c.generator) {
            c.open = openSecond(sec);
            c.seen = c.open.seenByGenerator.computeIfAbsent(generator, g -> new long[1]);
            c.sec = sec;
            c.generator = generator;
            touched.add(sec);
        }
        OpenSecond o = c.open;
        c.seen[0]++;
        long serviceUs = s.t2() - s.t1();
        Latency.record(o.serviceUs, serviceUs);
        Latency.record(o.responseUs, s.t2() - s.t0());
        o.count++;
        if (s.failed()) {
            o.failed++;
        }
        if (serviceUs > slowUs) {
            o.slowCount++;
        }
        if (serviceUs > o.maxServiceUs) {
            o.maxServiceUs = serviceUs;
        }
        totals.recorded(s, serviceUs);
    }

    /**
     * This scenario's schedule is shared by {@code n} generators: a second is final only once {@code n} generators
     * have been seen on the scenario (and it is final for each), and the data is complete only once all {@code n}
     * have published their last ledger. Without it, the generators seen so far are all there are.
     */
    public void expectGenerators(int n) {
        ledgers.expect(n);
    }

    /**
     * The source {@code generator} closes its seconds by time ({@link SecondClosing.ByTime}), with this watermark
     * (shared by the repeat's scenarios).
     */
    public void declare(String generator, TimeWatermark watermark) {
        ledgers.of(generator).time = watermark;
    }

    /** Accounts one ledger record of this scenario. Returns the seconds it closed, in order. */
    public List<SecondStats> onLedger(Ledger ledger, FreezeRule rule) {
        SourceLedger g = ledgers.account(ledger);
        ClosedSecond already = closed.get(ledger.sec());
        if (already != null && already.seenByGenerator().getOrDefault(ledger.src(), 0L) >= ledger.completed()) {
            g.pendingCompleted.remove(ledger.sec());
        }
        List<Long> candidates = new ArrayList<>();
        for (long sec : open.keySet()) {
            if (sec <= ledger.sec() || g.last()) {
                candidates.add(sec);
            }
        }
        return closeFinal(candidates, rule);
    }

    /** Closes the seconds touched since the last call that are now final. Returns them, in order. */
    public List<SecondStats> settle(FreezeRule rule) {
        // forget the cursor so the next batch marks the seconds it touches again
        cursor.forgetSecond();
        if (touched.isEmpty()) {
            return List.of();
        }
        List<Long> candidates = new ArrayList<>(touched);
        touched.clear();
        return closeFinal(candidates, rule);
    }

    /**
     * Figures of the seconds before {@code beforeSec} that are still open (waiting for samples or a ledger) and
     * were not reported provisionally yet, in order: what a live dashboard shows until the second closes.
     * They stay open; each is reported this way at most once.
     */
    public List<SecondStats> provisional(long beforeSec, FreezeRule rule) {
        List<Long> secs = new ArrayList<>();
        for (OpenSecond o : open.values()) {
            if (o.sec < beforeSec && !o.provisionalSent) {
                secs.add(o.sec);
            }
        }
        secs.sort(null);
        List<SecondStats> out = new ArrayList<>(secs.size());
        for (long sec : secs) {
            OpenSecond o = open.get(sec);
            o.provisionalSent = true;
            out.add(stats(o, rule, false, ledgers.second(sec)));
        }
        return out;
    }

    /**
     * Closes every open second that is now final, in order: after a time-closed source's watermark moved or its
     * stream ended, when any second may have become final, not only those a batch touched.
     */
    public List<SecondStats> settleAll(FreezeRule rule) {
        touched.clear();
        cursor.forgetSecond();
        return closeFinal(new ArrayList<>(open.keySet()), rule);
    }

    /** Closes every open second, final or not (end of input). Returns them, in order. */
    public List<SecondStats> closeAll(FreezeRule rule) {
        List<Long> secs = new ArrayList<>(open.keySet());
        secs.sort(null);
        List<SecondStats> out = new ArrayList<>();
        for (long sec : secs) {
            out.add(close(sec, rule, false));
        }
        touched.clear();
        return out;
    }

    /** Seconds still open. */
    public int openSeconds() {
        return open.size();
    }

    /**
     * True when this scenario's data is all in: every generator seen on it has published its last ledger, every
     * request a ledger counted has arrived, and no second is open.
     */
    public boolean complete() {
        return open.isEmpty() && ledgers.complete();
    }

    private List<SecondStats> closeFinal(List<Long> candidates, FreezeRule rule) {
        candidates.sort(null);
        List<SecondStats> out = new ArrayList<>();
        for (long sec : candidates) {
            OpenSecond o = open.get(sec);
            if (o != null && ledgers.finalFor(sec, o)) {
                out.add(close(sec, rule, true));
            }
        }
        return out;
    }

    private SecondStats close(long sec, FreezeRule rule, boolean exact) {
        OpenSecond o = open.remove(sec);
        if (o == cursor.open) {
            cursor.forgetSecond();
        }
        SecondStats stats = stats(o, rule, exact, ledgers.second(sec));
        totals.addClosed(o.serviceUs, o.responseUs);
        Map<String, Long> seen = new HashMap<>();
        o.seenByGenerator.forEach((g, n) -> seen.put(g, n[0]));
        compressScratch = Latency.scratchFor(o.serviceUs, compressScratch);
        byte[] service = Latency.compress(o.serviceUs, compressScratch);
        compressScratch = Latency.scratchFor(o.responseUs, compressScratch);
        byte[] response = Latency.compress(o.responseUs, compressScratch);
        closed.put(sec, new ClosedSecond(stats, service, response, seen));
        ledgers.closed(sec);
        Latency.recycle(pool, o.serviceUs);
        Latency.recycle(pool, o.responseUs);
        return stats;
    }

    /** The one place the freeze rule is evaluated: when a second's figures are taken. */
    private static SecondStats stats(OpenSecond o, FreezeRule rule, boolean exact, SecondLedger ledger) {
        return new SecondStats(o.sec, o.count, o.failed, o.slowCount, o.maxServiceUs,
                Latency.percentileUs(o.serviceUs, 50), Latency.percentileUs(o.serviceUs, 99),
                Latency.percentileUs(o.responseUs, 99), rule.isFreeze(o.count, o.slowCount, o.maxServiceUs), exact,
                ledger);
    }

    private OpenSecond openSecond(long sec) {
        OpenSecond o = open.get(sec);
        if (o != null) {
            return o;
        }
        o = new OpenSecond(sec, Latency.borrow(pool), Latency.borrow(pool));
        ClosedSecond late = closed.reopen(sec);
        if (late != null) {
            Histogram service = Latency.decompress(late.serviceUs());
            Histogram response = Latency.decompress(late.responseUs());
            o.serviceUs.add(service);
            o.responseUs.add(response);
            totals.removeClosed(service, response);
            SecondStats s = late.stats();
            o.count = s.count();
            o.failed = s.failed();
            o.slowCount = s.slowCount();
            o.maxServiceUs = s.maxServiceUs();
            late.seenByGenerator().forEach(o::addSeen);
        }
        open.put(sec, o);
        return o;
    }

    /**
     * One scenario's closed seconds in a repeat, each kept as its figures and compressed histograms (a few hundred
     * bytes), and the queries the judge asks of them: every second, one second's histogram, window buckets, the p99
     * of a range. Single-threaded; filled by {@link ScenarioSeconds}.
     */
    public static final class ClosedSeconds {

        private final TreeMap<Long, ClosedSecond> bySec = new TreeMap<>();
        private final ArrayDeque<Histogram> pool;
        private long reopened;

        ClosedSeconds(ArrayDeque<Histogram> pool) {
            this.pool = pool;
        }

        void put(long sec, ClosedSecond c) {
            bySec.put(sec, c);
        }

        ClosedSecond get(long sec) {
            return bySec.get(sec);
        }

        /** Takes second {@code sec} out to be reopened by a late sample; null when it is not closed. */
        ClosedSecond reopen(long sec) {
            ClosedSecond c = bySec.remove(sec);
            if (c != null) {
                reopened++;
            }
            return c;
        }

        /** Closed seconds' figures, in time order. */
        public List<SecondStats> stats() {
            List<SecondStats> out = new ArrayList<>(bySec.size());
            for (ClosedSecond c : bySec.values()) {
                out.add(c.stats());
            }
            return out;
        }

        /**
         * The service-time histogram of a closed second, exactly as recorded (what its {@link SecondStats} were taken
         * from), or null when the second is not closed.
         */
        public SecondHistogram serviceHistogram(long sec) {
            ClosedSecond c = bySec.get(sec);
            return c == null ? null : new SecondHistogram(c.serviceUs());
        }

        /** Times a closed second was reopened by a late sample. */
        public long reopened() {
            return reopened;
        }

        /** Closed seconds. */
        public int size() {
            return bySec.size();
        }

        /** The first closed second, epoch seconds; call only when {@link #size()} is not 0. */
        public long first() {
            return bySec.firstKey();
        }

        /** The last closed second, epoch seconds; call only when {@link #size()} is not 0. */
        public long last() {
            return bySec.lastKey();
        }

        /**
         * The p99 service time of each bucket of {@code bucketSec} seconds (buckets start at epoch multiples of
         * it) that holds a closed second, in time order.
         */
        public List<Bucket> buckets(int bucketSec) {
            List<Bucket> out = new ArrayList<>();
            Histogram merged = Latency.borrow(pool);
            long current = Long.MIN_VALUE;
            for (var e : bySec.entrySet()) {
                long start = Math.floorDiv(e.getKey(), (long) bucketSec) * bucketSec;
                if (start != current && current != Long.MIN_VALUE) {
                    out.add(new Bucket(current, current + bucketSec, merged.getTotalCount(),
                            Latency.percentileUs(merged, 99)));
                    merged.reset();
                }
                current = start;
                merged.add(Latency.decompress(e.getValue().serviceUs()));
            }
            if (current != Long.MIN_VALUE) {
                out.add(new Bucket(current, current + bucketSec, merged.getTotalCount(), Latency.percentileUs(merged, 99)));
            }
            Latency.recycle(pool, merged);
            return out;
        }

        /** The service times of the closed seconds in {@code [fromSec, toSec)}, merged into a new histogram. */
        public Histogram serviceBetween(long fromSec, long toSec) {
            Histogram merged = Latency.newHistogram();
            for (var c : bySec.subMap(fromSec, true, toSec, false).values()) {
                merged.add(Latency.decompress(c.serviceUs()));
            }
            return merged;
        }

        /** A closed bucket's figures. */
        public record Bucket(long startSec, long endSec, long count, long p99Us) {
        }
    }

}
