package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.config.AttributionSettings;
import io.rigscope.analyzer.episode.Cause;
import io.rigscope.analyzer.episode.Confidence;
import io.rigscope.analyzer.episode.Episode;
import io.rigscope.analyzer.episode.Evidence;
import io.rigscope.analyzer.freeze.Cadence;
import io.rigscope.analyzer.second.SecondLedger;
import io.rigscope.analyzer.second.SecondStats;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.CloudWatchPoint;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Each cause's rule on evidence shaped as RDS delivers it (Enhanced Monitoring documents, Performance Insights
 * db.load by wait event, the RDS log's autovacuum and checkpoint lines, CloudWatch datapoints, as the collectors
 * map them onto the wire records), each with a defining stream removed (must degrade, never stay attributed),
 * and the controls.
 */
class AttributionTest {

    private static final String RUN = "rds-1";
    private static final long S = 1_796_032_800L;
    /** The episode: two freeze-seconds, [S+20, S+22). */
    private static final long START = S + 20;
    private static final long END = S + 22;
    private static final long REPEAT_P50_US = 2_000;

    private final List<WireRecord> telemetry = new ArrayList<>();
    private final NavigableMap<Long, double[]> health = new TreeMap<>();
    private boolean p50Lifted;
    private Cadence cadence = Cadence.of(List.of());

    // ---- the causes, attributed on complete evidence ----

