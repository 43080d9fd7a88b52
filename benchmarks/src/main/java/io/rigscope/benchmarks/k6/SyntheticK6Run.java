package io.rigscope.benchmarks.k6;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * Writes a k6 {@code --out json} file shaped as k6 writes one for an HTTP test (the bench's input): per request
 * the points k6 emits (http_reqs, http_req_duration, the five http_req_* phases, http_req_failed), per iteration
 * checks, data_sent, data_received, iteration_duration and iterations, vus and vus_max each second; each metric's
 * Metric line before its first point; point lines name their metric first, as k6 does; times with a local offset
 * (+02:00), nanosecond precision. Two scenarios: {@code ingest} (19 of 20 requests, POST 201) and {@code probe}
 * (GET 200). Thresholds on http_req_duration, http_req_failed and checks. Deterministic for a given request count.
 */
public final class SyntheticK6Run {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSSXXX",
            Locale.ROOT);
    private static final ZoneOffset ZONE = ZoneOffset.ofHours(2);
    /** Every synthetic run starts here: 2024-03-05T12:00:00+02:00. */
    private static final long START_NS = Instant.parse("2024-03-05T10:00:00Z").getEpochSecond() * 1_000_000_000L;
    private static final String[] PHASES = {"http_req_blocked", "http_req_connecting", "http_req_tls_handshaking",
        "http_req_sending", "http_req_waiting", "http_req_receiving"};

    private SyntheticK6Run() {
    }

    /**
     * Writes {@code requests} requests at 1,000 requests/s from 2024-03-05T12:00:00+02:00.
     *
     * @return the lines written
     */
    public static long write(Path file, long requests) throws IOException {
        Random random = new Random(42);
        Set<String> declared = new HashSet<>();
        long lines = 0;
        long startNs = START_NS;
        try (BufferedWriter w = writer(file)) {
            long lastSec = -1;
            for (long i = 0; i < requests; i++) {
                long endNs = startNs + i * 1_000_000L + random.nextInt(900_000);
                long sec = (endNs - startNs) / 1_000_000_000L;
                if (sec != lastSec) {
                    lastSec = sec;
                    String t = time(startNs + sec * 1_000_000_000L);
                    lines += point(w, declared, "vus", "gauge", "", t, "20", "{}");
                    lines += point(w, declared, "vus_max", "gauge", "", t, "20", "{}");
                }
                boolean probe = i % 20 == 19;
                boolean slow = random.nextInt(1000) == 0;
                double ms = (probe ? 3.0 : 1.5) + random.nextDouble() * 4 + (slow ? 200 : 0);
                String status = probe ? "200" : "201";
                String tags = "{\"expected_response\":\"true\",\"group\":\"\",\"method\":\"" + (probe ? "GET" : "POST")
                        + "\",\"name\":\"http://127.0.0.1:8080/" + (probe ? "aggregate" : "events")
                        + "\",\"proto\":\"HTTP/1.1\",\"scenario\":\"" + (probe ? "probe" : "ingest")
                        + "\",\"status\":\"" + status + "\",\"url\":\"http://127.0.0.1:8080/"
                        + (probe ? "aggregate" : "events") + "\"}";
                String t = time(endNs);
                lines += point(w, declared, "http_reqs", "counter", "", t, "1", tags);
                lines += point(w, declared, "http_req_duration", "trend", "\"p(95)<200\",\"p(99.9)<500\"", t,
                        num(ms), tags);
                for (String phase : PHASES) {
                    double v = phase.equals("http_req_waiting") ? ms * 0.9 : phase.endsWith("ing") ? ms * 0.02 : 0;
                    lines += point(w, declared, phase, "trend", "", t, num(v), tags);
                }
                lines += point(w, declared, "http_req_failed", "rate", "\"rate<0.01\"", t, "0", tags);
                String iterTags = "{\"group\":\"\",\"scenario\":\"" + (probe ? "probe" : "ingest") + "\"}";
                lines += point(w, declared, "checks", "rate", "\"rate>0.99\"", t, "1",
                        "{\"check\":\"status is 2xx\",\"group\":\"\",\"scenario\":\"" + (probe ? "probe" : "ingest")
                                + "\"}");
                lines += point(w, declared, "data_sent", "counter", "", t, probe ? "96" : "412", iterTags);
                lines += point(w, declared, "data_received", "counter", "", t, probe ? "310" : "188", iterTags);
                lines += point(w, declared, "iteration_duration", "trend", "", t, num(ms + 0.1), iterTags);
                lines += point(w, declared, "iterations", "counter", "", t, "1", iterTags);
            }
        }
        return lines;
    }

    /**
     * Writes {@code requests} requests at 1,000 requests/s from 2024-03-05T12:00:00+02:00 where every line is a point
     * the reader reads: per request an {@code http_reqs} and an {@code http_req_duration} point (the metric named
     * first), each metric's Metric line before its first point (thresholds {@code p(95)<200} and
     * {@code p(99.9)<500} on http_req_duration). Tags as k6 writes them for an HTTPS request, keys in order:
     * expected_response, group, method, name, proto, scenario, status, tls_version, url. Times as k6 writes them
     * (RFC 3339 with nanoseconds, trailing zeros dropped, +02:00), durations in ms to the nanosecond. Two scenarios:
     * {@code ingest} (19 of 20 requests, POST 201) and {@code probe} (GET 200). Deterministic.
     *
     * @return the lines written ({@code 2 x requests + 2})
     */
    public static long writeRequestPoints(Path file, long requests) throws IOException {
        Random random = new Random(42);
        Set<String> declared = new HashSet<>();
        long lines = 0;
        long startNs = START_NS;
        try (BufferedWriter w = writer(file)) {
            for (long i = 0; i < requests; i++) {
                long endNs = startNs + i * 1_000_000L + random.nextInt(900_000);
                boolean probe = i % 20 == 19;
                long durationNs = (probe ? 3_000_000L : 1_500_000L) + random.nextInt(4_000_000)
                        + (random.nextInt(1000) == 0 ? 200_000_000L : 0);
                String path = probe ? "aggregate" : "events";
                String tags = "{\"expected_response\":\"true\",\"group\":\"\",\"method\":\""
                        + (probe ? "GET" : "POST") + "\",\"name\":\"https://127.0.0.1:8443/" + path
                        + "\",\"proto\":\"HTTP/2.0\",\"scenario\":\"" + (probe ? "probe" : "ingest")
                        + "\",\"status\":\"" + (probe ? "200" : "201")
                        + "\",\"tls_version\":\"tls1.3\",\"url\":\"https://127.0.0.1:8443/" + path + "\"}";
                String t = timeAsK6(endNs);
                lines += point(w, declared, "http_req_duration", "trend", "\"p(95)<200\",\"p(99.9)<500\"", t,
                        msAsK6(durationNs), tags);
                lines += point(w, declared, "http_reqs", "counter", "", t, "1", tags);
            }
        }
        return lines;
    }

    /** RFC 3339 with nanoseconds and the +02:00 offset, trailing zeros of the fraction dropped (Go's RFC3339Nano). */
    private static String timeAsK6(long epochNs) {
        String full = time(epochNs); // yyyy-MM-ddTHH:mm:ss.nnnnnnnnn+02:00
        int dot = full.indexOf('.');
        int zone = full.indexOf('+', dot);
        String fraction = full.substring(dot + 1, zone).replaceAll("0+$", "");
        return full.substring(0, dot) + (fraction.isEmpty() ? "" : "." + fraction) + full.substring(zone);
    }

    /** Nanoseconds as milliseconds, shortest decimal (k6 writes durations as float ms). */
    private static String msAsK6(long ns) {
        String fraction = String.format(Locale.ROOT, "%06d", ns % 1_000_000L).replaceAll("0+$", "");
        return (ns / 1_000_000L) + (fraction.isEmpty() ? "" : "." + fraction);
    }

    private static int point(BufferedWriter w, Set<String> declared, String metric, String type, String thresholds,
                             String time, String value, String tags) throws IOException {
        int n = 0;
        if (declared.add(metric)) {
            w.write("{\"type\":\"Metric\",\"data\":{\"name\":\"" + metric + "\",\"type\":\"" + type
                    + "\",\"contains\":\"" + (type.equals("trend") ? "time" : "default") + "\",\"thresholds\":["
                    + thresholds + "],\"submetrics\":null},\"metric\":\"" + metric + "\"}\n");
            n++;
        }
        w.write("{\"metric\":\"" + metric + "\",\"type\":\"Point\",\"data\":{\"time\":\"" + time + "\",\"value\":"
                + value + ",\"tags\":" + tags + "}}\n");
        return n + 1;
    }

    private static String time(long epochNs) {
        return TIME.format(OffsetDateTime.ofInstant(Instant.ofEpochSecond(epochNs / 1_000_000_000L,
                epochNs % 1_000_000_000L), ZONE));
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.6f", v);
    }

    private static BufferedWriter writer(Path file) throws IOException {
        return new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(file), StandardCharsets.UTF_8), 1 << 16);
    }
}
