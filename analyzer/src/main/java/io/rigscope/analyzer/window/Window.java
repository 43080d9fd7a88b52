package io.rigscope.analyzer.window;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A tail window: consecutive hot buckets.
 *
 * @param startSec the first bucket's start, epoch seconds
 * @param endSec the last bucket's end, epoch seconds (exclusive)
 * @param buckets how many buckets
 * @param worstP99Us the highest bucket p99 in it, µs
 * @param medianBucketP99Us the repeat's median bucket p99 it was compared with, µs
 */
public record Window(long startSec, long endSec, int buckets, long worstP99Us, double medianBucketP99Us) {

    /** {@code {start, end, buckets, worst_p99_ms, median_bucket_p99_ms}}. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("start", startSec);
        m.put("end", endSec);
        m.put("buckets", buckets);
        m.put("worst_p99_ms", worstP99Us / 1000.0);
        m.put("median_bucket_p99_ms", Math.round(medianBucketP99Us) / 1000.0);
        return m;
    }
}
