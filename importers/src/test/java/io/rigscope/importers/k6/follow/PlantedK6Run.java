package io.rigscope.importers.k6.follow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A k6 run written in k6's JSON output format, with a planted freeze: 30 s of 100 requests/s on scenario
 * {@code ingest} (2-4 ms), a freeze in seconds 12-14 (every third request 400 ms), one 503 in second 20, two
 * dropped iterations in second 13, thresholds on http_req_duration (p(95)<100 holds, p(99)<100 does not) and one
 * on checks (rigscope does not judge it). Points are written as k6 flushes them: once a second, half a second
 * off the second's boundaries, each flush's points in the order the VUs handed them over (shuffled), so the file is
 * out of time order by up to a second, across second boundaries.
 */
final class PlantedK6Run {

    static final long START_SEC = 1_700_000_000L;
    static final int SECONDS = 30;

    private PlantedK6Run() {
    }

    /** The run's lines, without line ends. */
    static List<String> lines() {
        Random random = new Random(7);
        List<String> out = new ArrayList<>();
        out.add(metric("http_reqs", "counter", "[]"));
        out.add(metric("http_req_duration", "trend", "[\"p(95)<100\",\"p(99)<100\"]"));
        out.add(metric("http_req_failed", "rate", "[]"));
        out.add(metric("checks", "rate", "[\"rate>0.9\"]"));
        out.add(metric("dropped_iterations", "counter", "[]"));
        java.util.TreeMap<Long, List<List<String>>> flushes = new java.util.TreeMap<>();
        for (int sec = 0; sec < SECONDS; sec++) {
            for (int i = 0; i < 100; i++) {
                boolean frozen = sec >= 12 && sec <= 14 && i % 3 == 0;
                boolean error = sec == 20 && i == 5;
                double ms = frozen ? 400 : 2 + random.nextInt(2000) / 1000.0;
                long endUs = (START_SEC + sec) * 1_000_000L + i * 10_000L + random.nextInt(5_000);
                String status = error ? "503" : "201";
                List<String> request = new ArrayList<>();
                request.add(point("http_reqs", endUs, 1, status, !error));
                request.add(point("http_req_duration", endUs, ms, status, !error));
                request.add(point("http_req_failed", endUs, error ? 1 : 0, status, !error));
                flushes.computeIfAbsent(flushOf(endUs), f -> new ArrayList<>()).add(request);
            }
            if (sec == 13) {
                for (int d = 0; d < 2; d++) {
                    long dropUs = (START_SEC + sec) * 1_000_000L + 400_000L + d * 100_000L;
                    flushes.computeIfAbsent(flushOf(dropUs), f -> new ArrayList<>()).add(List.of("{\"metric\":\"dropped_iterations\",\"type\":\"Point\",\"data\":{\"time\":\""
                            + time(dropUs) + "\",\"value\":1,\"tags\":{\"scenario\":\"ingest\"}}}"));
                }
            }
        }
        for (List<List<String>> flush : flushes.values()) {
            Collections.shuffle(flush, random);
            flush.forEach(out::addAll);
        }
        return out;
    }

    /** The flush a point ending at {@code endUs} goes out with: k6 flushes every second, at .5 s. */
    private static long flushOf(long endUs) {
        return Math.floorDiv(endUs + 500_000L, 1_000_000L);
    }

    static String point(String metric, long endUs, double value, String status, boolean expected) {
        return "{\"metric\":\"" + metric + "\",\"type\":\"Point\",\"data\":{\"time\":\"" + time(endUs) + "\",\"value\":"
                + value + ",\"tags\":{\"expected_response\":\"" + expected + "\",\"group\":\"\",\"method\":\"POST\","
                + "\"name\":\"http://127.0.0.1:8080/events\",\"proto\":\"HTTP/1.1\",\"scenario\":\"ingest\",\"status\":\""
                + status + "\",\"url\":\"http://127.0.0.1:8080/events\"}}}";
    }

    private static String metric(String name, String type, String thresholds) {
        return "{\"type\":\"Metric\",\"data\":{\"name\":\"" + name + "\",\"type\":\"" + type + "\",\"contains\":\"default\","
                + "\"thresholds\":" + thresholds + ",\"submetrics\":null},\"metric\":\"" + name + "\"}";
    }

    /** k6's time format, with a local offset as k6 writes it. */
    private static String time(long us) {
        return Instant.ofEpochSecond(us / 1_000_000L, (us % 1_000_000L) * 1000).atOffset(java.time.ZoneOffset.ofHours(2))
                .toString();
    }
}
