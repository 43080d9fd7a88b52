package io.rigscope.rig.cli;

import io.rigscope.analyzer.decision.Cause;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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
import java.util.zip.GZIPOutputStream;

/**
 * Writes an evidence directory shaped like an RDS rig's, for the held-out attribution test: k6 JSON, the app node's
 * vmstat ({@code app-vmstat.log}: the host k6 ran on), 1-s Enhanced Monitoring, Performance Insights db.load by wait
 * event, the Postgres log with RDS's prefix, 60-s CloudWatch, and on request the DB sampler's JSONL (rigscope's
 * collector pointed at the instance). One repeat of 320 s from 2024-06-11T08:00:00Z at 20 requests/s, 4-6 ms each;
 * one cause planted every 40 s (three slow seconds at 250 ms, the telemetry from one second before them):
 * <ul>
 *   <li>{@code lock_contention} at 20: PI 8 sessions on {@code Lock:transactionid};</li>
 *   <li>{@code vacuum_storm} at 60: an autovacuum ending at 63 after 3.5 s (134,000 full-page images, 1.1 GB of WAL);
 *       PI {@code LWLock:WALWrite} 5, {@code IO:WALSync} 1; EM request size 107 -> 6 KB, queue 210, await 35 ms;
 *       the sampler: a progress row and the burst;</li>
 *   <li>{@code wal_pool} at 100: PI {@code IO:WALInitWrite} 0.6, {@code LWLock:WALWrite} 4; the sampler: WAL
 *       files 12 -> 13;</li>
 *   <li>{@code storage} at 140: EM queue 180 with 45 ms await; PI {@code IO:DataFileSync}; a checkpoint completing
 *       at 142 after a 4.2-s sync;</li>
 *   <li>{@code cache_ram} at 180: PI 6 sessions on {@code IO:DataFileRead}; EM 2,900 reads/s;</li>
 *   <li>{@code generator} at 220: k6 starved of CPU on the app node (vmstat idle 0); the database idle (PI 0
 *       sessions, no commits);</li>
 *   <li>{@code host_io} at 260: the device completes nothing (EM 0 IO/s) while sessions wait on
 *       {@code IO:WALSync}; no commits, no WAL.</li>
 * </ul>
 * {@link Streams} says which files are written; {@link Plant#allowed} says what the analyzer may answer for each.
 */
final class RdsEvidence {

    static final long T0 = Instant.parse("2024-06-11T08:00:00Z").getEpochSecond();
    static final int SECONDS = 320;
    static final int RATE = 20;
    static final int SLOW_SECONDS = 3;

    /** The planted causes, each at its offset from T0. */
    enum Plant {
        LOCK(20, Cause.LOCK_CONTENTION), VACUUM(60, Cause.VACUUM_STORM), WAL_POOL(100, Cause.WAL_POOL),
        STORAGE(140, Cause.STORAGE), CACHE(180, Cause.CACHE_RAM), GENERATOR(220, Cause.GENERATOR),
        HOST_IO(260, Cause.HOST_IO);

        final int offsetSec;
        final Cause cause;

        Plant(int offsetSec, Cause cause) {
            this.offsetSec = offsetSec;
            this.cause = cause;
        }

        long startSec() {
            return T0 + offsetSec;
        }

        /** True for a second whose requests are slow. */
        boolean slow(int s) {
            return s >= offsetSec && s < offsetSec + SLOW_SECONDS;
        }

        /** True for a second whose telemetry shows the cause: one before the slow seconds, and them. */
        boolean shows(int s) {
            return s >= offsetSec - 1 && s < offsetSec + SLOW_SECONDS;
        }

