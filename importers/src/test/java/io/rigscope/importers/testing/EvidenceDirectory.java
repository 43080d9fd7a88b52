package io.rigscope.importers.testing;

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
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;

/**
 * Writes an evidence directory in the tools' documented formats, with planted episodes, for rescan tests. One
 * repeat of 120 s from 2024-03-05T10:00:00Z, scenario {@code ingest} at 20 requests/s, 4-6 ms each, except:
 * <ul>
 *   <li>seconds 30-32: every request 220 ms; Performance Insights: 8 of ~8.7 sessions on Lock:transactionid;</li>
 *   <li>seconds 55-56: every request 260 ms; the generator's health (wire file) shows a 480 ms JVM pause in 55;</li>
 *   <li>seconds 80-83: every request 300 ms; PI: LWLock:WALWrite 5 + IO:WALSync 1 of 7; the RDS log: an autovacuum
 *       ending at 10:01:24 after 3.5 s with 134,000 full-page images; Enhanced Monitoring: avgReqSz 107 -> 6 KB,
 *       queue 1.2 -> 210.</li>
 * </ul>
 * k6 stamps its points in +02:00 (local time), the RDS log and AWS in UTC.
 */
public final class EvidenceDirectory {

    public static final long T0 = Instant.parse("2024-03-05T10:00:00Z").getEpochSecond();
    public static final int SECONDS = 120;
    public static final int RATE = 20;
    public static final long LOCK_START = T0 + 30;
    public static final long GENERATOR_START = T0 + 55;
    public static final long VACUUM_START = T0 + 80;

    private EvidenceDirectory() {
    }

    public static boolean lock(int s) {
        return s >= 30 && s <= 32;
    }

    public static boolean generator(int s) {
        return s == 55 || s == 56;
    }

    public static boolean vacuum(int s) {
        return s >= 80 && s <= 83;
    }

    /** Writes every file; {@code withWire} adds the rigscope wire file holding the generator's health and the canary. */
    public static void write(Path dir, boolean withWire) throws IOException {
        Files.createDirectories(dir);
        k6(dir.resolve("run-2024-03-05.json.gz"));
        vmstat(dir.resolve("app-vmstat.log"));
        enhancedMonitoring(dir.resolve("rds-os-metrics.jsonl"));
        performanceInsights(dir.resolve("pi-db-load.json"));
        pglog(dir.resolve("postgresql.log.2024-03-05-10"));
        cloudwatch(dir.resolve("cw-get-metric-data.json"));
        if (withWire) {
            wire(dir.resolve("rig-health.jsonl"));
        }
        Files.writeString(dir.resolve("manifest.json"), """
                {
                  "series": "rds-2024-03-05",
                  "repeats": [
                    {"rep": 1, "start": "2024-03-05T10:00:00Z", "end": "2024-03-05T10:02:00Z", "kind": "sustained",
                     "offered_rate_per_s": 20, "batch": 1, "scenarios": ["ingest"],
                     "database_gained": {"rows_written": 2400, "qty_sum_gained": 0}}
                  ],
                  "environment": {"instance": "db.r6g.large", "storage": "gp3 3000 IOPS", "postgres": "15.4"}
                }
                """);
    }

