package io.rigscope.analyzer.threshold;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * k6's four metric types and the aggregation methods a threshold may use on each: trend {@code avg}, {@code min},
 * {@code med}, {@code max}, {@code p(N)}; rate {@code rate}; counter {@code count}, {@code rate}; gauge
 * {@code value}.
 */
public enum K6MetricType {
    TREND(Set.of("avg", "min", "med", "max", "p")),
    RATE(Set.of("rate")),
    COUNTER(Set.of("count", "rate")),
    GAUGE(Set.of("value"));

    /** k6's built-in metrics and their types, for thresholds on a metric whose Metric line the file lacks. */
    private static final Map<String, K6MetricType> BUILT_IN = Map.ofEntries(
            Map.entry("http_req_duration", TREND), Map.entry("http_req_blocked", TREND),
            Map.entry("http_req_connecting", TREND), Map.entry("http_req_tls_handshaking", TREND),
            Map.entry("http_req_sending", TREND), Map.entry("http_req_waiting", TREND),
            Map.entry("http_req_receiving", TREND), Map.entry("iteration_duration", TREND),
            Map.entry("http_req_failed", RATE), Map.entry("checks", RATE),
            Map.entry("http_reqs", COUNTER), Map.entry("iterations", COUNTER), Map.entry("data_sent", COUNTER),
            Map.entry("data_received", COUNTER), Map.entry("dropped_iterations", COUNTER),
            Map.entry("vus", GAUGE), Map.entry("vus_max", GAUGE));

    private final Set<String> methods;

    K6MetricType(Set<String> methods) {
        this.methods = methods;
    }

    /** True when k6 allows this aggregation method ({@code p} for {@code p(N)}) on this type. */
    public boolean allows(String method) {
        return methods.contains(method);
    }

    /** The type a Metric line names ({@code trend}, {@code rate}, {@code counter}, {@code gauge}). */
    public static Optional<K6MetricType> of(String k6Type) {
        return switch (k6Type == null ? "" : k6Type) {
            case "trend" -> Optional.of(TREND);
            case "rate" -> Optional.of(RATE);
            case "counter" -> Optional.of(COUNTER);
            case "gauge" -> Optional.of(GAUGE);
            default -> Optional.empty();
        };
    }

    /** The type of a k6 built-in metric. */
    public static Optional<K6MetricType> builtIn(String metric) {
        return Optional.ofNullable(BUILT_IN.get(metric));
    }

    /** As k6 writes it. */
    public String k6Name() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