        /**
         * The answers allowed with these streams, as {@code cause confidence}: {@code attributed} where the defining
         * streams and a control are there, {@code most_likely} where one is missing, {@code unattributed} where the
         * defining stream is missing altogether (then the analyzer must say it cannot).
         */
        Set<String> allowed(Streams s) {
            String c = cause.code();
            return switch (this) {
                case LOCK -> s.pi() ? Set.of(c + " attributed") : Set.of("unattributed unattributed");
                case VACUUM -> s.pi() && s.em() ? Set.of(c + " attributed") : Set.of(c + " most_likely");
                case WAL_POOL -> !s.pi() ? Set.of("unattributed unattributed")
                        : s.sampler() ? Set.of(c + " attributed") : Set.of(c + " most_likely");
                case STORAGE -> !s.em() ? Set.of("unattributed unattributed", c + " most_likely")
                        : s.pi() || s.sampler() ? Set.of(c + " attributed") : Set.of(c + " most_likely");
                case CACHE -> !s.pi() ? Set.of("unattributed unattributed")
                        : s.em() ? Set.of(c + " attributed")
                        : s.generatorHostNamed() ? Set.of(c + " most_likely")
                        : Set.of(c + " most_likely", "unattributed unattributed");
                case GENERATOR -> s.generatorHostNamed() ? Set.of(c + " most_likely")
                        : Set.of("unattributed unattributed");
                // no canary on RDS, and the host_io rule reads only the canary: the analyzer must say it cannot
                case HOST_IO -> Set.of("unattributed unattributed");
            };
        }
    }

    /**
     * Which files the directory holds beside k6, vmstat, the Postgres log and CloudWatch (always there).
     *
     * @param em the 1-s Enhanced Monitoring file
     * @param pi the Performance Insights file
     * @param sampler the DB sampler's JSONL
     * @param generatorHostNamed the manifest names the app node as the generator's host
     *     ({@code analyzer.attribution_generator_hosts})
     */
    record Streams(boolean em, boolean pi, boolean sampler, boolean generatorHostNamed) {
        String name() {
            return (em ? "em" : "no-em") + "-" + (pi ? "pi" : "no-pi") + (sampler ? "-sampler" : "")
                    + (generatorHostNamed ? "" : "-host-unnamed");
        }
    }

    private RdsEvidence() {
    }

    static Plant planted(int s) {
        for (Plant p : Plant.values()) {
            if (p.shows(s)) {
                return p;
            }
        }
        return null;
    }

    static boolean slow(int s) {
        Plant p = planted(s);
        return p != null && p.slow(s);
    }

    static void write(Path dir, Streams streams) throws IOException {
        Files.createDirectories(dir);
        k6(dir.resolve("k6-run.json.gz"), T0, SECONDS, RATE, RdsEvidence::slow);
        vmstat(dir.resolve("app-vmstat.log"));
        pglog(dir.resolve("postgresql.log.2024-06-11-08"));
        cloudwatch(dir.resolve("cloudwatch.json"));
        if (streams.em()) {
            enhancedMonitoring(dir.resolve("em-os-metrics.jsonl"));
        }
        if (streams.pi()) {
            performanceInsights(dir.resolve("pi-db-load.json"));
        }
        if (streams.sampler()) {
            sampler(dir.resolve("db-sampler.jsonl"));
        }
        String analyzer = streams.generatorHostNamed() ? ",\n  \"analyzer\": {\"attribution_generator_hosts\": \"app\"}"
                : "";
        Files.writeString(dir.resolve("manifest.json"), """
                {
                  "series": "rds-held-out",
                  "repeats": [
                    {"rep": 1, "start": "2024-06-11T08:00:00Z", "end": "2024-06-11T08:05:20Z", "kind": "sustained",
                     "offered_rate_per_s": 20, "batch": 1, "scenarios": ["ingest"],
                     "database_gained": {"rows_written": 6400, "qty_sum_gained": 0}}
                  ],
                  "environment": {"instance": "db.r6g.large", "storage": "gp3 3000 IOPS", "postgres": "16.3"}%s
                }
                """.formatted(analyzer));
    }

