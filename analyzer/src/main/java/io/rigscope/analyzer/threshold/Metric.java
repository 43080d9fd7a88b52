package io.rigscope.analyzer.threshold;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The k6 metrics a rigscope threshold may name (those the analyzer measures live), each with its k6
 * {@link MetricType}: the aggregations k6 allows on it.
 *
 * <p>{@code http_req_duration} is the service time {@code t2 - t1} in milliseconds; {@code http_req_failed}
 * is the fraction of requests that failed; {@code http_reqs} and {@code dropped_iterations} are counters
 * ({@code count} is the total, {@code rate} is per second of the repeat).
 */
public enum Metric {
    HTTP_REQ_DURATION("http_req_duration", MetricType.TREND),
    HTTP_REQ_FAILED("http_req_failed", MetricType.RATE),
    HTTP_REQS("http_reqs", MetricType.COUNTER),
    DROPPED_ITERATIONS("dropped_iterations", MetricType.COUNTER);

    private final String k6Name;
    private final MetricType type;

    Metric(String k6Name, MetricType type) {
        this.k6Name = k6Name;
        this.type = type;
    }

    /** The metric's name in k6, e.g. {@code http_req_duration}. */
    public String k6Name() {
        return k6Name;
    }

    /** Its k6 type. */
    public MetricType type() {
        return type;
    }

    /** True when k6 allows this aggregation on this metric. */
    public boolean allows(Aggregation.Kind kind) {
        return type.allows(kind);
    }

    /** The metric of this k6 name. */
    public static Optional<Metric> byK6Name(String name) {
        return Arrays.stream(values()).filter(m -> m.k6Name.equals(name)).findFirst();
    }

    static String names() {
        return Arrays.stream(values()).map(Metric::k6Name).collect(Collectors.joining(", "));
    }
}
