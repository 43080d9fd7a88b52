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
