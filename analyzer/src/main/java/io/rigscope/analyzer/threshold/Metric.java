package io.rigscope.analyzer.threshold;

import io.rigscope.analyzer.threshold.ThresholdExpression.Aggregation;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

    /**
     * k6's four metric types and the aggregations a threshold may use on each (the one table of them): trend
     * {@code avg}, {@code min}, {@code med}, {@code max}, {@code p(N)}; rate {@code rate}; counter {@code count},
     * {@code rate}; gauge {@code value}. Rigscope's own {@link Metric}s take theirs from here.
     */
    public enum MetricType {
        TREND(EnumSet.of(Aggregation.Kind.AVG, Aggregation.Kind.MIN, Aggregation.Kind.MED, Aggregation.Kind.MAX,
                Aggregation.Kind.PERCENTILE)),
        RATE(EnumSet.of(Aggregation.Kind.RATE)),
        COUNTER(EnumSet.of(Aggregation.Kind.COUNT, Aggregation.Kind.RATE)),
        GAUGE(EnumSet.of(Aggregation.Kind.VALUE));

        /** k6's built-in metrics and their types, for thresholds on a metric whose Metric line the file lacks. */
        private static final Map<String, MetricType> BUILT_IN = Map.ofEntries(
                Map.entry("http_req_duration", TREND), Map.entry("http_req_blocked", TREND),
                Map.entry("http_req_connecting", TREND), Map.entry("http_req_tls_handshaking", TREND),
                Map.entry("http_req_sending", TREND), Map.entry("http_req_waiting", TREND),
                Map.entry("http_req_receiving", TREND), Map.entry("iteration_duration", TREND),
                Map.entry("http_req_failed", RATE), Map.entry("checks", RATE),
                Map.entry("http_reqs", COUNTER), Map.entry("iterations", COUNTER), Map.entry("data_sent", COUNTER),
                Map.entry("data_received", COUNTER), Map.entry("dropped_iterations", COUNTER),
                Map.entry("vus", GAUGE), Map.entry("vus_max", GAUGE));

        private final Set<Aggregation.Kind> allowed;

        MetricType(Set<Aggregation.Kind> allowed) {
            this.allowed = allowed;
        }

        /** True when k6 allows this aggregation on this type. */
        public boolean allows(Aggregation.Kind kind) {
            return allowed.contains(kind);
        }

        /** The aggregations allowed, as k6 spells them ({@code avg, min, med, max, p(N)}), for error messages. */
        String allowedText() {
            return allowed.stream().map(Aggregation.Kind::k6Text).collect(Collectors.joining(", "));
        }

        /** The type a k6 Metric line names ({@code trend}, {@code rate}, {@code counter}, {@code gauge}). */
        public static Optional<MetricType> of(String k6Type) {
            return Arrays.stream(values()).filter(t -> t.k6Name().equals(k6Type)).findFirst();
        }

        /** The type of a k6 built-in metric. */
        public static Optional<MetricType> builtIn(String metric) {
            return Optional.ofNullable(BUILT_IN.get(metric));
        }

        /** As k6 writes it, e.g. {@code trend}. */
        public String k6Name() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
