package io.rigscope.generator.plan;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One stream of requests with its own rate, cap and body. Samples carry the scenario's name, so two
 * scenarios (ingest and a read probe) are never pooled.
 *
 * @param name unique within the plan; letters, digits, {@code -_.}
 * @param method HTTP method, upper case
 * @param url absolute http URL
 * @param headers extra request headers (e.g. {@code Authorization: Bearer KEY}), as written: a value may hold
 *                {@code ${env:NAME}} (e.g. {@code Bearer ${env:API_TOKEN}}), resolved in {@link #sendHeaders()}
 *                and nowhere else, so that a secret kept in the environment never reaches a record, a log or a
 *                report (and {@code Authorization} is masked in {@link #toMap()} all the same); may be empty
 * @param requestsPerSec open loop: the arrival rate; ignored in closed loop
 * @param maxInFlight open loop: the concurrency cap (k6 maxVUs) and the connection pool size; closed loop:
 *                    the number of workers
 * @param timeout a request still unanswered after this long ends as a {@code timeout} error
 * @param body the body template, or null for a request without a body (a GET probe)
 * @param check what a response must be to pass, or null: the status decides (2xx and 3xx pass, 4xx and 5xx fail
 *              as {@code 4xx}/{@code 5xx})
 */
public record Scenario(String name, String method, URI url, Map<String, String> headers, double requestsPerSec,
                       int maxInFlight, Duration timeout, BodyTemplate body, ResponseCheck check) {

    private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD");
    private static final Pattern ENV = Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");

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
        resolve(name, headers); // an unset variable fails here, when the config is read
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

    /** A scenario whose status decides (no response check). */
    public Scenario(String name, String method, URI url, Map<String, String> headers, double requestsPerSec,
                    int maxInFlight, Duration timeout, BodyTemplate body) {
        this(name, method, url, headers, requestsPerSec, maxInFlight, timeout, body, null);
    }

    /**
     * The headers as sent: {@link #headers()} with every {@code ${env:NAME}} replaced by the variable's value (the
     * values were checked when the scenario was built; a JVM's environment does not change). Never log these.
     */
    public Map<String, String> sendHeaders() {
        return resolve(name, headers);
    }

    private static Map<String, String> resolve(String scenario, Map<String, String> headers) {
        Map<String, String> out = new LinkedHashMap<>();
        headers.forEach((header, value) -> {
            Matcher m = ENV.matcher(value);
            StringBuilder b = new StringBuilder();
            while (m.find()) {
                String variable = m.group(1);
                String v = System.getenv(variable);
                if (v == null) {
                    throw new IllegalArgumentException("scenario " + scenario + ": header " + header + ": ${env:"
                            + variable + "}: environment variable " + variable + " is not set");
                }
                if (v.indexOf('\r') >= 0 || v.indexOf('\n') >= 0) {
                    throw new IllegalArgumentException("scenario " + scenario + ": header " + header + ": ${env:"
                            + variable + "}: environment variable " + variable + " holds a line break");
                }
                m.appendReplacement(b, Matcher.quoteReplacement(v));
            }
            m.appendTail(b);
            out.put(header, b.toString());
        });
        return Map.copyOf(out);
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

    /**
     * The scenario as plain config data (for the CONFIG marker). Headers as written (an {@code ${env:NAME}} stays
     * a template), {@code Authorization}'s value masked.
     */
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
        m.put("check", check == null ? null : check.toMap());
        return m;
    }
}
