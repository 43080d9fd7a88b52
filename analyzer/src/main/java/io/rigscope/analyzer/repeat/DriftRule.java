package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.second.Latency;
import io.rigscope.analyzer.second.ScenarioSeconds;
import java.util.Arrays;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.Histogram;

/**
 * The drift rule: with n seconds from a scenario's first closed second to its last, k = n / 3 (rounded down);
 * the first third is {@code [first, first + k)}, the last third {@code [last - k + 1, last]}; drift is the p99
 * service time of the last third over that of the first. Not measurable (null) when k is 0 or either third holds
 * no request. Whether the requests show a drift beyond a bound, rather than a few slow ones falling in the last
 * third by chance, is {@link QuantileTest}'s. Gated by {@link io.rigscope.analyzer.repeat.DriftGate}; noted beside
 * ladder rungs. Pure.
 */
final class DriftRule {

    /** The quantile drift compares. */
    public static final double QUANTILE = 0.99;

    private DriftRule() {
    }

    /** The two thirds of the scenario's closed seconds, or null when drift cannot be measured. */
    public static Thirds thirds(ScenarioSeconds s) {
        if (s == null || s.closed().size() == 0) {
            return null;
        }
        long first = s.closed().first();
        long last = s.closed().last();
        long k = (last - first + 1) / 3;
        if (k == 0) {
            return null;
        }
        Histogram head = s.closed().serviceBetween(first, first + k);
        Histogram tail = s.closed().serviceBetween(last - k + 1, last + 1);
        if (head.getTotalCount() == 0 || tail.getTotalCount() == 0) {
            return null;
        }
        // the test pools both thirds: its p99 is among the slowest 1 % of both, plus one request
        long keep = (long) Math.ceil((1 - QUANTILE) * (head.getTotalCount() + tail.getTotalCount())) + 1;
        return new Thirds(first, first + k, last - k + 1, last + 1, Tail.of(head, keep), Tail.of(tail, keep));
    }

    /** The two thirds: second ranges {@code [start, end)} and the slowest of their requests. */
    public record Thirds(long firstStartSec, long firstEndSec, long lastStartSec, long lastEndSec, Tail first,
                         Tail last) {

        /** The first third's p99, µs. */
        public long firstP99Us() {
            return first.p99Us();
        }

        /** The last third's p99, µs. */
        public long lastP99Us() {
            return last.p99Us();
        }

        /** last / first (infinite when the first third's p99 is 0). */
        public double ratio() {
            return first.p99Us() == 0 ? Double.POSITIVE_INFINITY : (double) last.p99Us() / first.p99Us();
        }

        /** Whether the requests show the last third's p99 above {@code bound} times the first's. */
        public QuantileTest test(double bound) {
            return QuantileTest.of(first, last, bound, QUANTILE);
        }
    }

    /**
     * A third's requests, its p99, and its slowest requests as HdrHistogram reports them (each bucket's highest
     * equivalent value, µs, slowest first, with its count), down to at least {@code keep} requests (whole buckets).
     */
    public record Tail(long count, long p99Us, long[] valuesUs, long[] counts) {

        static Tail of(Histogram h, long keep) {
            long[] values = new long[16];
            long[] counts = new long[16];
            int n = 0;
            // ascending, so the buckets of the slowest requests are those after count - keep
            long skip = h.getTotalCount() - Math.min(keep, h.getTotalCount());
            long seen = 0;
            for (HistogramIterationValue v : h.recordedValues()) {
                seen += v.getCountAtValueIteratedTo();
                if (seen <= skip) {
                    continue;
                }
                if (n == values.length) {
                    values = Arrays.copyOf(values, n * 2);
                    counts = Arrays.copyOf(counts, n * 2);
                }
                values[n] = v.getValueIteratedTo(); // the bucket's highest equivalent value
                counts[n] = v.getCountAtValueIteratedTo();
                n++;
            }
            long[] desc = new long[n];
            long[] descCounts = new long[n];
            for (int i = 0; i < n; i++) {
                desc[i] = values[n - 1 - i];
                descCounts[i] = counts[n - 1 - i];
            }
            return new Tail(h.getTotalCount(), Latency.percentileUs(h, 99), desc, descCounts);
        }
    }
}
