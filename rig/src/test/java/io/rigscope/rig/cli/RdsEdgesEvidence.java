package io.rigscope.rig.cli;

import io.rigscope.analyzer.decision.Cause;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An RDS-shaped evidence directory whose load is noisy and whose causes build up (issue 41): k6 JSON, the app node's
 * vmstat (the manifest does not name it the generator's host), 1-s Enhanced Monitoring, Performance Insights at 1 s,
 * the RDS log, 60-s CloudWatch; no DB sampler, no canary, no generator health. One repeat of 400 s from
 * 2024-06-12T09:00:00Z at 20 requests/s; Performance Insights shows about 4.36 active sessions at rest, noisy by ±0.4.
 * <ul>
 *   <li>{@code LOCK} at 80-82: a hot row from 77 to 84, 90 % of the sessions on {@code Lock:transactionid}; the second
 *       before the run and its last second at 3.99 sessions, under the 4.36 before (ordinary load at the edges);</li>
 *   <li>{@code RAM_WALL} at 160-162: reads climb from 110 (Enhanced Monitoring reads 5 to 2,900 IO/s, sessions on
 *       {@code IO:DataFileRead} from 4.36 to 8.1); one second of the episode samples 3.93 sessions;</li>
 *   <li>{@code WAL} at 220, 225, 230, 235 (one slow second each, a 5-s rhythm; the 10-s windows join them into one
 *       episode): sessions on {@code IO:WALInitWrite} and {@code IO:WALInitSync} in the second before each freeze and
 *       its own, the committers on {@code LWLock:WALWrite}; from 200 to 260 a monitoring session sleeps in
 *       {@code pg_sleep} ({@code Timeout:PgSleep} 6.0);</li>
 *   <li>{@code STALL} at 300-302: k6 stalled: the sessions fall to 0.3 from 297 while a checkpoint syncs (Enhanced
 *       Monitoring queue 180, await 45 ms; the log's checkpoint with a 4.2-s sync): a storage fingerprint while the
 *       load stopped arriving. Never attributed;</li>
 *   <li>{@code LONE_INIT} at 360: one init wait in a freeze out of the rhythm's step: the WAL pool, most likely at
 *       best.</li>
 * </ul>
 */
final class RdsEdgesEvidence {

    static final long T0 = Instant.parse("2024-06-12T09:00:00Z").getEpochSecond();
    static final int SECONDS = 400;
    static final int RATE = 20;
    /** The WAL pool's freezes: four, one slow second every five. */
    static final int WAL_FREEZES = 4;
    static final int WAL_PERIOD_SEC = 5;

    /** The planted episodes: their first slow second, slow seconds, cause, and the answers allowed with PI / without. */
    enum Plant {
        LOCK(80, 3, Cause.LOCK_CONTENTION, Set.of("lock_contention attributed"), Set.of("unattributed unattributed")),
        RAM_WALL(160, 3, Cause.CACHE_RAM, Set.of("cache_ram attributed"),
                Set.of("unattributed unattributed")),
        WAL(220, 1, Cause.WAL_POOL, Set.of("wal_pool attributed"), Set.of("unattributed unattributed")),
        STALL(300, 3, Cause.GENERATOR, Set.of("storage most_likely", "unattributed unattributed"),
                Set.of("storage most_likely", "unattributed unattributed")),
        LONE_INIT(360, 1, Cause.WAL_POOL, Set.of("wal_pool most_likely"), Set.of("unattributed unattributed"));

        final int offsetSec;
        final int slowSec;
        final Cause cause;
        final Set<String> withPi;
        final Set<String> withoutPi;

        Plant(int offsetSec, int slowSec, Cause cause, Set<String> withPi, Set<String> withoutPi) {
            this.offsetSec = offsetSec;
            this.slowSec = slowSec;
            this.cause = cause;
            this.withPi = withPi;
            this.withoutPi = withoutPi;
        }

        long startSec() {
            return T0 + offsetSec;
        }

        Set<String> allowed(boolean pi) {
            return pi ? withPi : withoutPi;
        }

        boolean slow(int s) {
            if (this == WAL) {
                return s >= offsetSec && s < offsetSec + WAL_FREEZES * WAL_PERIOD_SEC && (s - offsetSec) % WAL_PERIOD_SEC == 0;
            }
            return s >= offsetSec && s < offsetSec + slowSec;
        }
    }

    private RdsEdgesEvidence() {
    }

    static boolean slow(int s) {
        for (Plant p : Plant.values()) {
            if (p.slow(s)) {
                return true;
            }
        }
        return false;
    }

    static void write(Path dir, boolean pi) throws IOException {
        Files.createDirectories(dir);
        RdsEvidence.k6(dir.resolve("k6-run.json.gz"), T0, SECONDS, RATE, RdsEdgesEvidence::slow);
        vmstat(dir.resolve("app-vmstat.log"));
        pglog(dir.resolve("postgresql.log.2024-06-12-09"));
        cloudwatch(dir.resolve("cloudwatch.json"));
        enhancedMonitoring(dir.resolve("em-os-metrics.jsonl"));
        if (pi) {
            performanceInsights(dir.resolve("pi-db-load.json"));
        }
        Files.writeString(dir.resolve("manifest.json"), """
                {
                  "series": "rds-edges",
                  "repeats": [
                    {"rep": 1, "start": "2024-06-12T09:00:00Z", "end": "2024-06-12T09:06:40Z", "kind": "sustained",
                     "offered_rate_per_s": 20, "batch": 1, "scenarios": ["ingest"],
                     "database_gained": {"rows_written": 8000, "qty_sum_gained": 0}}
                  ],
                  "environment": {"instance": "db.r6g.large", "storage": "gp3 3000 IOPS", "postgres": "16.3"}
                }
                """);
    }

    /** Active sessions by wait event in second {@code s}. */
    static Map<String, Double> load(int s) {
        double rest = 4.36 + new double[] {0, -0.37, 0.41, -0.2, 0.25, 0.1, -0.1}[s % 7];
        Map<String, Double> m = new TreeMap<>();
        if (s >= 77 && s <= 84) {
            double total = s == 79 || s == 82 ? 3.99 : s == 80 || s == 81 ? 5.0 : rest;
            m.put("Lock:transactionid", round(total * 0.9));
            m.put("CPU", round(total - round(total * 0.9)));
        } else if (s >= 110 && s <= 163) {
            double total = s == 160 ? 3.93 : Math.min(8.1, 4.36 + (s - 110) * 0.075);
            m.put("IO:DataFileRead", round(total * 0.75));
            m.put("IO:WALSync", 0.2);
            m.put("CPU", round(total - round(total * 0.75) - 0.2));
        } else if (s >= 297 && s <= 301) {
            m.put("IO:DataFileSync", 0.2);
            m.put("CPU", 0.1);
        } else if (s == 302) {
            m.put("IO:DataFileSync", 2.0);
            m.put("CPU", 5.0);
        } else if (walInit(s)) {
            m.put("IO:WALInitWrite", 0.4);
            m.put("IO:WALInitSync", 0.2);
            m.put("LWLock:WALWrite", 3.0);
            m.put("CPU", 1.0);
        } else {
            m.put("CPU", round(rest - 0.2));
            m.put("IO:WALSync", 0.2);
        }
        if (s >= 200 && s < 260) {
            m.put("Timeout:PgSleep", 6.0);
        }
        return m;
    }

    /** A backend initialising a WAL segment: the second before and the first of each WAL freeze, and the lone one. */
    private static boolean walInit(int s) {
        int fromWal = s + 1 - Plant.WAL.offsetSec;
        boolean wal = fromWal >= 0 && fromWal < WAL_FREEZES * WAL_PERIOD_SEC
                && (fromWal % WAL_PERIOD_SEC == 0 || fromWal % WAL_PERIOD_SEC == 1);
        return wal || s == Plant.LONE_INIT.offsetSec || s == Plant.LONE_INIT.offsetSec - 1;
    }

    private static double round(double v) {
        return Math.round(v * 100.0) / 100.0;
    }

    private static void vmstat(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----");
        lines.add(" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC");
        for (int s = 0; s < SECONDS; s++) {
            lines.add(String.format(Locale.ROOT, " 1  0      0 3734112  81236 1021880    0    0     0    12 4877 6221 31 9 60  0  0 %s",
                    stamp(s)));
        }
        Files.write(file, lines);
    }

    /** One 1-s Enhanced Monitoring document a line: rdsdev writing 400 IO/s; the reads and the checkpoint's queue. */
    private static void enhancedMonitoring(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < SECONDS; s++) {
            double write = 400;
            double read = s >= 110 && s <= 163 ? Math.min(2_900, 5 + (s - 110) * 55.0) : 5;
            double queue = read > 1_000 ? 4 : 1.2;
            double await = read > 1_000 ? 4 : 1.5;
            if (s >= 298 && s <= 302) {
                write = 3_000;
                queue = 180;
                await = 45;
            }
            lines.add(String.format(Locale.ROOT, "{\"engine\":\"POSTGRES\",\"instanceID\":\"db-edges\","
                    + "\"instanceResourceID\":\"db-EDGES\",\"timestamp\":\"%s\",\"version\":1,\"uptime\":\"3 days\","
                    + "\"numVCPUs\":2,\"cpuUtilization\":{\"guest\":0,\"irq\":0.1,\"system\":4.0,\"wait\":2.0,"
                    + "\"idle\":70.0,\"user\":20.0,\"total\":30.0,\"steal\":0,\"nice\":0},"
                    + "\"loadAverageMinute\":{\"one\":1.2,\"five\":1.0,\"fifteen\":0.8},"
                    + "\"memory\":{\"writeback\":0,\"cached\":8000000,\"free\":2000000,\"inactive\":3000000,"
                    + "\"dirty\":3000,\"active\":9000000,\"total\":16000000,\"buffers\":200000},"
                    + "\"diskIO\":[{\"writeKbPS\":%.1f,\"readIOsPS\":%.1f,\"await\":%.1f,\"readKbPS\":%.1f,"
                    + "\"util\":20.0,\"avgQueueLen\":%.1f,\"tps\":%.1f,\"device\":\"rdsdev\","
                    + "\"avgReqSz\":16.0,\"writeIOsPS\":%.1f}]}",
                    Instant.ofEpochSecond(T0 + s), write * 16, read, await, read * 8, queue, write + read, write));
        }
        Files.write(file, lines);
    }

    /** Performance Insights db.load.avg by wait event, one GetResourceMetrics response a minute, 1-s points. */
    private static void performanceInsights(Path file) throws IOException {
        Map<String, String[]> events = new LinkedHashMap<>();
        for (String e : List.of("CPU", "IO:WALSync", "Lock:transactionid", "LWLock:WALWrite", "IO:WALInitWrite",
                "IO:WALInitSync", "IO:DataFileSync", "IO:DataFileRead", "Timeout:PgSleep")) {
            int colon = e.indexOf(':');
            events.put(e, colon < 0 ? new String[] {"CPU", "CPU"}
                    : new String[] {e.substring(colon + 1), e.substring(0, colon)});
        }
        List<String> lines = new ArrayList<>();
        for (int minute = 0; minute * 60 < SECONDS; minute++) {
            Map<String, StringBuilder> points = new TreeMap<>();
            for (int s = minute * 60; s < Math.min(SECONDS, minute * 60 + 60); s++) {
                Map<String, Double> load = load(s);
                String ts = "\"" + OffsetDateTime.ofInstant(Instant.ofEpochSecond(T0 + s), ZoneOffset.UTC)
                        .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + "\"";
                for (String e : events.keySet()) {
                    StringBuilder b = points.computeIfAbsent(e, k -> new StringBuilder());
                    b.append(b.length() == 0 ? "" : ",");
                    Double v = load.get(e);
                    b.append(v == null ? "{\"Timestamp\":" + ts + "}"
                            : String.format(Locale.ROOT, "{\"Timestamp\":%s,\"Value\":%.2f}", ts, v));
                }
            }
            List<String> series = new ArrayList<>();
            for (var e : events.entrySet()) {
                series.add("{\"Key\":{\"Metric\":\"db.load.avg\",\"Dimensions\":{\"db.wait_event.name\":\""
                        + e.getValue()[0] + "\",\"db.wait_event.type\":\"" + e.getValue()[1] + "\"}},\"DataPoints\":["
                        + points.get(e.getKey()) + "]}");
            }
            lines.add("{\"AlignedStartTime\":\"" + Instant.ofEpochSecond(T0 + minute * 60L) + "\",\"AlignedEndTime\":\""
                    + Instant.ofEpochSecond(T0 + minute * 60L + 60) + "\",\"Identifier\":\"db-EDGES\",\"MetricList\":["
                    + String.join(",", series) + "]}");
        }
        Files.write(file, lines);
    }

    private static void pglog(Path file) throws IOException {
        Files.writeString(file, """
                %s UTC:10.0.1.17(51234):app@app:[3901]:LOG:  connection authorized: user=app database=app
                %s UTC::@:[612]:LOG:  checkpoint starting: time
                %s UTC::@:[612]:LOG:  checkpoint complete: wrote 98000 buffers (59.8%%); 0 WAL file(s) added, 0 removed, 12 recycled; write=26.101 s, sync=4.200 s, total=30.400 s; sync files=40, longest=3.100 s, average=0.105 s; distance=800123 kB, estimate=810000 kB
                """.formatted(stamp(0), stamp(272), stamp(302)));
    }

    private static String stamp(int s) {
        return OffsetDateTime.ofInstant(Instant.ofEpochSecond(T0 + s), ZoneOffset.UTC)
                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
    }

    /** CloudWatch WriteIOPS and DiskQueueDepth, 60-s averages. */
    private static void cloudwatch(Path file) throws IOException {
        StringBuilder ts = new StringBuilder();
        StringBuilder iops = new StringBuilder();
        StringBuilder queue = new StringBuilder();
        for (int minute = 0; minute * 60 < SECONDS; minute++) {
            String sep = minute == 0 ? "" : ",";
            boolean checkpoint = minute == 4 || minute == 5;
            ts.append(sep).append('"').append(Instant.ofEpochSecond(T0 + minute * 60L)).append('"');
            iops.append(sep).append(checkpoint ? "630.00" : "400.00");
            queue.append(sep).append(checkpoint ? "16.00" : "1.20");
        }
        Files.writeString(file, "{\"MetricDataResults\":["
                + "{\"Id\":\"writeiops\",\"Label\":\"WriteIOPS\",\"Timestamps\":[" + ts + "],\"Values\":[" + iops
                + "],\"StatusCode\":\"Complete\"},"
                + "{\"Id\":\"diskqueuedepth\",\"Label\":\"DiskQueueDepth\",\"Timestamps\":[" + ts + "],\"Values\":["
                + queue + "],\"StatusCode\":\"Complete\"}],\"Messages\":[]}\n");
    }
}
