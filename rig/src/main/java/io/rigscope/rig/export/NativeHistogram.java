package io.rigscope.rig.export;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * One closed second's service times as a Prometheus native histogram (seconds, integer counts): exponential
 * buckets of schema {@value #SCHEMA}, each bucket {@code i} holding the values in {@code (2^((i-1)/128), 2^(i/128)]}
 * seconds, so neighbouring boundaries are 0.543 % apart. {@code histogram_quantile} interpolates inside the bucket
 * holding the rank, anywhere between its bounds, so its answer is within one bucket, 0.543 %, of the exact
 * quantile; schema 6 (1.09 % buckets) could miss 1 % by interpolating to the far end of a bucket, and did (1.054 %
 * on the recorded {@code demo-quick-server-timing} series).
 *
 * <p>Derived from the analyzer's own HdrHistogram of the second ({@code SecondHistogram}, µs, 3 significant
 * digits): each HdrHistogram bucket's count goes to the native bucket holding that bucket's highest equivalent
 * value, the value HdrHistogram reports as a percentile, so rigscope's p99 and the native histogram's p99 bucket
 * are the same bucket. The count is exact; the sum is HdrHistogram's mean times the count (within its 0.1 %).
 *
 * @param count observations
 * @param sumSec their sum, seconds
 * @param zeroCount observations of 0 µs (the zero bucket, threshold 0)
 * @param spanOffsets per span, the gap to the previous span (the first: its absolute bucket index)
 * @param spanLengths per span, its number of consecutive buckets
 * @param deltas per bucket, in index order, its count minus the previous bucket's (the first: minus 0)
 */
record NativeHistogram(long count, double sumSec, long zeroCount, int[] spanOffsets, int[] spanLengths,
                       long[] deltas) {

    /** Buckets per power of two: 2^7 = 128. */
    static final int SCHEMA = 7;

    private static final double BUCKETS_PER_OCTAVE = 1 << SCHEMA;

    /** The native histogram of {@code hdrMicros} (values in µs). */
    static NativeHistogram ofMicros(Histogram hdrMicros) {
        TreeMap<Integer, Long> buckets = new TreeMap<>();
        long zero = 0;
        for (HistogramIterationValue v : hdrMicros.recordedValues()) {
            long valueUs = v.getValueIteratedTo();
            long n = v.getCountAtValueIteratedTo();
            if (valueUs <= 0) {
                zero += n;
            } else {
                buckets.merge(index(valueUs / 1e6), n, Long::sum);
            }
        }
        List<int[]> spans = new ArrayList<>();
        long[] deltas = new long[buckets.size()];
        int previousIndex = 0;
        long previousCount = 0;
        int i = 0;
        for (var e : buckets.entrySet()) {
            int index = e.getKey();
            if (i == 0) {
                spans.add(new int[] {index, 1});
            } else if (index == previousIndex + 1) {
                spans.get(spans.size() - 1)[1]++;
            } else {
                spans.add(new int[] {index - previousIndex - 1, 1});
            }
            deltas[i++] = e.getValue() - previousCount;
            previousIndex = index;
            previousCount = e.getValue();
        }
        long count = hdrMicros.getTotalCount();
        double sumSec = count == 0 ? 0 : hdrMicros.getMean() * count / 1e6;
        return new NativeHistogram(count, sumSec, zero, spans.stream().mapToInt(s -> s[0]).toArray(),
                spans.stream().mapToInt(s -> s[1]).toArray(), deltas);
    }

    /** The bucket holding {@code valueSec} (> 0): the {@code i} with {@code 2^((i-1)/128) < v <= 2^(i/128)}. */
    static int index(double valueSec) {
        int i = (int) Math.ceil(Math.log(valueSec) / Math.log(2) * BUCKETS_PER_OCTAVE);
        while (upperBound(i - 1) >= valueSec) {
            i--;
        }
        while (upperBound(i) < valueSec) {
            i++;
        }
        return i;
    }

    /** Bucket {@code i}'s upper bound, seconds (inclusive). */
    static double upperBound(int i) {
        return Math.pow(2, i / BUCKETS_PER_OCTAVE);
    }

    /** The Prometheus remote-write {@code Histogram} message (prompb/types.proto field numbers). */
    ProtoWriter encode(long timestampMs) {
        ProtoWriter h = new ProtoWriter();
        h.uint64(1, count);                 // count_int
        h.doubleField(3, sumSec);           // sum
        h.sint32(4, SCHEMA);                // schema
        h.doubleField(5, 0);                // zero_threshold
        h.uint64(6, zeroCount);             // zero_count_int
        for (int s = 0; s < spanOffsets.length; s++) {
            h.message(11, new ProtoWriter().sint32(1, spanOffsets[s]).uint64(2, spanLengths[s])); // positive_spans
        }
        if (deltas.length > 0) {
            h.packedSint64(12, deltas);     // positive_deltas
        }
        h.uint64(14, 3);                    // reset_hint = GAUGE: each sample is one second's own distribution
        h.int64(15, timestampMs);           // timestamp
        return h;
    }
}