    @Test
    void aVacuumWritingFullPageImagesWhileCommittersWaitOnWalIsAVacuumStorm() {
        cleanControls();
        p50Lifted = true;
        autovacuumEndingAt(END + 1, 12.0);
        piWaits(Map.of("LWLock:WALWrite", 31.0, "IO:WALSync", 9.0, "LWLock:WALInsert", 6.0, "CPU", 14.0));
        emDisk(6.0, 410.0, 25.0);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> ev.stream().equals("rig.pglog") && "wal_fpi".equals(ev.what())
                && ev.value() == 134_000.0);
        assertThat(e.evidence()).anyMatch(ev -> ev.stream().equals("rig.waits") && "wal_wait_share".equals(ev.what()));
    }

    @Test
    void withoutTheLogAndTheSamplerAVacuumStormIsOnlyMostLikely() {
        cleanControls();
        p50Lifted = true;
        piWaits(Map.of("LWLock:WALWrite", 31.0, "IO:WALSync", 9.0, "CPU", 14.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.missing()).contains("rig.pglog", "rig.db");
    }

    @Test
    void withoutEnhancedMonitoringAVacuumStormIsOnlyMostLikely() {
        cleanControls();
        p50Lifted = true;
        autovacuumEndingAt(END + 1, 12.0);
        piWaits(Map.of("LWLock:WALWrite", 31.0, "IO:WALSync", 9.0, "LWLock:WALInsert", 6.0, "CPU", 14.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.missing()).contains("rig.os");
    }

    @Test
    void theDisksViewIsReportedBesideTheVacuumStorm() {
        cleanControls();
        p50Lifted = true;
        autovacuumEndingAt(END + 1, 12.0);
        piWaits(Map.of("LWLock:WALWrite", 31.0, "IO:WALSync", 9.0, "LWLock:WALInsert", 6.0, "CPU", 14.0));
        emDisk(6.0, 410.0, 25.0);

        Episode e = attribute();
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anySatisfy(ev -> {
            assertThat(ev.stream()).isEqualTo("rig.os");
            assertThat(ev.value()).as("the helper writes 40 write IO/s below a queue of 100").isEqualTo(40.0);
            assertThat(ev.fact()).contains("average request 6.0-6.0 KB").contains("queue up to 25.0");
        });
    }

    @Test
    void withoutTheWaitsAVacuumWithTheP50LiftedIsOnlyMostLikely() {
        cleanControls();
        p50Lifted = true;
        autovacuumEndingAt(END + 1, 12.0);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.missing()).contains("rig.waits");
    }

    @Test
    void aBackendCreatingASegmentWithTheFileCountRisingAndNoVacuumIsTheWalPool() {
        cleanControls();
        piWaits(Map.of("IO:WALInitWrite", 0.6, "IO:WALInitSync", 0.3, "LWLock:WALWrite", 7.0, "CPU", 1.0));
        walFiles(40, 41);
        cadence = Cadence.of(List.of(S + 6, S + 13, START, S + 27));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.WAL_POOL);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "wal_files".equals(ev.what()) && ev.value() == 41.0);
        assertThat(e.evidence()).anyMatch(ev -> "freeze_cadence_s".equals(ev.what()) && ev.value() == 7.0);
    }

    @Test
    void withoutTheSamplerTheWalPoolIsOnlyMostLikely() {
        cleanControls();
        piWaits(Map.of("IO:WALInitWrite", 0.6, "LWLock:WALWrite", 7.0, "CPU", 1.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.WAL_POOL);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.missing()).contains("rig.db");
    }

    @Test
    void aVacuumRunningFailsTheWalPoolsControl() {
        cleanControls();
        piWaits(Map.of("IO:WALInitWrite", 0.6, "LWLock:WALWrite", 7.0, "CPU", 1.0));
        walFiles(40, 41);
        autovacuumEndingAt(END, 2.0);

        Episode e = attribute();
        // the vacuum's WAL with committers on WALWrite: the storm leads, the segment creation is the second cause
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.secondary()).isEqualTo(Cause.WAL_POOL);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.contains("also wal_pool (most_likely)")
                || f.startsWith("also wal_pool (most_likely)"));
    }

    @Test
    void mostSessionsOnRowLocksIsLockContention() {
        cleanControls();
        piWaits(Map.of("Lock:transactionid", 52.0, "LWLock:LockManager", 6.0, "CPU", 3.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> ev.fact().startsWith("58.0 of 61.0 active sessions on locks"));
    }

    @Test
    void withoutTheWaitsLockContentionCannotBeNamed() {
        cleanControls();

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.UNATTRIBUTED);
        assertThat(e.confidence()).isEqualTo(Confidence.UNATTRIBUTED);
        assertThat(e.missing()).contains("rig.waits");
    }

    @Test
    void aDeepQueueAtACheckpointsSyncIsStorageSaturation() {
        cleanControls();
        emDisk(6.0, 3_100.0, 180.0);
        piWaits(Map.of("IO:DataFileSync", 2.0, "IO:WALSync", 8.0, "CPU", 1.0));
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END, null, Map.of("sync_s", 4.2),
                "checkpoint complete: wrote 412000 buffers (78.6%); sync=4.200 s");

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.STORAGE);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "queue_depth".equals(ev.what()) && ev.value() == 180.0);
    }

    @Test
    void cloudWatchsQueueDepthAloneIsStorageOnlyMostLikely() {
        cleanControls();
        telemetry.add(new CloudWatchPoint(RUN, 1, "cw@db-1", (START - 30) * 1_000_000L, "AWS/RDS", "DiskQueueDepth",
                Map.of("DBInstanceIdentifier", "db-1"), "Average", 60, 210.0, "Count"));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.STORAGE);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
    }

    @Test
    void readsClimbingOnDataFileReadIsTheCacheOutOfRam() {
        cleanControls();
        piWaits(Map.of("IO:DataFileRead", 14.0, "CPU", 4.0));
        emDisk(8.0, 40.0, 6.0);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.CACHE_RAM);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
    }

    @Test
    void withoutHostStreamsTheCacheOutOfRamIsOnlyMostLikely() {
        cleanControls();
        piWaits(Map.of("IO:DataFileRead", 14.0, "CPU", 4.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.CACHE_RAM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
    }

    // ---- the controls ----

    @Test
    void aDiskCanaryStallAloneIsAHostIoStall() {
        healthClean();
        // a canary that measured its own run-queue wait (1 ms): the disk's share is 639 ms (HostIoRuleTest has
        // the CPU's side; an older canary without vmstat is only most_likely)
        telemetry.add(new Canary(RUN, 1, "canary@app-1", START * 1_000_000L + 999_000, "/rdsdbdata/canary", 60,
                640_000, 640_000, 128, Canary.RUNQ_SCHEDSTAT, 1_000L, 639_000L, 639_000L, 1_500L, 2));
        piWaits(Map.of("IO:WALSync", 3.0, "CPU", 1.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.HOST_IO);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "fsync_max_ms".equals(ev.what()) && ev.value() == 640.0);
    }

    @Test
    void aGeneratorPauseIsTheGeneratorNeverTheServer() {
        cleanControls();
        health.put(START, new double[] {480.0, 2.0, 500.0});
        piWaits(Map.of("Lock:transactionid", 52.0, "CPU", 3.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.GENERATOR);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.secondary()).isEqualTo(Cause.LOCK_CONTENTION);
    }

    @Test
    void withoutTheGeneratorsHealthAServerCauseIsOnlyMostLikely() {
        canaryClean();
        piWaits(Map.of("Lock:transactionid", 52.0, "CPU", 3.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
    }

    @Test
    void withoutTheDiskCanaryAnIoCauseIsOnlyMostLikely() {
        healthClean();
        p50Lifted = true;
        autovacuumEndingAt(END + 1, 12.0);
        piWaits(Map.of("LWLock:WALWrite", 31.0, "IO:WALSync", 9.0, "CPU", 14.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.missing()).contains("rig.canary");
    }

    @Test
    void aCanaryStallDuringAVacuumStormIsTheStormWithTheHostAsSecondary() {
        healthClean();
        canary(START, 380_000);
        p50Lifted = true;
        autovacuumEndingAt(END + 1, 12.0);
        piWaits(Map.of("LWLock:WALWrite", 31.0, "IO:WALSync", 9.0, "CPU", 14.0));
        emDisk(6.0, 410.0, 25.0);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.secondary()).isEqualTo(Cause.HOST_IO);
    }

    @Test
    void everyRuleStatesItsFingerprint() {
        for (CauseRule r : Attribution.standard().rules()) {
            assertThat(r.fingerprint()).as(r.cause().code()).isNotBlank();
        }
        assertThat(Attribution.standard().rules()).extracting(CauseRule::cause).containsExactlyInAnyOrder(
                Cause.GENERATOR, Cause.VACUUM_STORM, Cause.WAL_POOL, Cause.LOCK_CONTENTION, Cause.STORAGE,
                Cause.CACHE_RAM, Cause.HOST_IO);
    }

    // ---- the scene ----

    private Episode attribute() {
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
                cadence, AttributionSettings.defaults()));
    }

    private void cleanControls() {
        healthClean();
        canaryClean();
    }

    private void healthClean() {
        for (long sec = S; sec < S + 30; sec++) {
            health.put(sec, new double[] {1.0, 0.5, 3.0});
        }
    }

    private void canaryClean() {
        for (long sec = S; sec < S + 30; sec++) {
            canary(sec, 900);
        }
    }

    private void canary(long sec, long fsyncMaxUs) {
        telemetry.add(new Canary(RUN, 1, "canary@app-1", sec * 1_000_000L + 999_000, "/rdsdbdata/canary", 190,
                fsyncMaxUs, Math.min(fsyncMaxUs, 400), fsyncMaxUs > 5_000 ? (int) (fsyncMaxUs / 5_000) : 0));
    }

    /** Performance Insights db.load.avg by db.wait_event, one a second around the episode. */
    private void piWaits(Map<String, Double> load) {
        for (long sec = START - 3; sec < END + 3; sec++) {
            telemetry.add(new Waits(RUN, 1, "pi@db-1", sec * 1_000_000L, 1, load));
        }
    }

    /** An Enhanced Monitoring document every 5 s: rdsdev's read/write IOPS and queue. */
    private void emDisk(double avgReqSzKb, double iops, double queue) {
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
    private void autovacuumEndingAt(long endSec, double elapsedSec) {
        rdsLog(PgLogEvent.Kind.AUTOVACUUM, endSec, "rdsdb.public.usage_events",
                Map.of("wal_fpi", 134_000.0, "wal_bytes", 1.1e9, "wal_records", 180_000.0, "elapsed_s", elapsedSec),
                "automatic vacuum of table \"rdsdb.public.usage_events\": index scans: 0");
    }

    private void rdsLog(PgLogEvent.Kind kind, long sec, String table, Map<String, Double> metrics, String message) {
        telemetry.add(new PgLogEvent(RUN, 1, "rdslog@db-1", sec * 1_000_000L, kind, 4411, table, metrics, message));
    }

    private void walFiles(int before, int after) {
        for (long sec = START - 5; sec < END + 3; sec++) {
            int files = sec < START + 1 ? before : after;
            telemetry.add(new DbSample(RUN, 1, "db@db-1", sec * 1_000_000L, 150018, 1000,
                    new DbSample.Wal(1000, 10, 3_000_000, 0), null, new DbSample.WalDir(files, files * 16_777_216L),
                    List.of(), List.of(), null, null));
        }
    }
}