    private static void k6(Path file) throws IOException {
        DateTimeFormatter local = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            StringBuilder b = new StringBuilder();
            b.append("{\"type\":\"Metric\",\"data\":{\"name\":\"http_req_duration\",\"type\":\"trend\",\"contains\":"
                    + "\"time\",\"thresholds\":[\"p(99)<500\"],\"submetrics\":null},\"metric\":\"http_req_duration\"}\n");
            b.append("{\"type\":\"Metric\",\"data\":{\"name\":\"http_reqs\",\"type\":\"counter\",\"contains\":"
                    + "\"default\",\"thresholds\":[],\"submetrics\":null},\"metric\":\"http_reqs\"}\n");
            for (int s = 0; s < SECONDS; s++) {
                for (int i = 0; i < RATE; i++) {
                    long endUs = (T0 + s) * 1_000_000L + 20_000L + i * 50_000L;
                    double ms = lock(s) ? 220 : generator(s) ? 260 : vacuum(s) ? 300 : 4 + (i % 5) * 0.5;
                    String time = OffsetDateTime.ofInstant(Instant.ofEpochSecond(0, endUs * 1000),
                            ZoneOffset.ofHours(2)).format(local);
                    String tags = "{\"expected_response\":\"true\",\"group\":\"\",\"method\":\"POST\",\"name\":"
                            + "\"http://sut/events\",\"proto\":\"HTTP/1.1\",\"scenario\":\"ingest\",\"status\":\"201\","
                            + "\"url\":\"http://sut/events\"}";
                    b.append(String.format(Locale.ROOT, "{\"type\":\"Point\",\"data\":{\"time\":\"%s\",\"value\":%.3f,"
                            + "\"tags\":%s},\"metric\":\"http_req_duration\"}\n", time, ms, tags));
                    b.append(String.format(Locale.ROOT, "{\"type\":\"Point\",\"data\":{\"time\":\"%s\",\"value\":1,"
                            + "\"tags\":%s},\"metric\":\"http_reqs\"}\n", time, tags));
                }
                if (s == 10) {
                    b.append("{\"type\":\"Point\",\"data\":{\"time\":\"yesterday\n");   // a torn line
                }
            }
            b.append("garbage after the run\n");
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
            lines.add(String.format(" 1  0      0 18734112  81236 4021880    0    0     0  5312 9877 14221 31  9 57  3  0 %s", t));
        }
        Files.write(file, lines);
    }

    private static void enhancedMonitoring(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < SECONDS; s++) {
            boolean v = vacuum(s);
            String doc = String.format(Locale.ROOT, "{\"engine\":\"POSTGRES\",\"instanceID\":\"db-ABC\","
                    + "\"instanceResourceID\":\"db-XYZ\",\"timestamp\":\"%s\",\"version\":1,\"uptime\":\"10 days\","
                    + "\"numVCPUs\":2,\"cpuUtilization\":{\"guest\":0,\"irq\":0.1,\"system\":4.0,\"wait\":%s,"
                    + "\"idle\":70.0,\"user\":20.0,\"total\":30.0,\"steal\":0,\"nice\":0},"
                    + "\"loadAverageMinute\":{\"one\":1.2,\"five\":1.0,\"fifteen\":0.8},"
                    + "\"memory\":{\"writeback\":0,\"hugePagesFree\":0,\"hugePagesRsvd\":0,\"hugePagesSurp\":0,"
                    + "\"cached\":8000000,\"hugePagesSize\":2048,\"free\":2000000,\"hugePagesTotal\":0,"
                    + "\"inactive\":3000000,\"pageTables\":20000,\"dirty\":3000,\"mapped\":100000,\"active\":9000000,"
                    + "\"total\":16000000,\"slab\":300000,\"buffers\":200000},"
                    + "\"diskIO\":[{\"writeKbPS\":%s,\"readIOsPS\":2.0,\"await\":%s,\"readKbPS\":16.0,"
                    + "\"rrqmPS\":0,\"util\":%s,\"avgQueueLen\":%s,\"tps\":%s,\"readKb\":16,\"device\":\"rdsdev\","
                    + "\"writeKb\":%s,\"avgReqSz\":%s,\"wrqmPS\":0,\"writeIOsPS\":%s}],"
                    + "\"processList\":[{\"vss\":0,\"name\":\"postgres\",\"tgid\":1,\"vmlimit\":\"unlimited\","
                    + "\"parentID\":1,\"memoryUsedPc\":1.0,\"cpuUsedPc\":1.0,\"id\":1,\"rss\":0}]}",
                    Instant.ofEpochSecond(T0 + s), v ? "35.0" : "2.0", v ? "54000.0" : "42800.0", v ? "8.0" : "1.5",
                    v ? "100.0" : "20.0", v ? "210.0" : "1.2", v ? "9002" : "402", v ? "54000" : "42800",
                    v ? "6.0" : "107.0", v ? "9000.0" : "400.0");
            if (s % 2 == 1) {   // as CloudWatch Logs delivers it: the document is the event's message
                String escaped = doc.replace("\\", "\\\\").replace("\"", "\\\"");
                lines.add("{\"timestamp\":" + (T0 + s) * 1000 + ",\"message\":\"" + escaped + "\"}");
            } else {
                lines.add(doc);
            }
        }
        Files.write(file, lines);
    }

    private static void performanceInsights(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        for (int minute = 0; minute < 2; minute++) {
            StringBuilder cpu = new StringBuilder();
            StringBuilder walSync = new StringBuilder();
            StringBuilder lockTx = new StringBuilder();
            StringBuilder walWrite = new StringBuilder();
            for (int i = 0; i < 60; i++) {
                int s = minute * 60 + i;
                String ts = "\"" + OffsetDateTime.ofInstant(Instant.ofEpochSecond(T0 + s), ZoneOffset.UTC)
                        .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + "\"";
                String sep = i == 0 ? "" : ",";
                cpu.append(sep).append(point(ts, lock(s) ? 0.5 : 1.0));
                walSync.append(sep).append(point(ts, vacuum(s) ? 1.0 : 0.2));
                lockTx.append(sep).append(lock(s) ? point(ts, 8.0) : "{\"Timestamp\":" + ts + "}");
                walWrite.append(sep).append(point(ts, vacuum(s) ? 5.0 : 0.0));
            }
            lines.add("{\"AlignedStartTime\":\"" + Instant.ofEpochSecond(T0 + minute * 60) + "\","
                    + "\"AlignedEndTime\":\"" + Instant.ofEpochSecond(T0 + minute * 60 + 60) + "\","
                    + "\"Identifier\":\"db-XYZ\",\"MetricList\":["
                    + series(null, null, cpu) + ","   // the ungrouped total: not repeated as a wait
                    + series("CPU", "CPU", cpu) + "," + series("WALSync", "IO", walSync) + ","
                    + series("transactionid", "Lock", lockTx) + "," + series("WALWrite", "LWLock", walWrite) + "]}");
        }
        Files.write(file, lines);
    }

    private static String point(String ts, double v) {
        return String.format(Locale.ROOT, "{\"Timestamp\":%s,\"Value\":%.1f}", ts, v);
    }

    private static String series(String name, String type, StringBuilder points) {
        String dims = name == null ? "" : ",\"Dimensions\":{\"db.wait_event.name\":\"" + name
                + "\",\"db.wait_event.type\":\"" + type + "\"}";
        return "{\"Key\":{\"Metric\":\"db.load.avg\"" + dims + "},\"DataPoints\":[" + points + "]}";
    }

    private static void pglog(Path file) throws IOException {
        Files.writeString(file, """
                2024-03-05 09:59:58 UTC:10.0.1.17(51234):app@app:[3901]:LOG:  connection authorized: user=app database=app
                2024-03-05 10:00:10 UTC::@:[612]:LOG:  checkpoint starting: time
                2024-03-05 10:00:36 UTC::@:[612]:LOG:  checkpoint complete: wrote 1200 buffers (7.3%); 0 WAL file(s) added, 0 removed, 2 recycled; write=26.101 s, sync=0.012 s, total=26.210 s; sync files=12, longest=0.004 s, average=0.001 s; distance=30123 kB, estimate=31000 kB
                this line lost its prefix when someone pasted the log
                2024-03-05 10:01:24 UTC::@:[4411]:LOG:  automatic vacuum of table "app.public.usage_events": index scans: 0
                \tpages: 0 removed, 81920 remain, 81920 scanned (100.00% of total)
                \ttuples: 0 removed, 6000000 remain, 0 are dead but not yet removable
                \tremovable cutoff: 912345, which was 3 XIDs old when operation ended
                \tindex scan not needed: 0 pages from table (0.00% of total) had 0 dead item identifiers removed
                \tavg read rate: 0.000 MB/s, avg write rate: 310.118 MB/s
                \tbuffer usage: 163901 hits, 0 misses, 81920 dirtied
                \tWAL usage: 164001 records, 134000 full page images, 1100000000 bytes
                \tsystem usage: CPU: user: 1.10 s, system: 0.20 s, elapsed: 3.50 s
                """);
    }

    private static void cloudwatch(Path file) throws IOException {
        Files.writeString(file, """
                {
                    "MetricDataResults": [
                        {
                            "Id": "writeiops",
                            "Label": "WriteIOPS",
                            "Timestamps": [
                                "2024-03-05T10:01:00+00:00",
                                "2024-03-05T10:00:00+00:00"
                            ],
                            "Values": [
                                2580.0,
                                401.5
                            ],
                            "StatusCode": "Complete"
                        },
                        {
                            "Id": "diskqueuedepth",
                            "Label": "DiskQueueDepth",
                            "Timestamps": [
                                "2024-03-05T10:01:00+00:00",
                                "2024-03-05T10:00:00+00:00"
                            ],
                            "Values": [
                                14.9,
                                1.2
                            ],
                            "StatusCode": "Complete"
                        }
                    ],
                    "Messages": []
                }
                """);
    }

    private static void wire(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < SECONDS; s++) {
            long ts = (T0 + s) * 1_000_000L + 999_000L;
            lines.add(String.format(Locale.ROOT, "{\"topic\":\"rig.health\",\"key\":\"old\",\"value\":{\"run\":\"old\","
                    + "\"rep\":1,\"src\":\"gen-1\",\"ts\":%d,\"jvmPauseMs\":%s,\"gcPauseMs\":0.0,\"loopLagMs\":0.1,"
                    + "\"cpuPct\":38.5,\"inFlight\":2,\"oldestInFlightMs\":3.9}}", ts, s == 55 ? "480.0" : "0.3"));
            lines.add(String.format(Locale.ROOT, "{\"topic\":\"rig.canary\",\"key\":\"old\",\"value\":{\"run\":\"old\","
                    + "\"rep\":1,\"src\":\"canary@db\",\"ts\":%d,\"path\":\"/var/lib/postgresql/canary\",\"fsyncs\":198,"
                    + "\"fsyncMaxUs\":2100,\"fsyncP99Us\":900,\"stalledIntervals\":0}}", ts));
        }
        Files.write(file, lines);
    }
}
