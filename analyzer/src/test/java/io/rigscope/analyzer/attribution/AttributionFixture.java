package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.config.AnalyzerSettings.AttributionSettings;
import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.RepeatSummary.Cadence;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.decision.SecondStats.SecondLedger;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The scene every cause's rule test builds: evidence shaped as RDS delivers it (Enhanced Monitoring documents,
 * Performance Insights db.load by wait event, the RDS log's autovacuum and checkpoint lines, CloudWatch datapoints,
 * as the collectors map them onto the wire records) around one episode of two freeze-seconds, and
 * {@link #attribute()} to run the standard attribution over it. A test extends it; JUnit makes one instance per
 * test, so each test starts from an empty scene.
 */
abstract class AttributionFixture {

    static final String RUN = "rds-1";
    static final long S = 1_796_032_800L;
    /** The episode: two freeze-seconds, [S+20, S+22). */
    static final long START = S + 20;
    static final long END = S + 22;
    static final long REPEAT_P50_US = 2_000;

    final List<WireRecord> telemetry = new ArrayList<>();
    AttributionSettings settings = AttributionSettings.defaults();
    final NavigableMap<Long, double[]> health = new TreeMap<>();
    boolean p50Lifted;
    Cadence cadence = FreezeRule.cadence(List.of());
    final Map<String, Object> environment = new java.util.LinkedHashMap<>(
            Map.of("settings", Map.of("wal_segment_size", "64MB")));

    Episode attribute() {
        TelemetryIndex index = new TelemetryIndex();
        telemetry.forEach(index::accept);
        List<SecondStats> seconds = new ArrayList<>();
        for (long sec = START; sec < END; sec++) {
            long p50 = p50Lifted ? 150_000 : REPEAT_P50_US;
            seconds.add(new SecondStats(sec, 1000, 0, p50Lifted ? 900 : 120, 640_000, p50, 600_000, 600_000, true,
                    true, SecondLedger.NONE));
        }
        Episode joined = new Episode(1, START, END, 2, 0, 640.0, Cause.UNATTRIBUTED, Confidence.UNATTRIBUTED,
                List.of(new Evidence("rig.samples", "2 freeze-second(s), worst request 640.0 ms")), List.of(), null);
        return Attribution.standard().attribute(new EpisodeScene(joined, seconds, REPEAT_P50_US, health, index,
                cadence, settings, null, environment));
    }

    /** {@link #attribute()} for an episode of freeze-seconds {@code [start, end)} whose worst request took {@code worstMs}. */
    Episode attributeLong(long start, long end, double worstMs) {
        TelemetryIndex index = new TelemetryIndex();
        telemetry.forEach(index::accept);
        List<SecondStats> seconds = new ArrayList<>();
        for (long sec = start; sec < end; sec++) {
            long p50 = p50Lifted ? 150_000 : REPEAT_P50_US;
            seconds.add(new SecondStats(sec, 1000, 0, p50Lifted ? 900 : 120, (long) (worstMs * 1000), p50,
                    (long) (worstMs * 900), (long) (worstMs * 900), true, true, SecondLedger.NONE));
        }
        Episode joined = new Episode(1, start, end, (int) (end - start), 0, worstMs, Cause.UNATTRIBUTED,
                Confidence.UNATTRIBUTED, List.of(new Evidence("rig.samples", (end - start) + " freeze-second(s), worst "
                        + "request " + worstMs + " ms")), List.of(), null);
        return Attribution.standard().attribute(new EpisodeScene(joined, seconds, REPEAT_P50_US, health, index,
                cadence, settings));
    }

    void cleanControls() {
        healthClean();
        canaryClean();
    }

    void healthClean() {
        for (long sec = S; sec < S + 30; sec++) {
            health.put(sec, new double[] {1.0, 0.5, 3.0});
        }
    }

    void canaryClean() {
        for (long sec = S; sec < S + 30; sec++) {
            canary(sec, 900);
        }
    }

    void canary(long sec, long fsyncMaxUs) {
        telemetry.add(new Canary(RUN, 1, "canary@app-1", sec * 1_000_000L + 999_000, "/rdsdbdata/canary", 190,
                fsyncMaxUs, Math.min(fsyncMaxUs, 400), fsyncMaxUs > 5_000 ? (int) (fsyncMaxUs / 5_000) : 0));
    }

    /** Performance Insights db.load.avg by db.wait_event, one a second around the episode. */
    void piWaits(Map<String, Double> load) {
        for (long sec = START - 3; sec < END + 3; sec++) {
            telemetry.add(new Waits(RUN, 1, "pi@db-1", sec * 1_000_000L, 1, load));
        }
    }

    /** Performance Insights db.load.avg by db.wait_event, one a second from {@code fromSec} to 3 s after the episode. */
    void piWaitsFrom(long fromSec, Map<String, Double> load) {
        telemetry.removeIf(r -> r instanceof Waits w && w.ts() >= fromSec * 1_000_000L);
        for (long sec = fromSec; sec < END + 3; sec++) {
            telemetry.add(new Waits(RUN, 1, "pi@db-1", sec * 1_000_000L, 1, load));
        }
    }

    /** A 1-s Enhanced Monitoring document every second: rdsdev's write and read IOPS, queue and await. */
    void emPerSecond(double writeIops, double readIops, double queue, double awaitMs) {
        for (long sec = S; sec < S + 30; sec++) {
            telemetry.add(new OsMetrics(RUN, 1, "em@db-1", sec * 1_000_000L, "POSTGRES",
                    new OsMetrics.Cpu(20, 5, 30, 0, 0, 0, 0, 45, 55),
                    new OsMetrics.Memory(16_000_000, 400_000, 9_000_000, 100_000, 80_000, 0, 8_000_000, 4_000_000),
                    new OsMetrics.LoadAverage(9, 6, 4),
                    List.of(new OsMetrics.DiskIO("rdsdev", readIops, writeIops, readIops * 8, writeIops * 6, 6.0, queue,
                            awaitMs, 99.0)), List.of()));
        }
    }

    /**
     * A 1-s Enhanced Monitoring document every second from 20 s before the episode: rdsdev writing 15 MB/s, and in
     * each of {@code burstsAt}'s seconds {@code segmentMb} more (a segment's zero-fill).
     */
    void emWriteBursts(int segmentMb, long... burstsAt) {
        for (long sec = START - 20; sec < END + 20; sec++) {
            double kb = 15_000;
            for (long b : burstsAt) {
                kb += b == sec ? segmentMb * 1024.0 : 0;
            }
            telemetry.add(new OsMetrics(RUN, 1, "em@db-1", sec * 1_000_000L, "POSTGRES",
                    new OsMetrics.Cpu(20, 5, 1, 0, 0, 0, 0, 74, 26),
                    new OsMetrics.Memory(16_000_000, 400_000, 9_000_000, 100_000, 80_000, 0, 8_000_000, 4_000_000),
                    new OsMetrics.LoadAverage(1, 1, 1),
                    List.of(new OsMetrics.DiskIO("rdsdev", 2, kb / 40, 16, kb, 40, kb > 20_000 ? 8 : 0.3,
                            kb > 20_000 ? 10 : 1, 60)), List.of()));
        }
    }

    /** The DB sampler every second from {@code fromSec} (0: from S): WAL bytes and commits per 1-s interval. */
    void dbPerSecond(long walBytes, long commits, long fromSec) {
        long from = fromSec == 0 ? S : fromSec;
        telemetry.removeIf(r -> r instanceof DbSample d && d.ts() > from * 1_000_000L);
        for (long sec = from; sec < S + 30; sec++) {
            telemetry.add(new DbSample(RUN, 1, "db@db-1", (sec + 1) * 1_000_000L, 150018, 1000,
                    new DbSample.Wal(walBytes / 1000, 0, walBytes, 0), null, null, List.of(), List.of(),
                    new DbSample.Database(commits, 0, 0, 1000), null));
        }
    }

    /** A vmstat line every second from {@code src}: CPU idle and steal, percent. */
    void vmstatPerSecond(String src, int idlePct, int stealPct) {
        telemetry.removeIf(r -> r instanceof Vmstat v && v.src().equals(src));
        for (long sec = S; sec < S + 30; sec++) {
            telemetry.add(new Vmstat(RUN, 1, src, sec * 1_000_000L, 1, 0, 0, 18_000_000, 80_000, 4_000_000, 0, 0, 0,
                    500, 9_000, 14_000, 100 - idlePct - stealPct, 0, idlePct, 0, stealPct, null));
        }
    }

    /** An Enhanced Monitoring document every 5 s: rdsdev's read/write IOPS and queue. */
    void emDisk(double avgReqSzKb, double iops, double queue) {
        for (long sec = S; sec < S + 30; sec += 5) {
            telemetry.add(new OsMetrics(RUN, 1, "em@db-1", sec * 1_000_000L, "POSTGRES",
                    new OsMetrics.Cpu(20, 5, 30, 0, 0, 0, 0, 45, 55),
                    new OsMetrics.Memory(16_000_000, 400_000, 9_000_000, 100_000, 80_000, 0, 8_000_000, 4_000_000),
                    new OsMetrics.LoadAverage(9, 6, 4),
                    List.of(new OsMetrics.DiskIO("rdsdev", queue > 100 ? 0 : iops, queue > 100 ? iops : 40, 0,
                            iops * avgReqSzKb, avgReqSzKb, queue, queue > 100 ? 45.0 : 1.2, 99.0)),
                    List.of()));
        }
    }

    /** The RDS log's autovacuum completion: 134,000 full-page images, 1.1 GB of WAL. */
    void autovacuumEndingAt(long endSec, double elapsedSec) {
        rdsLog(PgLogEvent.Kind.AUTOVACUUM, endSec, "rdsdb.public.usage_events",
                Map.of("wal_fpi", 134_000.0, "wal_bytes", 1.1e9, "wal_records", 180_000.0, "elapsed_s", elapsedSec),
                "automatic vacuum of table \"rdsdb.public.usage_events\": index scans: 0");
    }

    void rdsLog(PgLogEvent.Kind kind, long sec, String table, Map<String, Double> metrics, String message) {
        telemetry.add(new PgLogEvent(RUN, 1, "rdslog@db-1", sec * 1_000_000L, kind, 4411, table, metrics, message));
    }

    void walFiles(int before, int after) {
        for (long sec = START - 5; sec < END + 3; sec++) {
            int files = sec < START + 1 ? before : after;
            telemetry.add(new DbSample(RUN, 1, "db@db-1", sec * 1_000_000L, 150018, 1000,
                    new DbSample.Wal(1000, 10, 3_000_000, 0), null, new DbSample.WalDir(files, files * 16_777_216L),
                    List.of(), List.of(), null, null));
        }
    }

    /**
     * The DB sampler every {@code everySec} from 10 s before the episode: the file count rises in the episode's
     * first second; the checkpoint counters stay {@code steady}, or (null) a checkpoint completes in that interval.
     */
    void walFilesEvery(int everySec, int before, int after, DbSample.Checkpoints steady) {
        DbSample.Checkpoints done = new DbSample.Checkpoints(13, 3, 9_400, 180, 14);
        for (long sec = START - 10; sec < END + 5; sec += everySec) {
            long ts = sec * 1_000_000L + 372_000;
            boolean risen = sec >= START;
            DbSample.Checkpoints c = steady != null ? steady
                    : risen ? done : new DbSample.Checkpoints(12, 3, 9_000, 100, 10);
            telemetry.add(new DbSample(RUN, 1, "db@db-1", ts, 150018, everySec * 1000L,
                    new DbSample.Wal(1000, 10, 3_000_000, 0), c,
                    new DbSample.WalDir(risen ? after : before, (risen ? after : before) * 16_777_216L),
                    List.of(), List.of(), null, null));
        }
    }

    /** The DB sampler every second: a vacuum of a {@code pages}-page table running, and the WAL per interval. */
    void vacuumRunning(long pages, long fpiPerSec, long walBytesPerSec) {
        for (long sec = S; sec < S + 30; sec++) {
            long scanned = Math.min(pages, (sec - S) * Math.max(1, pages / 40));
            telemetry.add(new DbSample(RUN, 1, "db@db-1", sec * 1_000_000L, 150018, 1000,
                    new DbSample.Wal(walBytesPerSec / 100, fpiPerSec, walBytesPerSec, 0), null, null,
                    List.of(new DbSample.VacuumProgress(7807, "usage_events", "scanning heap", pages, scanned, 0, 0)),
                    List.of(), new DbSample.Database(300, 0, 0, 1000), null));
        }
    }

    /** The DB sampler every second from S: the file count rises by one in each of {@code risesAt}'s seconds. */
    void walFilesRising(long... risesAt) {
        int files = 40;
        for (long sec = S; sec < S + 40; sec++) {
            for (long r : risesAt) {
                files += r == sec ? 1 : 0;
            }
            telemetry.add(new DbSample(RUN, 1, "db@db-1", sec * 1_000_000L + 372_000, 150018, 1000,
                    new DbSample.Wal(1000, 10, 3_000_000, 0), new DbSample.Checkpoints(12, 3, 9_000, 100, 10),
                    new DbSample.WalDir(files, files * 16_777_216L), List.of(), List.of(), null, null));
        }
    }
}
