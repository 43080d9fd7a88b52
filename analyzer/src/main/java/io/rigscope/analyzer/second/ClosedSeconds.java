package io.rigscope.analyzer.second;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * One scenario's closed seconds in a repeat, each kept as its figures and compressed histograms (a few hundred
 * bytes), and the queries the judge asks of them: every second, one second's histogram, window buckets, the p99
 * of a range. Single-threaded; filled by {@link ScenarioSeconds}.
 */
public final class ClosedSeconds {

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

    /**
     * The requests and p99 service time of the closed seconds in {@code [fromSec, toSec)}, with the requests that
     * bound that p99 at 95 % ({@link QuantileBounds}, 0.025 a side).
     */
    public RangeP99 serviceP99Between(long fromSec, long toSec) {
        Histogram merged = Latency.borrow(pool);
        for (var c : bySec.subMap(fromSec, true, toSec, false).values()) {
            merged.add(Latency.decompress(c.serviceUs()));
        }
        long n = merged.getTotalCount();
        RangeP99 r;
        if (n == 0) {
            r = new RangeP99(0, 0, 0, 0, false);
        } else {
            QuantileBounds b = QuantileBounds.of(n, 0.99, 0.025);
            r = new RangeP99(n, Latency.percentileUs(merged, 99), Latency.percentileUs(merged, b.percentileOf(b.lowRank())),
                    Latency.percentileUs(merged, b.percentileOf(b.highRank())), b.highBounded());
        }
        Latency.recycle(pool, merged);
        return r;
    }

    /** A closed bucket's figures. */
    public record Bucket(long startSec, long endSec, long count, long p99Us) {
    }

    /**
     * Requests and p99 service time of a range of closed seconds, and where the p99 can lie (95 %): at least
     * {@code p99LowUs}, at most {@code p99HighUs} (the slowest request when {@code highBounded} is false: too few
     * requests to bound it).
     */
    public record RangeP99(long count, long p99Us, long p99LowUs, long p99HighUs, boolean highBounded) {
    }
}
