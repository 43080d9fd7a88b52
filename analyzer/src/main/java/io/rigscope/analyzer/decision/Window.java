package io.rigscope.analyzer.decision;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A tail window: consecutive hot buckets ({@link WindowRule}).
 *
 * @param startSec the first bucket's start, epoch seconds
 * @param endSec the last bucket's end, epoch seconds (exclusive)
 * @param buckets how many buckets
 * @param worstP99Us the highest bucket p99 in it, µs
 * @param medianBucketP99Us the repeat's median bucket p99 it was compared with, µs
 */
@WireView
@JsonPropertyOrder({"start", "end", "buckets", "worst_p99_ms", "median_bucket_p99_ms"})
public record Window(@JsonProperty("start") long startSec, @JsonProperty("end") long endSec,
                     @JsonProperty("buckets") int buckets, long worstP99Us, double medianBucketP99Us) {

    @JsonProperty("worst_p99_ms")
    double worstP99Ms() {
        return worstP99Us / 1000.0;
    }

    @JsonProperty("median_bucket_p99_ms")
    double medianBucketP99Ms() {
        return Math.round(medianBucketP99Us) / 1000.0;
    }
}
