package io.rigscope.generator.plan;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One stream of requests with its own rate, cap and body. Samples carry the scenario's name, so two
 * scenarios (ingest and a read probe) are never pooled.
 *
 * @param name unique within the plan; letters, digits, {@code -_.}
 * @param method HTTP method, upper case
 * @param url absolute http URL
 * @param headers extra request headers (e.g. {@code Authorization: Bearer KEY}); may be empty
 * @param requestsPerSec open loop: the arrival rate; ignored in closed loop
 * @param maxInFlight open loop: the concurrency cap (k6 maxVUs) and the connection pool size; closed loop:
 *                    the number of workers
 * @param timeout a request still unanswered after this long ends as a {@code timeout} error
 * @param body the body template, or null for a request without a body (a GET probe)
 */
public record Scenario(String name, String method, URI url, Map<String, String> headers, double requestsPerSec,
                       int maxInFlight, Duration timeout, BodyTemplate body) {

    private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD");

    public Scenario {
        if (name == null || !name.matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException("scenario name '" + name + "' must be letters, digits, - _ or .");
        }
        method = Objects.requireNonNull(method, "scenario " + name + ": method").toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw new IllegalArgumentException("scenario " + name + ": method '" + method + "' is not one of " + METHODS);
        }
        Objects.requireNonNull(url, "scenario " + name + ": url");
        if (!"http".equals(url.getScheme()) || url.getHost() == null) {
            throw new IllegalArgumentException("scenario " + name + ": url '" + url + "' is not an absolute http:// URL");
        }
        headers = Map.copyOf(headers == null ? Map.of() : headers);
        if (!(requestsPerSec > 0) || Double.isInfinite(requestsPerSec)) {
            throw new IllegalArgumentException("scenario " + name + ": rate must be > 0 requests/s, was " + requestsPerSec);
        }
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("scenario " + name + ": max in-flight must be >= 1, was " + maxInFlight);
        }
        Objects.requireNonNull(timeout, "scenario " + name + ": timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("scenario " + name + ": timeout must be > 0, was " + timeout);
        }
    }

    /** Requests per second for a rate given in events per second: {@code eventsPerSec / batch}. */
    public static double requestsPerSecForEvents(double eventsPerSec, int batch) {
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be >= 1, was " + batch);
        }
        return eventsPerSec / batch;
    }

    /** Events per request: the body's batch, 0 without a body. */
    public int batch() {
        return body == null ? 0 : body.batch();
    }

    /** The scenario as plain config data (for the CONFIG marker). Header values are masked. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("method", method);
        m.put("url", url.toString());
        Map<String, String> masked = new LinkedHashMap<>();
        headers.forEach((k, v) -> masked.put(k, k.equalsIgnoreCase("authorization") ? "***" : v));
        m.put("headers", masked);
        m.put("rate_per_sec", requestsPerSec);
        m.put("events_per_sec", requestsPerSec * batch());
        m.put("max_in_flight", maxInFlight);
        m.put("timeout_ms", timeout.toMillis());
        m.put("body", body == null ? null : body.toMap());
        return m;
    }
}
