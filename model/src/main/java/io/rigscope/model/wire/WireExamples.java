package io.rigscope.model.wire;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One realistic record of every topic, in topic order. docs/wire-format.md shows exactly these (a test keeps
 * the two in step), and the round-trip tests publish them through a real broker.
 */
public final class WireExamples {

    /** 2026-11-30T10:00:00Z in epoch µs. */
    public static final long T = 1_796_032_800_000_000L;

    private WireExamples() {
    }

    /** A map that keeps the order its pairs are given in (Map.of's order changes from JVM to JVM). */
    private static Map<String, Object> ordered(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    /** One record per topic, in {@link io.rigscope.model.topic.Topic} order. */
    public static List<WireRecord> all() {
        return List.of(
                new Marker("s-2026-11-30a", 1, "gen-1", T, "sustained",
                        new ScheduleStart("open-loop", T + 50_000, 600_000L, List.of("ingest"), null, null)
                                .body(Marker.Kind.REPEAT_START)),
                new SampleBatch("s-2026-11-30a", 1, "gen-1", T + 1_000_000, List.of(
                        new Sample("ingest", T + 1_000, T + 1_020, T + 4_950, 201, ErrorKind.NONE, 10, 512, 1843,
                                ServerTiming.of(new String[] {"pool", "db", "app"}, new long[] {12, 3_410, 402})),
                        new Sample("ingest", T + 1_833, T + 1_840, T + 161_200, 0, ErrorKind.TIMEOUT, 10, 498,
                                1841))),
                new Ledger("s-2026-11-30a", 1, "gen-1", T + 1_050_000, "ingest", T / 1_000_000, 1200, 1200, 0, 1198,
                        false),
                new Health("s-2026-11-30a", 1, "gen-1", T + 1_000_000, 0.4, 0.0, 0.12, 38.5, 6, 3.9),
                new Vmstat("s-2026-11-30a", 1, "vmstat@app-1", T, 2, 0, 0, 18_734_112, 81_236, 4_021_880, 0, 0, 0,
                        5_312, 9_877, 14_221, 31, 9, 57, 3, 0, 0),
                new OsMetrics("s-2026-11-30a", 1, "os@app-1", T, "LOCAL",
                        new OsMetrics.Cpu(31.0, 9.0, 3.0, 0.5, 0.0, 0.0, 0.0, 56.5, 43.5),
                        new OsMetrics.Memory(24_576_000, 18_734_112, 4_021_880, 81_236, 1_204, 0, 3_100_000,
                                1_800_000),
                        new OsMetrics.LoadAverage(1.2, 0.9, 0.6),
                        List.of(new OsMetrics.DiskIO("vda", 0.0, 412.0, 0.0, 44_084.0, 107.0, 0.8, 1.9, 22.0)),
                        List.of()),
                new Waits("s-2026-11-30a", 1, "waits@db-1", T, 1,
                        Map.of("CPU", 1.4, "LWLock:WALWrite", 2.1, "IO:WALSync", 0.6)),
                new DbSample("s-2026-11-30a", 1, "db@db-1", T, 150018, 1000,
                        new DbSample.Wal(12_040, 310, 8_912_344, 0),
                        new DbSample.Checkpoints(14, 2, 20_113, 51_200.0, 310.0),
                        new DbSample.WalDir(9, 150_994_944L),
                        List.of(new DbSample.VacuumProgress(4411, "public.usage_events", "scanning heap", 81_920,
                                40_113, 0, 0)),
                        List.of(new DbSample.TableStats("public.usage_events", 6_001_200, 1_200, 480_000, 3,
                                T - 30_000_000)),
                        new DbSample.Database(1_198, 0, 4, 98_112),
                        new DbSample.Io(1_024, 12)),
                new PgLogEvent("s-2026-11-30a", 1, "pglog@db-1", T + 2_400_000, PgLogEvent.Kind.AUTOVACUUM, 4411,
                        "rigscope.public.usage_events",
                        Map.of("pages_removed", 0.0, "pages_scanned", 81_920.0, "wal_records", 164_001.0,
                                "wal_fpi", 81_700.0, "wal_bytes", 672_455_120.0, "elapsed_s", 1.41),
                        "automatic vacuum of table \"rigscope.public.usage_events\": index scans: 0"),
                new CloudWatchPoint("s-2026-11-30a", 1, "cw@db-1", T, "AWS/RDS", "WriteIOPS",
                        Map.of("DBInstanceIdentifier", "db-1"), "Average", 60, 2_950.5, "Count/Second"),
                new Canary("s-2026-11-30a", 1, "canary@app-1", T, "/var/lib/postgresql/canary", 198, 612, 240, 0,
                        Canary.RUNQ_SCHEDSTAT, 35L, 577L, 231L, 410L, 2),
                new Verdict("s-2026-11-30a", 1, "analyzer-1", T + 11_000_000, Verdict.Kind.FREEZE, "ingest",
                        ordered("sec", T / 1_000_000, "max_ms", 161.2, "over_50ms_pct", 23.4, "requests", 1198L)),
                new DeadLetter("s-2026-11-30a", 0, "codec", T, "rig.samples/1@5121", "rig.samples",
                        "invalid record: sample times must satisfy 0 < t0 <= t1 <= t2", "{\"run\":\"s-2026-11-30a\"}"),
                new ProcessMetrics("s-2026-11-30a", 1, "process@app-1", T + 1_000_000, 48213, "java", 1000.4, 37.5, 2,
                        412_000_000L, 61, 3.2, 800.0, 100.0, 0.0, 1.4));
    }
}
