package io.rigscope.benchmarks.peers;

import io.rigscope.benchmarks.generator.TimerJitter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One measured step of one tool.
 *
 * @param rate the rate asked for, requests/s
 * @param length the step's length
 * @param count requests the server counted in the step
 * @param firstNanos the first one's arrival (the server's nanoTime)
 * @param lastNanos the last one's
 * @param cpuNanos the tool process's CPU from the step command to its 'ended'
 * @param serverCpuNanos the server process's CPU over the same span
 * @param sleeps times the tool's threads went to sleep over the same span (a wait that found nothing ready; each is
 *     a wake-up paid in the kernel), or -1 when unknown
 * @param tool the tool's own figures (its 'result' line)
 * @param tolerance the tolerance of "holds"
 * @param hostJitter a thread of the bench's own JVM sleeping to a 1 ms schedule during the step: how late it woke
 *     (the host's contention while the tool and the server ran), or null when not measured
 */
record PeerStep(double rate, Duration length, long count, long firstNanos, long lastNanos, long cpuNanos,
            long serverCpuNanos, long sleeps, Map<String, String> tool, double tolerance, TimerJitter hostJitter) {

    PeerStep {
        tool = Map.copyOf(tool);
    }

    /** {@code rate × length}: the requests the step should bring. */
    double expected() {
        return rate * length.toNanos() / 1e9;
    }

    /** The rate the server counted: {@code (count - 1) / (last - first)}; 0 with fewer than two arrivals. */
    double serverRate() {
        return count < 2 || lastNanos <= firstNanos ? 0 : (count - 1) * 1e9 / (lastNanos - firstNanos);
    }

    long errors() {
        return Long.parseLong(tool.getOrDefault("errors", "0"));
    }

    long dropped() {
        return Long.parseLong(tool.getOrDefault("dropped", "0"));
    }

    boolean capped() {
        return Boolean.parseBoolean(tool.getOrDefault("capped", "false"));
    }

    /**
     * Held: the server counted {@code rate × length} within the tolerance, at {@code rate} within the tolerance
     * between the first and the last arrival, and the tool reports no error, no drop and no cap hit.
     */
    boolean held() {
        return errors() == 0 && dropped() == 0 && !capped()
                && Math.abs(count - expected()) <= tolerance * expected()
                && Math.abs(serverRate() - rate) <= tolerance * rate;
    }

    /** Why the step did not hold, in a few words: {@code "30000 req/s: 348 dropped"}; null when it held. */
    String why() {
        if (held()) {
            return null;
        }
        List<String> r = new java.util.ArrayList<>();
        if (errors() > 0) {
            r.add(errors() + " errors");
        }
        if (dropped() > 0) {
            r.add(dropped() + " dropped");
        }
        if (capped() && dropped() == 0) {
            r.add("its concurrency cap hit");
        }
        if (Math.abs(count - expected()) > tolerance * expected()) {
            r.add(String.format(Locale.ROOT, "server counted %d of %d", count, Math.round(expected())));
        }
        if (Math.abs(serverRate() - rate) > tolerance * rate) {
            r.add(String.format(Locale.ROOT, "at %.0f req/s", serverRate()));
        }
        return String.format(Locale.ROOT, "%.0f req/s: %s", rate, String.join(", ", r));
    }

    double cpuUsPerRequest() {
        return count == 0 ? Double.NaN : cpuNanos / 1000.0 / count;
    }

    /** The tool's sleeps per request the server counted; NaN when unknown. */
    double sleepsPerRequest() {
        return count == 0 || sleeps < 0 ? Double.NaN : (double) sleeps / count;
    }

    /** {@link #sleepsPerRequest()} as the JSON carries it: 3 decimals, null when unknown. */
    Double sleepsPerRequestFigure() {
        double v = sleepsPerRequest();
        return Double.isNaN(v) ? null : PeerBench.round(v, 3);
    }

    /** The tool's own latency figures, where it has them. */
    Map<String, Object> latency() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String key : List.of("latency", "p50_ms", "p99_ms", "max_ms", "lag_p50_ms", "lag_p99_ms", "lag_max_ms")) {
            String v = tool.get(key);
            if (v != null) {
                m.put(key.equals("latency") ? "measures" : key, key.equals("latency") ? v : number(v));
            }
        }
        return m;
    }

    private static Object number(String v) {
        try {
            return PeerBench.round(Double.parseDouble(v), 3);
        } catch (NumberFormatException e) {
            return v;
        }
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rate_per_s", rate);
        m.put("server_counted", count);
        m.put("expected", Math.round(expected()));
        m.put("server_rate_per_s", PeerBench.round(serverRate(), 1));
        m.put("offered_error_pct", PeerBench.round(100 * (serverRate() - rate) / rate, 3));
        m.put("errors", errors());
        m.put("dropped", dropped());
        m.put("capped", capped());
        m.put("holds", held());
        m.put("cpu_us_per_request", PeerBench.round(cpuUsPerRequest(), 2));
        m.put("server_cpu_us_per_request", count == 0 ? null : PeerBench.round(serverCpuNanos / 1000.0 / count, 2));
        m.put("sleeps_per_request", sleepsPerRequestFigure());
        m.put("latency", latency());
        // rigscope's: the client loops and in-flight cap this step ran with (its defaults row: generate's at this rate)
        for (String key : List.of("client_loops", "max_in_flight")) {
            String v = tool.get(key);
            if (v != null) {
                m.put(key, v.matches("\\d+") ? (Object) Long.parseLong(v) : v);
            }
        }
        if (hostJitter != null) {
            m.put("host_jitter_during_step", hostJitter.toMap());
        }
        return m;
    }

    /** The live progress line. */
    String line(String name, int n, int of) {
        String p99 = tool.containsKey("p99_ms") ? String.format(Locale.ROOT, ", its p99 %s ms", tool.get("p99_ms")) : "";
        String lag = tool.containsKey("lag_p99_ms") ? String.format(Locale.ROOT, ", send lag p99 %s ms", tool.get("lag_p99_ms")) : "";
        double sleepsPerRequest = sleepsPerRequest();
        String sleepsText = Double.isNaN(sleepsPerRequest) ? "sleeps unknown"
                : String.format(Locale.ROOT, "%.2f sleeps/req", sleepsPerRequest);
        return String.format(Locale.ROOT, "bench: %-18s step %d/%d %6.0f req/s: server counted %d of %d (%.0f req/s, "
                        + "%+.2f %%), errors %d, dropped %d%s, CPU %.2f µs/req, %s%s%s: %s",
                name, n, of, rate, count, Math.round(expected()), serverRate(), 100 * (serverRate() - rate) / rate,
                errors(), dropped(), capped() ? ", cap hit" : "", cpuUsPerRequest(), sleepsText, p99, lag,
                held() ? "holds" : "does not hold");
    }
}
