package io.rigscope.benchmarks.analyzer;

import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.CloudWatchPoint;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The telemetry a local series with every collector on delivers, second by second, shaped like the real
 * collectors' records (docs/collectors.md) and consistent with the planted stalls: vmstat, OS metrics, active
 * sessions by wait event, the DB sampler and the disk canary once a second; Postgres log events a few times a
 * minute (a checkpoint every 60 s, its completion 27 s later, an autovacuum every 40 s, its line at its end);
 * CloudWatch datapoints once a minute. A {@link LiveLoad.StallKind#HOST_IO} stall shows as a canary stall, IO wait
 * and a deep disk queue with committers on {@code IO:WALSync}; a {@link LiveLoad.StallKind#WAL_POOL} stall as
 * committers on {@code IO:WALInitWrite}/{@code IO:WALInitSync} and one more WAL segment file, the canary clean.
 *
 * <p>Not thread-safe: the load's thread owns it. Deterministic for a series.
 */
final class LiveTelemetry {

    private static final long CHECKPOINT_EVERY_SEC = 60;
    private static final long CHECKPOINT_WRITE_SEC = 27;
    private static final long VACUUM_EVERY_SEC = 40;
    private static final double VACUUM_ELAPSED_S = 1.4;
    private static final String TABLE = "public.usage_events";

    private final String series;
    private final int rep;
    private final long startSec;
    private final SplittableRandom random = new SplittableRandom(42);
    private int walFiles = 9;
    private long checkpointsTimed = 14;
    private long buffersWritten = 20_113;
    private double checkpointWriteMs = 51_200;
    private long autovacuums = 3;
    private long lastAutovacuumUs;
    private long records;

    LiveTelemetry(String series, int rep, long startSec) {
        this.series = series;
        this.rep = rep;
        this.startSec = startSec;
        this.lastAutovacuumUs = (startSec - 30) * 1_000_000L;
    }

    /** Records published so far. */
    long records() {
        return records;
    }

    /**
     * The records that describe second {@code sec} and are due once it ended, in the order a collector would
     * publish them.
     *
     * @param stall the stall that overlaps the second, or null
     * @param commits requests that ended in the second (the database's commits)
     */
    List<WireRecord> afterSecond(long sec, LiveLoad.Stall stall, long commits) {
        long ts = sec * 1_000_000L;
        long elapsed = sec - startSec;
        boolean io = stall != null && stall.kind() == LiveLoad.StallKind.HOST_IO;
        boolean walPool = stall != null && stall.kind() == LiveLoad.StallKind.WAL_POOL;
        if (walPool && stall.startUs() >= ts) {
            walFiles++; // the refill added one segment
        }
        double stallMs = stall == null ? 0 : Math.min(stall.endUs(), ts + 1_000_000L) / 1000.0
                - Math.max(stall.startUs(), ts) / 1000.0;
        List<WireRecord> out = new ArrayList<>(8);
        out.add(new Vmstat(series, rep, "vmstat@app-1", ts, 1 + random.nextInt(2), io ? 3 : 0, 0,
                18_734_112 - random.nextInt(4096), 81_236, 4_021_880, 0, 0, 0, io ? 1_200 : 5_312 + random.nextInt(400),
                9_877 + random.nextInt(500), 14_221 + random.nextInt(800), 31, 9, io ? 15 : 57, io ? 45 : 3, 0, 0));
        double await = io ? stallMs : 1.9 + random.nextDouble();
        out.add(new OsMetrics(series, rep, "os@app-1", ts, "LOCAL",
                new OsMetrics.Cpu(31.0, 9.0, io ? 45.0 : 3.0, 0.5, 0.0, 0.0, 0.0, io ? 14.5 : 56.5, io ? 85.5 : 43.5),
                new OsMetrics.Memory(24_576_000, 18_734_112, 4_021_880, 81_236, 1_204, 0, 3_100_000, 1_800_000),
                new OsMetrics.LoadAverage(1.2, 0.9, 0.6),
                List.of(new OsMetrics.DiskIO("vda", 0.0, io ? 190.0 : 412.0, 0.0, io ? 1_140.0 : 44_084.0,
                        io ? 6.0 : 107.0, io ? 31.0 : 0.8, await, io ? 100.0 : 22.0)),
                List.of()));
        Map<String, Double> load = new LinkedHashMap<>();
        load.put("CPU", 1.4);
        load.put("LWLock:WALWrite", io || walPool ? 20.0 : 0.3);
        load.put("IO:WALSync", io ? 8.0 : 0.4);
        if (walPool) {
            load.put("IO:WALInitWrite", 12.0);
            load.put("IO:WALInitSync", 3.0);
        }
        out.add(new Waits(series, rep, "waits@db-1", ts, 1, load));
        boolean vacuuming = elapsed > 0 && (elapsed + 1) % VACUUM_EVERY_SEC == 0; // the second before its log line
        out.add(new DbSample(series, rep, "db@db-1", ts, 150018, 1000,
                new DbSample.Wal(commits, commits / 80, commits * 356L, 0),
                new DbSample.Checkpoints(checkpointsTimed, 2, buffersWritten, checkpointWriteMs, 310.0),
                new DbSample.WalDir(walFiles, walFiles * 16_777_216L),
                vacuuming ? List.of(new DbSample.VacuumProgress(4411, TABLE, "scanning heap", 81_920, 40_113, 0, 0))
                        : List.of(),
                List.of(new DbSample.TableStats(TABLE, 6_001_200 + commits * elapsed, 1_200, commits * 40, autovacuums,
                        lastAutovacuumUs)),
                new DbSample.Database(commits, 0, 4, 98_112), new DbSample.Io(vacuuming ? 1_024 : 0, 0)));
        out.addAll(pgLog(sec, elapsed));
        long fsyncMaxUs = io ? Math.round(stallMs * 1000) : 600 + random.nextInt(400);
        out.add(new Canary(series, rep, "canary@app-1", ts, "/var/lib/postgresql/canary", io ? 60 : 100,
                fsyncMaxUs, io ? fsyncMaxUs : 240 + random.nextInt(100), io ? (int) (stallMs / 10) : 0));
        if ((elapsed + 1) % 60 == 0) {
            out.addAll(cloudWatch(sec - 59));
        }
        records += out.size();
        return out;
    }

    private List<WireRecord> pgLog(long sec, long elapsed) {
        List<WireRecord> out = new ArrayList<>(2);
        long ts = sec * 1_000_000L + 400_000;
        if (elapsed % CHECKPOINT_EVERY_SEC == 5) {
            out.add(new PgLogEvent(series, rep, "pglog@db-1", ts, PgLogEvent.Kind.CHECKPOINT_START, 61, null,
                    Map.of("flag_time", 1.0), "checkpoint starting: time"));
        }
        if (elapsed % CHECKPOINT_EVERY_SEC == 5 + CHECKPOINT_WRITE_SEC) {
            checkpointsTimed++;
            buffersWritten += 2_900;
            checkpointWriteMs += 26_900;
            out.add(new PgLogEvent(series, rep, "pglog@db-1", ts, PgLogEvent.Kind.CHECKPOINT_COMPLETE, 61, null,
                    Map.of("buffers_written", 2_900.0, "wal_files_added", 0.0, "wal_files_removed", 0.0,
                            "wal_files_recycled", 2.0, "write_s", 26.9, "sync_s", 0.05, "total_s", 27.0),
                    "checkpoint complete: wrote 2900 buffers (17.7%)"));
        }
        if (elapsed > 0 && elapsed % VACUUM_EVERY_SEC == 0) {
            autovacuums++;
            lastAutovacuumUs = ts;
            out.add(new PgLogEvent(series, rep, "pglog@db-1", ts, PgLogEvent.Kind.AUTOVACUUM, 4411,
                    "rigscope." + TABLE, Map.of("pages_removed", 0.0, "pages_scanned", 81_920.0, "wal_records", 1_640.0,
                            "wal_fpi", 12.0, "wal_bytes", 672_455.0, "elapsed_s", VACUUM_ELAPSED_S),
                    "automatic vacuum of table \"rigscope." + TABLE + "\": index scans: 0"));
        }
        return out;
    }

    private List<WireRecord> cloudWatch(long minuteStartSec) {
        long ts = minuteStartSec * 1_000_000L;
        Map<String, String> dims = Map.of("DBInstanceIdentifier", "db-1");
        List<WireRecord> out = new ArrayList<>(5);
        out.add(new CloudWatchPoint(series, rep, "cw@db-1", ts, "AWS/RDS", "WriteIOPS", dims, "Average", 60,
                2_950.5 + random.nextInt(200), "Count/Second"));
        out.add(new CloudWatchPoint(series, rep, "cw@db-1", ts, "AWS/RDS", "ReadIOPS", dims, "Average", 60,
                12.0 + random.nextInt(5), "Count/Second"));
        out.add(new CloudWatchPoint(series, rep, "cw@db-1", ts, "AWS/RDS", "WriteLatency", dims, "Average", 60,
                0.0011 + random.nextDouble() / 10_000, "Seconds"));
        out.add(new CloudWatchPoint(series, rep, "cw@db-1", ts, "AWS/RDS", "DiskQueueDepth", dims, "Average", 60,
                1.2 + random.nextDouble(), "Count"));
        out.add(new CloudWatchPoint(series, rep, "cw@db-1", ts, "AWS/RDS", "CPUUtilization", dims, "Average", 60,
                31.0 + random.nextInt(10), "Percent"));
        return out;
    }
}