    /**
     * Writes a gzipped k6 {@code --out json} stream: {@code ratePerSec} requests a second for {@code seconds} seconds
     * from {@code t0Sec}, 250 ms in the seconds {@code slow} names and 4-6 ms in the others (the shape both RDS-shaped
     * evidence directories share).
     */
    static void k6(Path file, long t0Sec, int seconds, int ratePerSec, java.util.function.IntPredicate slow)
            throws IOException {
        DateTimeFormatter local = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            StringBuilder b = new StringBuilder();
            b.append("{\"type\":\"Metric\",\"data\":{\"name\":\"http_req_duration\",\"type\":\"trend\",\"contains\":"
                    + "\"time\",\"thresholds\":[],\"submetrics\":null},\"metric\":\"http_req_duration\"}\n");
            for (int s = 0; s < seconds; s++) {
                for (int i = 0; i < ratePerSec; i++) {
                    long endUs = (t0Sec + s) * 1_000_000L + 20_000L + i * 50_000L;
                    double ms = slow.test(s) ? 250 : 4 + (i % 5) * 0.5;
                    String time = OffsetDateTime.ofInstant(Instant.ofEpochSecond(0, endUs * 1000),
                            ZoneOffset.ofHours(2)).format(local);
                    b.append(String.format(Locale.ROOT, "{\"type\":\"Point\",\"data\":{\"time\":\"%s\",\"value\":%.3f,"
                            + "\"tags\":{\"expected_response\":\"true\",\"method\":\"POST\",\"scenario\":\"ingest\","
                            + "\"status\":\"201\",\"url\":\"http://app-1/events\"}},\"metric\":\"http_req_duration\"}\n",
                            time, ms));
                }
            }
            out.write(b.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void vmstat(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----");
        lines.add(" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC");
        for (int s = 0; s < SECONDS; s++) {
            String t = OffsetDateTime.ofInstant(Instant.ofEpochSecond(T0 + s), ZoneOffset.UTC)
                    .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
            boolean starved = planted(s) == Plant.GENERATOR;
            lines.add(String.format(Locale.ROOT, " %d  0      0 3734112  81236 1021880    0    0     0    12 %d %d %d %d %d  0  0 %s",
                    starved ? 9 : 1, 4877, 6221, starved ? 88 : 31, starved ? 12 : 9, starved ? 0 : 60, t));
        }
        Files.write(file, lines);
    }

    /** One 1-s Enhanced Monitoring document a line. */
    private static void enhancedMonitoring(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < SECONDS; s++) {
            Plant p = planted(s);
            double write = 400;
            double read = 2;
            double reqSz = 107;
            double queue = 1.2;
            double await = 1.5;
            if (p == Plant.VACUUM) {
                write = 9000;
                reqSz = 6;
                queue = 210;
                await = 35;
            } else if (p == Plant.STORAGE) {
                write = 3000;
                reqSz = 32;
                queue = 180;
                await = 45;
            } else if (p == Plant.CACHE) {
                read = 2900;
                queue = 12;
                await = 4;
            } else if (p == Plant.HOST_IO) {
                write = 0;
                read = 0;
                queue = 1;
                await = 0;
            }
            lines.add(String.format(Locale.ROOT, "{\"engine\":\"POSTGRES\",\"instanceID\":\"db-held-out\","
                    + "\"instanceResourceID\":\"db-HELDOUT\",\"timestamp\":\"%s\",\"version\":1,\"uptime\":\"3 days\","
                    + "\"numVCPUs\":2,\"cpuUtilization\":{\"guest\":0,\"irq\":0.1,\"system\":4.0,\"wait\":%s,"
                    + "\"idle\":70.0,\"user\":20.0,\"total\":30.0,\"steal\":0,\"nice\":0},"
                    + "\"loadAverageMinute\":{\"one\":1.2,\"five\":1.0,\"fifteen\":0.8},"
                    + "\"memory\":{\"writeback\":0,\"cached\":8000000,\"free\":2000000,\"inactive\":3000000,"
                    + "\"dirty\":3000,\"active\":9000000,\"total\":16000000,\"buffers\":200000},"
                    + "\"diskIO\":[{\"writeKbPS\":%.1f,\"readIOsPS\":%.1f,\"await\":%.1f,\"readKbPS\":%.1f,"
                    + "\"util\":%s,\"avgQueueLen\":%.1f,\"tps\":%.1f,\"device\":\"rdsdev\","
                    + "\"avgReqSz\":%.1f,\"writeIOsPS\":%.1f}]}",
                    Instant.ofEpochSecond(T0 + s), p == Plant.HOST_IO ? "60.0" : "2.0", write * reqSz, read, await,
                    read * 8, p == Plant.HOST_IO ? "100.0" : "20.0", queue, write + read, reqSz, write));
        }
        Files.write(file, lines);
    }

    /** Performance Insights db.load.avg by wait event, one GetResourceMetrics response a minute, 1-s points. */
    private static void performanceInsights(Path file) throws IOException {
        Map<String, String[]> events = new LinkedHashMap<>();
        events.put("CPU", new String[] {"CPU", "CPU"});
        events.put("IO:WALSync", new String[] {"WALSync", "IO"});
        events.put("Lock:transactionid", new String[] {"transactionid", "Lock"});
        events.put("LWLock:WALWrite", new String[] {"WALWrite", "LWLock"});
        events.put("IO:WALInitWrite", new String[] {"WALInitWrite", "IO"});
        events.put("IO:DataFileSync", new String[] {"DataFileSync", "IO"});
        events.put("IO:DataFileWrite", new String[] {"DataFileWrite", "IO"});
        events.put("IO:DataFileRead", new String[] {"DataFileRead", "IO"});
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
                    + Instant.ofEpochSecond(T0 + minute * 60L + 60) + "\",\"Identifier\":\"db-HELDOUT\",\"MetricList\":["
                    + String.join(",", series) + "]}");
        }
        Files.write(file, lines);
    }

    /** Active sessions by wait event in second {@code s}: 1.2 at rest. */
    private static Map<String, Double> load(int s) {
        Plant p = planted(s);
        if (p == null) {
            return Map.of("CPU", 1.0, "IO:WALSync", 0.2);
        }
        return switch (p) {
            case LOCK -> Map.of("CPU", 0.5, "Lock:transactionid", 8.0, "IO:WALSync", 0.2);
            case VACUUM -> Map.of("CPU", 1.0, "LWLock:WALWrite", 5.0, "IO:WALSync", 1.0);
            case WAL_POOL -> Map.of("CPU", 1.0, "IO:WALInitWrite", 0.6, "LWLock:WALWrite", 4.0, "IO:WALSync", 0.2);
            case STORAGE -> Map.of("CPU", 1.0, "IO:DataFileSync", 2.0, "IO:DataFileWrite", 1.0, "IO:WALSync", 2.0);
            case CACHE -> Map.of("CPU", 1.0, "IO:DataFileRead", 6.0, "IO:WALSync", 0.2);
            case GENERATOR -> Map.of();
            case HOST_IO -> Map.of("IO:WALSync", 6.0, "LWLock:WALWrite", 3.0);
        };
    }

    private static void pglog(Path file) throws IOException {
        String vacuumEnd = stamp(Plant.VACUUM.offsetSec + SLOW_SECONDS);
        String checkpointEnd = stamp(Plant.STORAGE.offsetSec + 2);
        Files.writeString(file, """
                %s UTC:10.0.1.17(51234):app@app:[3901]:LOG:  connection authorized: user=app database=app
                %s UTC::@:[4411]:LOG:  automatic vacuum of table "app.public.usage_events": index scans: 0
                \tpages: 0 removed, 81920 remain, 81920 scanned (100.00%% of total)
                \ttuples: 0 removed, 6000000 remain, 0 are dead but not yet removable
                \tbuffer usage: 163901 hits, 0 misses, 81920 dirtied
                \tWAL usage: 164001 records, 134000 full page images, 1100000000 bytes
                \tsystem usage: CPU: user: 1.10 s, system: 0.20 s, elapsed: 3.50 s
                %s UTC::@:[612]:LOG:  checkpoint starting: time
                %s UTC::@:[612]:LOG:  checkpoint complete: wrote 98000 buffers (59.8%%); 0 WAL file(s) added, 0 removed, 12 recycled; write=26.101 s, sync=4.200 s, total=30.400 s; sync files=40, longest=3.100 s, average=0.105 s; distance=800123 kB, estimate=810000 kB
                """.formatted(stamp(0), vacuumEnd, stamp(Plant.STORAGE.offsetSec - 28), checkpointEnd));
    }

    private static String stamp(int s) {
        return OffsetDateTime.ofInstant(Instant.ofEpochSecond(T0 + s), ZoneOffset.UTC)
                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
    }

    /** CloudWatch WriteIOPS and DiskQueueDepth: each minute's average of what Enhanced Monitoring shows per second. */
    private static void cloudwatch(Path file) throws IOException {
        StringBuilder ts = new StringBuilder();
        StringBuilder iops = new StringBuilder();
        StringBuilder queue = new StringBuilder();
        for (int minute = 0; minute * 60 < SECONDS; minute++) {
            double sumIops = 0;
            double sumQueue = 0;
            int n = 0;
            for (int s = minute * 60; s < Math.min(SECONDS, minute * 60 + 60); s++, n++) {
                Plant p = planted(s);
                sumIops += p == Plant.VACUUM ? 9000 : p == Plant.STORAGE ? 3000 : p == Plant.HOST_IO ? 0 : 400;
                sumQueue += p == Plant.VACUUM ? 210 : p == Plant.STORAGE ? 180 : p == Plant.CACHE ? 12 : 1.2;
            }
            String sep = minute == 0 ? "" : ",";
            ts.append(sep).append('"').append(Instant.ofEpochSecond(T0 + minute * 60L)).append('"');
            iops.append(sep).append(String.format(Locale.ROOT, "%.2f", sumIops / n));
            queue.append(sep).append(String.format(Locale.ROOT, "%.2f", sumQueue / n));
        }
        Files.writeString(file, "{\"MetricDataResults\":["
                + "{\"Id\":\"writeiops\",\"Label\":\"WriteIOPS\",\"Timestamps\":[" + ts + "],\"Values\":[" + iops
                + "],\"StatusCode\":\"Complete\"},"
                + "{\"Id\":\"diskqueuedepth\",\"Label\":\"DiskQueueDepth\",\"Timestamps\":[" + ts + "],\"Values\":["
                + queue + "],\"StatusCode\":\"Complete\"}],\"Messages\":[]}\n");
    }

    /** The DB sampler every second, stamped at the end of its 1-s interval. */
    private static void sampler(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < SECONDS; s++) {
            Plant p = planted(s);
            boolean idle = p == Plant.GENERATOR || p == Plant.HOST_IO;
            long walBytes = idle ? 0 : p == Plant.VACUUM ? 360_000_000L : 2_000_000L;
            long fpi = p == Plant.VACUUM ? 44_000 : 10;
            int files = s <= Plant.WAL_POOL.offsetSec ? 12 : 13;
            String vacuums = p == Plant.VACUUM ? "[{\"pid\":4411,\"table\":\"public.usage_events\",\"phase\":\"scanning "
                    + "heap\",\"heapBlksTotal\":81920,\"heapBlksScanned\":" + (20000 * (s - Plant.VACUUM.offsetSec + 2))
                    + ",\"heapBlksVacuumed\":0,\"indexVacuumCount\":0}]" : "[]";
            lines.add(String.format(Locale.ROOT, "{\"src\":\"db@db-held-out\",\"ts\":%d,\"serverVersionNum\":160003,"
                    + "\"intervalMs\":1000,\"wal\":{\"records\":%d,\"fpi\":%d,\"bytes\":%d,\"buffersFull\":0},"
                    + "\"walDir\":{\"files\":%d,\"bytes\":%d},\"vacuums\":%s,\"tables\":[],"
                    + "\"database\":{\"commits\":%d,\"rollbacks\":0,\"blksRead\":%d,\"blksHit\":4000}}",
                    (T0 + s + 1) * 1_000_000L, walBytes / 100, fpi, walBytes, files, files * 16_777_216L, vacuums,
                    idle ? 0 : RATE, p == Plant.CACHE ? 2900 : 2));
        }
        Files.write(file, lines);
    }
}
