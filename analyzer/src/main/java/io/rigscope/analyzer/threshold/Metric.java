package io.rigscope.analyzer.threshold;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The k6 metrics a threshold may name, with the aggregations k6 allows on each.
 *
 * <p>{@code http_req_duration} is the service time {@code t2 - t1} in milliseconds; {@code http_req_failed}
 * is the fraction of requests that failed; {@code http_reqs} and {@code dropped_iterations} are counters
 * ({@code count} is the total, {@code rate} is per second of the repeat).
 */
public enum Metric {
    HTTP_REQ_DURATION("http_req_duration", EnumSet.of(Aggregation.Kind.AVG, Aggregation.Kind.MIN,
            Aggregation.Kind.MED, Aggregation.Kind.MAX, Aggregation.Kind.PERCENTILE)),
    HTTP_REQ_FAILED("http_req_failed", EnumSet.of(Aggregation.Kind.RATE)),
    HTTP_REQS("http_reqs", EnumSet.of(Aggregation.Kind.COUNT, Aggregation.Kind.RATE)),
    DROPPED_ITERATIONS("dropped_iterations", EnumSet.of(Aggregation.Kind.COUNT, Aggregation.Kind.RATE));

    private final String k6Name;
    private final Set<Aggregation.Kind> allowed;

    Metric(String k6Name, Set<Aggregation.Kind> allowed) {
        this.k6Name = k6Name;
        this.allowed = allowed;
    }

    /** The metric's name in k6, e.g. {@code http_req_duration}. */
    public String k6Name() {
        return k6Name;
    }

    /** True when k6 allows this aggregation on this metric. */
    public boolean allows(Aggregation.Kind kind) {
        return allowed.contains(kind);
    }

    /** The aggregations allowed, as k6 spells them, for error messages. */
    String allowedText() {
        return allowed.stream().map(Aggregation.Kind::k6Text).collect(Collectors.joining(", "));
    }

    /** The metric of this k6 name. */
    public static Optional<Metric> byK6Name(String name) {
        return Arrays.stream(values()).filter(m -> m.k6Name.equals(name)).findFirst();
    }

    static String names() {
        return Arrays.stream(values()).map(Metric::k6Name).collect(Collectors.joining(", "));
    }
}
