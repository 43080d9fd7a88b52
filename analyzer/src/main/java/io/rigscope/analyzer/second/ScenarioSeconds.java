package io.rigscope.analyzer.second;

import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Sample;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The seconds of one scenario in one repeat: open seconds as histograms, closed seconds as compressed bytes,
 * the repeat's totals, and each generator's ledger.
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
    private final TreeMap<Long, ClosedSecond> closed = new TreeMap<>();
    private final Map<String, GeneratorLedger> ledgers = new TreeMap<>();
    private int expectedGenerators;
    private final Set<Long> touched = new HashSet<>();
    private final Histogram totalServiceUs = Latency.newHistogram();
    /** What the responses said of the service's own time (Server-Timing); empty when none did. */
    private final io.rigscope.analyzer.servertiming.ServerTimingTrack serverTiming =
            new io.rigscope.analyzer.servertiming.ServerTimingTrack();
    private final Histogram totalResponseUs = Latency.newHistogram();
    private long count;
    private long failed;
    private long sumServiceUs;
    private long minServiceUs = Long.MAX_VALUE;
    private long maxServiceUs;
    private long reopened;
    private long late;
    private long firstT0Us = Long.MAX_VALUE;
    private long lastT2Us = Long.MIN_VALUE;
    private long claimedEvents;
    private long claimedQty;
    private final EnumMap<ErrorKind, Long> errorsByKind = new EnumMap<>(ErrorKind.class);
    /** Second -> {scheduled, sent, dropped, completed}, summed over generators (each ledger second once). */
    private final TreeMap<Long, long[]> ledgerBySec = new TreeMap<>();

    private long cachedSec = Long.MIN_VALUE;
    private String cachedGenerator;
    private OpenSecond cachedOpen;
    private long[] cachedSeen;
    private GeneratorLedger cachedLedger;
    private String cachedLedgerOf;

    /**
     * @param scenario the scenario's name
     * @param pool histograms to recycle, shared by the scenarios of one analysis (same thread)
     */
    public ScenarioSeconds(String scenario, ArrayDeque<Histogram> pool) {
        this.scenario = scenario;
        this.pool = pool;
    }

    /** The scenario's name. */
    public String scenario() {
        return scenario;
    }

    /**
     * Records one finished request into its second (cut by {@code t2}) and the totals.
     *
     * @param generator the generator that sent it
     * @param slowUs the slow threshold in force, µs
     */
    /** What this scenario's responses said of the service's own time (Server-Timing). */
    public io.rigscope.analyzer.servertiming.ServerTimingTrack serverTiming() {
        return serverTiming;
    }

    public void record(String generator, Sample s, long slowUs) {
        long sec = Math.floorDiv(s.t2(), 1_000_000L);
        if (!s.serverTiming().isEmpty()) {
            serverTiming.record(s);
        }
        if (!generator.equals(cachedLedgerOf)) {
            cachedLedger = ledgerOf(generator);
            cachedLedgerOf = generator;
        }
        GeneratorLedger source = cachedLedger;
        source.seenTotal++;
        if (source.time != null) {
            boolean isLate = source.time.passed(sec);
            source.time.advance(s.t2());
            if (isLate) {
                recordLate(s);
                return;
            }
        }
        if (sec != cachedSec || !generator.equals(cachedGenerator)) {
            cachedOpen = openSecond(sec);
            cachedSeen = cachedOpen.seenByGenerator.computeIfAbsent(generator, g -> new long[1]);
            cachedSec = sec;
            cachedGenerator = generator;
            touched.add(sec);
        }
        OpenSecond o = cachedOpen;
        cachedSeen[0]++;
        long serviceUs = s.t2() - s.t1();
        long responseUs = s.t2() - s.t0();
        Latency.record(o.serviceUs, serviceUs);
        Latency.record(o.responseUs, responseUs);
        o.count++;
        count++;
        if (s.failed()) {
            o.failed++;
        }
        account(s);
        firstT0Us = Math.min(firstT0Us, s.t0());
        lastT2Us = Math.max(lastT2Us, s.t2());
        if (serviceUs > slowUs) {
            o.slowCount++;
        }
        if (serviceUs > o.maxServiceUs) {
            o.maxServiceUs = serviceUs;
        }
        sumServiceUs += serviceUs;
        if (serviceUs < minServiceUs) {
            minServiceUs = serviceUs;
        }
        if (serviceUs > maxServiceUs) {
            maxServiceUs = serviceUs;
        }
    }

    /** A time-closed source's sample for a second its watermark passed: counted, kept out of every second. */
    private void recordLate(Sample s) {
        late++;
        account(s);
    }

    /**
     * The repeat's totals of one sample, late or not: its failure by kind, and its claim. A request claims its
     * events only when it was answered 2xx and did not fail: a 200 whose check failed claims nothing (the service
     * may have stored none of it, or part of it; reconciliation then shows what it stored).
     */
    private void account(Sample s) {
        if (s.failed()) {
            failed++;
            errorsByKind.merge(s.err(), 1L, Long::sum);
        } else if (s.status() >= 200 && s.status() < 300) {
            claimedEvents += s.batch();
            claimedQty += s.qty();
        }
    }

    /**
     * This scenario's schedule is shared by {@code n} generators: a second is final only once {@code n} generators
     * have been seen on the scenario (and it is final for each), and the data is complete only once all {@code n}
     * have published their last ledger. Without it, the generators seen so far are all there are.
     */
    public void expectGenerators(int n) {
        expectedGenerators = Math.max(expectedGenerators, n);
    }

    /**
     * The source {@code generator} closes its seconds by time ({@link SecondClosing.ByTime}), with this watermark
     * (shared by the repeat's scenarios).
     */
    public void declare(String generator, TimeWatermark watermark) {
        ledgerOf(generator).time = watermark;
    }

    /** Accounts one ledger record of this scenario. Returns the seconds it closed, in order. */
    public List<SecondStats> onLedger(Ledger ledger, FreezeRule rule) {
        GeneratorLedger g = ledgerOf(ledger.src());
        if (g.account(ledger)) {
            long[] sums = ledgerBySec.computeIfAbsent(ledger.sec(), k -> new long[4]);
            sums[0] += ledger.scheduled();
            sums[1] += ledger.sent();
            sums[2] += ledger.dropped();
            sums[3] += ledger.completed();
        }
        ClosedSecond already = closed.get(ledger.sec());
        if (already != null && already.seenByGenerator().getOrDefault(ledger.src(), 0L) >= ledger.completed()) {
            g.pendingCompleted.remove(ledger.sec());
        }
        List<SecondStats> out = new ArrayList<>();
        List<Long> candidates = new ArrayList<>();
        for (long sec : open.keySet()) {
            if (sec <= ledger.sec() || g.last) {
                candidates.add(sec);
            }
        }
        candidates.sort(null);
        for (long sec : candidates) {
            closeIfFinal(sec, rule, out);
        }
        return out;
    }

    /** Closes the seconds touched since the last call that are now final. Returns them, in order. */
    public List<SecondStats> settle(FreezeRule rule) {
        // forget the cache so the next batch marks the seconds it touches again
        cachedSec = Long.MIN_VALUE;
        cachedGenerator = null;
        cachedOpen = null;
        if (touched.isEmpty()) {
            return List.of();
        }
        List<Long> candidates = new ArrayList<>(touched);
        touched.clear();
        candidates.sort(null);
        List<SecondStats> out = new ArrayList<>();
        for (long sec : candidates) {
            closeIfFinal(sec, rule, out);
        }
        return out;
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
            out.add(stats(o, rule, false, secondLedger(sec)));
        }
        return out;
    }

    /**
     * Closes every open second that is now final, in order: after a time-closed source's watermark moved or its
     * stream ended, when any second may have become final, not only those a batch touched.
     */
    public List<SecondStats> settleAll(FreezeRule rule) {
        touched.clear();
        cachedSec = Long.MIN_VALUE;
        cachedGenerator = null;
        cachedOpen = null;
        List<Long> candidates = new ArrayList<>(open.keySet());
        candidates.sort(null);
        List<SecondStats> out = new ArrayList<>();
        for (long sec : candidates) {
            closeIfFinal(sec, rule, out);
        }
        return out;
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

    private void closeIfFinal(long sec, FreezeRule rule, List<SecondStats> out) {
        OpenSecond o = open.get(sec);
        if (o == null || ledgers.size() < expectedGenerators) {
            return;
        }
        for (var e : ledgers.entrySet()) {
            if (!e.getValue().finalFor(scenario, sec, o.seen(e.getKey()))) {
                return;
            }
        }
        out.add(close(sec, rule, true));
    }

    private SecondStats close(long sec, FreezeRule rule, boolean exact) {
        OpenSecond o = open.remove(sec);
        if (o == cachedOpen) {
            cachedSec = Long.MIN_VALUE;
            cachedOpen = null;
            cachedGenerator = null;
        }
        SecondStats stats = stats(o, rule, exact, secondLedger(sec));
        totalServiceUs.add(o.serviceUs);
        totalResponseUs.add(o.responseUs);
        Map<String, Long> seen = new HashMap<>();
        o.seenByGenerator.forEach((g, n) -> seen.put(g, n[0]));
        closed.put(sec, new ClosedSecond(stats, Latency.compress(o.serviceUs), Latency.compress(o.responseUs), seen));
        for (GeneratorLedger g : ledgers.values()) {
            g.pendingCompleted.remove(sec);
        }
        recycle(o.serviceUs);
        recycle(o.responseUs);
        return stats;
    }

    /** The one place the freeze rule is evaluated: when a second's figures are taken. */
    private static SecondStats stats(OpenSecond o, FreezeRule rule, boolean exact, SecondLedger ledger) {
        return new SecondStats(o.sec, o.count, o.failed, o.slowCount, o.maxServiceUs,
                Latency.percentileUs(o.serviceUs, 50), Latency.percentileUs(o.serviceUs, 99),
                Latency.percentileUs(o.responseUs, 99), rule.isFreeze(o.count, o.slowCount, o.maxServiceUs), exact,
                ledger);
    }

    /** The ledger's counts for a second, with what was in flight at its end; NONE when no ledger covers it. */
    private SecondLedger secondLedger(long sec) {
        long[] own = ledgerBySec.get(sec);
        if (own == null) {
            return SecondLedger.NONE;
        }
        long sent = 0;
        long completed = 0;
        for (long[] v : ledgerBySec.headMap(sec, true).values()) {
            sent += v[1];
            completed += v[3];
        }
        return new SecondLedger(own[0], own[1], own[2], own[3], Math.max(0, sent - completed));
    }

    private OpenSecond openSecond(long sec) {
        OpenSecond o = open.get(sec);
        if (o != null) {
            return o;
        }
        o = new OpenSecond(sec, borrow(), borrow());
        ClosedSecond late = closed.remove(sec);
        if (late != null) {
            reopened++;
            Histogram service = Latency.decompress(late.serviceUs());
            Histogram response = Latency.decompress(late.responseUs());
            o.serviceUs.add(service);
            o.responseUs.add(response);
            totalServiceUs.subtract(service);
            totalResponseUs.subtract(response);
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

    private GeneratorLedger ledgerOf(String generator) {
        return ledgers.computeIfAbsent(generator, g -> new GeneratorLedger());
    }

    private Histogram borrow() {
        Histogram h = pool.poll();
        return h == null ? Latency.newHistogram() : h;
    }

    private void recycle(Histogram h) {
        h.reset();
        if (pool.size() < 64) {
            pool.push(h);
        }
    }

    // ---- figures for the judge ----

    /** Closed seconds, in time order. */
    public List<SecondStats> seconds() {
        List<SecondStats> out = new ArrayList<>(closed.size());
        for (ClosedSecond c : closed.values()) {
            out.add(c.stats());
        }
        return out;
    }

    /**
     * The service-time histogram of a closed second, exactly as recorded (what its {@link SecondStats} were taken
     * from), or null when the second is not closed.
     */
    public SecondHistogram serviceHistogram(long sec) {
        ClosedSecond c = closed.get(sec);
        return c == null ? null : new SecondHistogram(c.serviceUs());
    }

    /** Seconds still open. */
    public int openSeconds() {
        return open.size();
    }

    /** Times a closed second was reopened by a late sample. */
    public long reopenedSeconds() {
        return reopened;
    }

    /** Samples of a time-closed source that came after the watermark passed their second (in no figure). */
    public long lateSamples() {
        return late;
    }

    /** Requests recorded. */
    public long count() {
        return count;
    }

    /** Failed requests recorded. */
    public long failed() {
        return failed;
    }

    /** Service time at a percentile over the repeat's closed seconds, µs; 0 when empty. */
    public long serviceAtPercentileUs(double percentile) {
        return Latency.percentileUs(totalServiceUs, percentile);
    }

    /** Adds this scenario's service times over the repeat's closed seconds to {@code into} (to pool scenarios). */
    public void addServiceTo(Histogram into) {
        into.add(totalServiceUs);
    }

    /** Response time ({@code t2 - t0}) at a percentile over the repeat's closed seconds, µs; 0 when empty. */
    public long responseAtPercentileUs(double percentile) {
        return Latency.percentileUs(totalResponseUs, percentile);
    }

    /** Exact mean service time, µs; NaN when empty. */
    public double meanServiceUs() {
        return count == 0 ? Double.NaN : (double) sumServiceUs / count;
    }

    /** Exact least service time, µs; 0 when empty. */
    public long minServiceUs() {
        return count == 0 ? 0 : minServiceUs;
    }

    /** Exact worst service time, µs. */
    public long maxServiceUs() {
        return maxServiceUs;
    }

    /**
     * The p99 service time of each bucket of {@code bucketSec} seconds (buckets start at epoch multiples of
     * it) that holds a closed second, in time order.
     */
    public List<Bucket> buckets(int bucketSec) {
        List<Bucket> out = new ArrayList<>();
        Histogram merged = borrow();
        long current = Long.MIN_VALUE;
        for (var e : closed.entrySet()) {
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
        recycle(merged);
        return out;
    }

    /** The first closed second, epoch seconds; call only when {@link #closedSeconds()} is not 0. */
    public long firstClosedSec() {
        return closed.firstKey();
    }

    /** The last closed second, epoch seconds; call only when {@link #closedSeconds()} is not 0. */
    public long lastClosedSec() {
        return closed.lastKey();
    }

    /** Closed seconds. */
    public int closedSeconds() {
        return closed.size();
    }

    /** The requests and p99 service time of the closed seconds in {@code [fromSec, toSec)}. */
    public RangeP99 serviceP99Between(long fromSec, long toSec) {
        Histogram merged = borrow();
        for (var c : closed.subMap(fromSec, true, toSec, false).values()) {
            merged.add(Latency.decompress(c.serviceUs()));
        }
        RangeP99 r = new RangeP99(merged.getTotalCount(), Latency.percentileUs(merged, 99));
        recycle(merged);
        return r;
    }

    /** The earliest intended start recorded, epoch µs ({@link Long#MAX_VALUE} when empty). */
    public long firstIntendedStartUs() {
        return firstT0Us;
    }

    /** The latest end recorded, epoch µs ({@link Long#MIN_VALUE} when empty). */
    public long lastEndUs() {
        return lastT2Us;
    }

    /**
     * Events in requests answered 2xx that passed their checks (Σ batch size of the 2xx samples that did not fail):
     * what the load claims the database stored.
     */
    public long claimedEvents() {
        return claimedEvents;
    }

    /** Failed requests by error kind, in {@link ErrorKind} order, only kinds seen (late samples included). */
    public Map<ErrorKind, Long> errorsByKind() {
        return java.util.Collections.unmodifiableMap(new EnumMap<>(errorsByKind));
    }

    /** Σ quantity sent in requests answered 2xx that passed their checks. */
    public long claimedQty() {
        return claimedQty;
    }

    /** Ledger totals over the generators: scheduled, sent, dropped, completed. */
    public long[] ledgerTotals() {
        long[] t = new long[4];
        for (GeneratorLedger g : ledgers.values()) {
            t[0] += g.scheduled;
            t[1] += g.sent;
            t[2] += g.dropped;
            t[3] += g.completed;
        }
        return t;
    }

    /**
     * True when this scenario's data is all in: every generator seen on it has published its last ledger, every
     * request a ledger counted has arrived, and no second is open.
     */
    public boolean complete() {
        if (ledgers.isEmpty() || ledgers.size() < expectedGenerators || !open.isEmpty()) {
            return false;
        }
        for (GeneratorLedger g : ledgers.values()) {
            if (!g.complete(scenario)) {
                return false;
            }
        }
        return true;
    }

    /** Generators seen on this scenario. */
    public Collection<String> generators() {
        return ledgers.keySet();
    }

    /** A closed bucket's figures. */
    public record Bucket(long startSec, long endSec, long count, long p99Us) {
    }

    /** Requests and p99 service time of a range of closed seconds. */
    public record RangeP99(long count, long p99Us) {
    }

    /** One generator's ledger for this scenario, or its time watermark when it declared one. */
    private static final class GeneratorLedger {
        /** The source's time watermark when its seconds close by time, else null (by the ledger). */
        TimeWatermark time;
        /** Samples seen from it on this scenario, late ones included. */
        long seenTotal;
        /** Second -> completed, for seconds not yet closed whose ledger counted a request. */
        final HashMap<Long, Long> pendingCompleted = new HashMap<>();
        long maxSec = Long.MIN_VALUE;
        boolean last;
        long scheduled;
        long sent;
        long dropped;
        long completed;
        /** Ledger seconds already accounted, so a replayed duplicate is not counted twice. */
        final Set<Long> accounted = new HashSet<>();

        /** Accounts a ledger record; true when its second was new for this generator (false: a duplicate). */
        boolean account(Ledger l) {
            // a time-closed source's ledger records are counts (its drops), each adding; never the watermark
            boolean fresh = accounted.add(l.sec()) || time != null;
            if (fresh) {
                scheduled += l.scheduled();
                sent += l.sent();
                dropped += l.dropped();
                completed += l.completed();
                if (l.completed() > 0 && time == null) {
                    pendingCompleted.put(l.sec(), l.completed());
                }
            }
            maxSec = Math.max(maxSec, l.sec());
            last |= l.last();
            return fresh;
        }

        boolean finalFor(String scenario, long sec, long seen) {
            if (time != null) {
                return time.passed(sec) || time.allSeen(scenario, seenTotal);
            }
            Long expected = pendingCompleted.get(sec);
            if (expected != null) {
                return seen >= expected;
            }
            return last || maxSec >= sec;
        }

        /** Every sample of this scenario it will send has arrived, and every second it counted. */
        boolean complete(String scenario) {
            if (time != null) {
                return time.allSeen(scenario, seenTotal);
            }
            return last && pendingCompleted.isEmpty();
        }
    }
}
