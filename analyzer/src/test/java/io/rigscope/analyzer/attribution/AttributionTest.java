package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.scene.EpisodeScene;
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
import io.rigscope.model.wire.Vmstat;
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
    private AttributionSettings settings = AttributionSettings.defaults();
    private final NavigableMap<Long, double[]> health = new TreeMap<>();
    private boolean p50Lifted;
    private Cadence cadence = Cadence.of(List.of());
    private final Map<String, Object> environment = new java.util.LinkedHashMap<>(
            Map.of("settings", Map.of("wal_segment_size", "64MB")));

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
    void aSegmentCreatedInTheFreezesSecondWithCommittersOnWalIsTheWalPoolWithoutItsOwnWait() {
        // Performance Insights samples once a second: the creation's own IO:WALInitWrite was not caught
        cleanControls();
        piWaits(Map.of("LWLock:WALWrite", 7.0, "IO:WALSync", 1.0, "CPU", 1.0));
        walFilesEvery(1, 40, 41, new DbSample.Checkpoints(12, 3, 9_000, 100, 10));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.WAL_POOL);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "wal_files".equals(ev.what()) && ev.value() == 41.0
                && ev.fact().contains("between two 1-s samples"));
        assertThat(e.evidence()).anyMatch(ev -> "wal_wait_share".equals(ev.what()) && ev.value() >= 0.8);
    }

    @Test
    void aCheckpointCompletingBetweenTheTwoReadingsNeverLiftsTheFileRiseToTheWalPool() {
        // the checkpointer preallocates segments as it completes: the rise is not a backend's creation
        cleanControls();
        piWaits(Map.of("LWLock:WALWrite", 7.0, "IO:WALSync", 1.0, "CPU", 1.0));
        walFilesEvery(1, 40, 41, null);

        Episode e = attribute();
        assertThat(e.confidence()).isNotEqualTo(Confidence.ATTRIBUTED);
    }

    @Test
    void aFileRiseWithoutCommittersOnWalNeverNamesTheWalPool() {
        cleanControls();
        piWaits(Map.of("CPU", 6.0, "Client:ClientRead", 2.0));
        walFilesEvery(1, 40, 41, new DbSample.Checkpoints(12, 3, 9_000, 100, 10));

        Episode e = attribute();
        assertThat(e.cause()).isNotEqualTo(Cause.WAL_POOL);
    }

    @Test
    void aFileRiseInTheFreezeWithTheWaitSamplesMissingItInARhythmOfRisesIsOnlyMostLikely() {
        // a 0.5-s freeze can fall between two 1-s session samples: rises in step with the freezes place it
        cleanControls();
        piWaits(Map.of("CPU", 1.0));
        cadence = Cadence.of(List.of(S + 6, S + 13, START, S + 27));
        walFilesRising(START - 7, START, START + 7);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.WAL_POOL);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence()).anyMatch(ev -> ev.fact().contains("showed no committer on WAL"));
    }

    @Test
    void withoutTheSamplerAWriteBurstOfASegmentInStepWithTheFreezesIsTheWalPoolMostLikely() {
        // the held-out RDS directory without a DB sampler: PI's 1-s samples missed the init wait (a walwriter's own
        // creation never shows it), EM saw each 64-MB segment's zero-fill as a burst on the freezes' rhythm
        cleanControls();
        piWaits(Map.of("LWLock:WALWrite", 15.0, "IO:WALSync", 1.0, "Lock:transactionid", 3.0));
        cadence = Cadence.of(List.of(START - 16, START - 8, START, START + 8));
        emWriteBursts(64, START - 8, START, START + 8);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.WAL_POOL);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.missing()).contains("rig.db");
        assertThat(e.evidence()).anyMatch(ev -> ev.fact().contains("wal_segment_size 64 MB"))
                .anyMatch(ev -> ev.fact().contains("in step with the freezes every 8 s"));
    }

    @Test
    void aSessionOnCpuBesideTheBurstIsNoOtherCause() {
        // the held-out directory's sixth creation: PI's one sample near it had a single session on CPU
        cleanControls();
        piWaits(Map.of("CPU", 1.0));
        cadence = Cadence.of(List.of(START - 16, START - 8, START, START + 8));
        emWriteBursts(64, START - 8, START, START + 8);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.WAL_POOL);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
    }

    @Test
    void aWriteBurstOutOfStepWithTheFreezesNeverNamesTheWalPool() {
        cleanControls();
        piWaits(Map.of("LWLock:WALWrite", 15.0));
        cadence = Cadence.of(List.of(START - 16, START - 8, START, START + 8));
        emWriteBursts(64, START);

        assertThat(attribute().cause()).isNotEqualTo(Cause.WAL_POOL);
    }

    @Test
    void aWriteBurstWithTheSessionsOnLocksOrACheckpointCompletingNeverNamesTheWalPool() {
        cleanControls();
        piWaits(Map.of("Lock:transactionid", 12.0, "LWLock:WALWrite", 1.0));
        cadence = Cadence.of(List.of(START - 16, START - 8, START, START + 8));
        emWriteBursts(64, START - 8, START, START + 8);
        assertThat(attribute().cause()).isNotEqualTo(Cause.WAL_POOL);

        telemetry.removeIf(r -> r instanceof Waits);
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, START + 1, null, Map.of("sync_s", 0.2, "write_s", 3.0),
                "checkpoint complete: wrote 3000 buffers (2.3%)");
        assertThat(attribute().cause()).isNotEqualTo(Cause.WAL_POOL);
    }

    @Test
    void aWriteBurstSmallerThanHalfASegmentNeverNamesTheWalPool() {
        cleanControls();
        cadence = Cadence.of(List.of(START - 16, START - 8, START, START + 8));
        emWriteBursts(64, START - 8, START, START + 8);
        environment.put("settings", Map.of("wal_segment_size", "1GB"));

        assertThat(attribute().cause()).isNotEqualTo(Cause.WAL_POOL);
    }

    @Test
    void aSingleFileRiseBesideFreezesWithTheWaitSamplesSilentNamesNothing() {
        // the demo of 2026-12-02 06:13: a fresh cluster's second segment beside a noisy repeat's freezes
        cleanControls();
        piWaits(Map.of("CPU", 0.25));
        cadence = Cadence.of(List.of(S + 12, S + 16, START, S + 24));
        walFilesRising(START);

        Episode e = attribute();
        assertThat(e.cause()).isNotEqualTo(Cause.WAL_POOL);
    }

    @Test
    void aFileRiseSeenBySamplesFiveSecondsApartCannotBePlacedInTheFreeze() {
        cleanControls();
        piWaits(Map.of("LWLock:WALWrite", 7.0, "IO:WALSync", 1.0, "CPU", 1.0));
        walFilesEvery(5, 40, 41, new DbSample.Checkpoints(12, 3, 9_000, 100, 10));

        Episode e = attribute();
        assertThat(e.confidence()).isNotEqualTo(Confidence.ATTRIBUTED);
    }

    @Test
    void aSmallTablesVacuumBesideAnotherSessionsWalIsNeverTheStorm() {
        // the rds calibration's wal-pool case: a 612-page autovacuum while a side session wrote 60 MB/s of WAL
        cleanControls();
        p50Lifted = true;
        piWaits(Map.of("LWLock:WALWrite", 12.0, "IO:WALSync", 2.0, "CPU", 2.0));
        emPerSecond(800, 5, 2, 3);
        vacuumRunning(612, 0, 60_000_000);

        Episode e = attribute();
        assertThat(e.cause()).isNotEqualTo(Cause.VACUUM_STORM);
        assertThat(e.evidence()).noneMatch(ev -> "vacuum_heap_blks_scanned".equals(ev.what()));
    }

    @Test
    void aLargeTablesVacuumRunningWithAFullPageImageBurstIsTheStorm() {
        cleanControls();
        p50Lifted = true;
        piWaits(Map.of("LWLock:WALWrite", 12.0, "IO:WALSync", 2.0, "CPU", 2.0));
        emPerSecond(800, 5, 2, 3);
        vacuumRunning(327_000, 30_000, 250_000_000);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "vacuum_heap_blks_scanned".equals(ev.what())
                && ev.fact().contains("of 327000"));
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
    void withoutADeviceViewACheckpointsSlowFileSyncOverTheEpisodeIsStorageMostLikely() {
        // k6, the log and CloudWatch only (no EM, no PI): the held-out set's d12 was unattributed before
        cleanControls();
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END + 1, null,
                Map.of("sync_s", 9.104, "sync_longest_s", 8.212, "sync_files", 58.0),
                "checkpoint complete: wrote 22960 buffers (4.6%); sync=9.104 s; sync files=58, longest=8.212 s");

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.STORAGE);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence()).anyMatch(ev -> "checkpoint_sync_longest_s".equals(ev.what()) && ev.value() == 8.212);
        assertThat(e.missing()).contains("rig.os");
    }

    @Test
    void aCheckpointWhoseFileSyncsWereQuickNeverNamesStorage() {
        cleanControls();
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END + 1, null,
                Map.of("sync_s", 0.4, "sync_longest_s", 0.05, "sync_files", 58.0),
                "checkpoint complete: wrote 22960 buffers (4.6%); sync=0.400 s; sync files=58, longest=0.050 s");

        Episode e = attribute();
        assertThat(e.cause()).isNotEqualTo(Cause.STORAGE);
    }

    @Test
    void withADeviceViewShowingNoQueueTheCheckpointsLogLineAloneNeverNamesStorage() {
        cleanControls();
        emPerSecond(200, 5, 0.5, 1.0);
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END + 1, null,
                Map.of("sync_s", 9.104, "sync_longest_s", 8.212, "sync_files", 58.0),
                "checkpoint complete: wrote 22960 buffers (4.6%); sync=9.104 s; sync files=58, longest=8.212 s");

        Episode e = attribute();
        assertThat(e.cause()).isNotEqualTo(Cause.STORAGE);
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
    void withoutTheGeneratorsHealthOrAnyLoadBeforeTheEpisodeAServerCauseIsOnlyMostLikely() {
        canaryClean();
        // the waits start with the episode: nothing to compare the sessions with, so they cannot stand in for it
        piWaitsFrom(START - 1, Map.of("Lock:transactionid", 52.0, "CPU", 3.0));

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

    // ---- the controls, met by what the platform has ----

    @Test
    void sessionsPilingUpAboveTheirLevelBeforeStandInForTheGeneratorsHealth() {
        canaryClean();
        piWaitsFrom(START - 12, Map.of("CPU", 2.0));
        piWaitsFrom(START - 1, Map.of("Lock:transactionid", 52.0, "LWLock:LockManager", 6.0, "CPU", 3.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anySatisfy(ev -> {
            assertThat(ev.stream()).isEqualTo("rig.waits");
            assertThat(ev.what()).isEqualTo("sessions_lowest");
            assertThat(ev.fact()).isEqualTo("instrument control by server-side load (rig.waits): 3 of the 3 second(s) "
                    + "from one before each slow run to its end above 50.0 % of 2.0 (median) in the quietest 10 s "
                    + "of the 60 s before the episode (from second " + (START - 12) + "), the lowest 61.0: load kept "
                    + "arriving");
        });
    }

    @Test
    void theServerIdleThroughAGeneratorStallNeverLiftsTheCap() {
        // k6 evidence: no rig.health; the sessions fall to 0 while the generator is stalled. A deep queue at a
        // checkpoint fits storage, but the load may not have been arriving: the DB is never blamed with confidence
        canaryClean();
        piWaitsFrom(START - 12, Map.of("CPU", 4.0, "IO:DataFileSync", 1.0));
        piWaitsFrom(START - 1, Map.of());
        emPerSecond(3_100.0, 0.0, 180.0, 45.0);
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END, null, Map.of("sync_s", 4.2),
                "checkpoint complete: wrote 412000 buffers (78.6%); sync=4.200 s");

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.STORAGE);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.startsWith("control missing: no "
                + "generator health over the episode; active sessions at 0 or under 50.0 % of 5.0 (median) in the "
                + "quietest 10 s of the 60 s before the episode (from second " + (START - 12) + ") in 3 of the 3 "
                + "second(s) from one before each slow run to its end, down to 0.0 in second " + (START - 1)
                + " (rig.waits): load may have stopped arriving"));
    }

    @Test
    void commitsContinuingThroughTheEpisodeStandInForTheGeneratorsHealth() {
        canaryClean();
        emPerSecond(3_100.0, 0.0, 180.0, 45.0);
        dbPerSecond(2_000_000, 400, 0);
        dbPerSecond(2_000_000, 150, START);
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END, null, Map.of("sync_s", 4.2),
                "checkpoint complete: wrote 412000 buffers (78.6%); sync=4.200 s");

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.STORAGE);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "commits_per_s_lowest".equals(ev.what()) && ev.value() == 150.0
                && ev.fact().startsWith("instrument control by commits continuing (rig.db)"));
    }

    @Test
    void commitsStoppingThroughTheEpisodeNeverLiftTheCap() {
        canaryClean();
        emPerSecond(3_100.0, 0.0, 180.0, 45.0);
        dbPerSecond(2_000_000, 400, 0);
        dbPerSecond(0, 0, START);
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END, null, Map.of("sync_s", 4.2),
                "checkpoint complete: wrote 412000 buffers (78.6%); sync=4.200 s");

        Episode e = attribute();
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.contains("commits fell to 0.0/s from "
                + "400.0/s before it (rig.db)"));
    }

    @Test
    void theGeneratorHostsVmstatStandsInForTheGeneratorsHealth() {
        canaryClean();
        settings = settings.withGeneratorHosts(List.of("load-1"));
        vmstatPerSecond("vmstat@load-1", 62, 0);
        piWaitsFrom(START - 1, Map.of("Lock:transactionid", 52.0, "CPU", 3.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "generator_host_idle_pct".equals(ev.what()) && ev.fact().startsWith(
                "instrument control by the generator host's vmstat (vmstat@load-1): CPU idle at least 62 %, steal 0"));
    }

    @Test
    void anotherHostsVmstatNeverLiftsTheCapAndAGeneratorHostWithStealNamesTheGenerator() {
        canaryClean();
        settings = settings.withGeneratorHosts(List.of("load-1"));
        vmstatPerSecond("vmstat@db-1", 62, 0);
        piWaitsFrom(START - 1, Map.of("Lock:transactionid", 52.0, "CPU", 3.0));
        assertThat(attribute().confidence()).isEqualTo(Confidence.MOST_LIKELY);

        // steal on the generator's host: the instrument may have been starved; it ranks first, the locks beside it
        vmstatPerSecond("vmstat@load-1", 62, 7);
        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.GENERATOR);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.secondary()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.equals("the generator host "
                + "vmstat@load-1 had CPU idle 62 % (us 31, sy 0, steal 7 %, run queue 1), within ±2 s: the instrument "
                + "may have been starved"));
    }

    @Test
    void theDeviceCompletingWritesInStepWithPostgresStandsInForTheCanary() {
        healthClean();
        p50Lifted = true;
        autovacuumEndingAt(END + 1, 12.0);
        piWaits(Map.of("LWLock:WALWrite", 31.0, "IO:WALSync", 9.0, "LWLock:WALInsert", 6.0, "CPU", 14.0));
        emPerSecond(410.0, 0.0, 25.0, 8.0);
        dbPerSecond(90_000_000, 300, 0);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.missing()).contains("rig.canary");
        assertThat(e.evidence()).anyMatch(ev -> "device_write_iops_lowest".equals(ev.what()) && ev.value() == 410.0
                && ev.fact().equals("disk control by the device view (rig.os): in each of its 3 record(s) over the "
                + "episode with Postgres writing (WAL bytes in rig.db, sync waits in rig.waits) the device completed "
                + "writes, at least 410.0 write IO/s"));
    }

    @Test
    void theDeviceCompletingNothingWhilePostgresWroteNothingNeverLiftsTheCap() {
        healthClean();
        // the device's queue is deep but it completes nothing, and Postgres wrote nothing: no proof the disk works
        emPerSecond(0.0, 0.0, 180.0, 45.0);
        dbPerSecond(0, 0, 0);
        piWaits(Map.of("CPU", 3.0));
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END, null, Map.of("sync_s", 4.2),
                "checkpoint complete: wrote 412000 buffers (78.6%); sync=4.200 s");

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.STORAGE);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.contains("Postgres wrote nothing over it"));
    }

    @Test
    void theDeviceCompletingNothingWhilePostgresHasWritesWaitingFailsTheDiskControl() {
        healthClean();
        p50Lifted = true;
        autovacuumEndingAt(END + 1, 12.0);
        piWaits(Map.of("LWLock:WALWrite", 31.0, "IO:WALSync", 9.0, "CPU", 14.0));
        emPerSecond(0.0, 0.0, 1.0, 0.0);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.equals("control failed: the device "
                + "completed no writes in the second to " + START + " while Postgres had writes waiting (IO:WALSync 9.0, "
                + "LWLock:WALWrite 31.0): a host IO stall"));
    }

    @Test
    void oneSilentDeviceSecondInAMinuteLongStormDoesNotFailTheDiskControl() {
        // the rds calibration's vacuum-storm (2026-12-02 05:31): the device completed nothing in the second the
        // volume's cap was set, then wrote through 48 freeze-seconds of the storm
        healthClean();
        p50Lifted = true;
        autovacuumEndingAt(START + 20, 20.0);
        for (long sec = S; sec < S + 50; sec++) {
            telemetry.add(new Waits(RUN, 1, "pi@db-1", sec * 1_000_000L, 1,
                    Map.of("LWLock:WALWrite", 12.0, "IO:WALSync", 2.0, "CPU", 1.0)));
            double iops = sec == START + 1 ? 0.0 : 700.0;
            telemetry.add(new OsMetrics(RUN, 1, "em@db-1", sec * 1_000_000L, "POSTGRES",
                    new OsMetrics.Cpu(20, 5, 30, 0, 0, 0, 0, 45, 55),
                    new OsMetrics.Memory(16_000_000, 400_000, 9_000_000, 100_000, 80_000, 0, 8_000_000, 4_000_000),
                    new OsMetrics.LoadAverage(9, 6, 4),
                    List.of(new OsMetrics.DiskIO("rdsdev", 5, iops, 40, iops * 90, 90.0, 1.0, 1.0, 99.0)), List.of()));
        }

        Episode e = attributeLong(START, START + 20, 5_000.0);
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.contains("it completed none in 1 other "
                + "second(s) of the episode's 20 slow ones") && f.contains("too few to explain the episode"));
    }

    @Test
    void aShortGeneratorStallInALongEpisodeRanksAfterAServerCauseAsSure() {
        // a 206-ms pause cannot explain 20 freeze-seconds with a 5-s worst request: the vacuum leads, both most likely
        healthClean();
        health.put(START + 1, new double[] {206.0, 2.0, 300.0});
        p50Lifted = true;
        autovacuumEndingAt(START + 20, 20.0);
        for (long sec = S; sec < S + 50; sec++) {
            telemetry.add(new Waits(RUN, 1, "pi@db-1", sec * 1_000_000L, 1,
                    Map.of("LWLock:WALWrite", 12.0, "IO:WALSync", 2.0, "CPU", 1.0)));
        }

        Episode e = attributeLong(START, START + 20, 5_000.0);
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.secondary()).isEqualTo(Cause.GENERATOR);
    }

    @Test
    void aDeviceViewCoarserThanASecondNeverLiftsTheCap() {
        healthClean();
        p50Lifted = true;
        autovacuumEndingAt(END + 1, 12.0);
        piWaits(Map.of("LWLock:WALWrite", 31.0, "IO:WALSync", 9.0, "CPU", 14.0));
        emDisk(6.0, 410.0, 25.0);   // a document every 5 s

        Episode e = attribute();
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.contains("the device view (rig.os) is "
                + "coarser than 1 s"));
    }

    // ---- ranking by mechanism ----

    @Test
    void aLoggedVacuumBurstWithoutWaitsIsTheStormWithStorageAsItsMechanism() {
        // k6, vmstat, CloudWatch and the Postgres log: no Enhanced Monitoring, no Performance Insights
        healthClean();
        rdsLog(PgLogEvent.Kind.AUTOVACUUM, END + 1, "rdsdb.public.usage_events", Map.of("wal_fpi", 484_990.0,
                "wal_bytes", 3_826.0 * 1_048_576, "elapsed_s", 30.0), "automatic vacuum of table "
                + "\"rdsdb.public.usage_events\": index scans: 0");
        telemetry.add(new CloudWatchPoint(RUN, 1, "cw@db-1", (START - 30) * 1_000_000L, "AWS/RDS", "DiskQueueDepth",
                Map.of("DBInstanceIdentifier", "db-1"), "Average", 60, 210.0, "Count"));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.secondary()).isEqualTo(Cause.STORAGE);
        assertThat(e.missing()).contains("rig.waits", "rig.os");
        assertThat(e.evidence()).anyMatch(ev -> "wal_fpi".equals(ev.what()) && ev.value() == 484_990.0);
    }

    @Test
    void aVacuumBurstOutranksTheStorageItDrivesEvenWhenStorageIsSurer() {
        cleanControls();
        autovacuumEndingAt(END + 1, 12.0);
        piWaits(Map.of("IO:DataFileSync", 2.0, "IO:DataFileWrite", 3.0, "CPU", 6.0));
        emPerSecond(3_100.0, 0.0, 180.0, 45.0);
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END, null, Map.of("sync_s", 4.2),
                "checkpoint complete: wrote 412000 buffers (78.6%); sync=4.200 s");

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.secondary()).isEqualTo(Cause.STORAGE);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.startsWith("the disk at its ceiling is "
                + "the vacuum's WAL burst: storage is its mechanism"));
    }

    @Test
    void aCloudWatchPointNeverOutranksPerSecondEvidence() {
        cleanControls();
        piWaits(Map.of("IO:DataFileRead", 14.0, "CPU", 4.0));
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END, null, Map.of("sync_s", 4.2),
                "checkpoint complete: wrote 412000 buffers (78.6%); sync=4.200 s");
        telemetry.add(new CloudWatchPoint(RUN, 1, "cw@db-1", (START - 30) * 1_000_000L, "AWS/RDS", "DiskQueueDepth",
                Map.of("DBInstanceIdentifier", "db-1"), "Average", 60, 210.0, "Count"));

        Episode e = attribute();
        // cache_ram ranks after storage among equals, but the storage finding stands on one 60-s point
        assertThat(e.cause()).isEqualTo(Cause.CACHE_RAM);
        assertThat(e.secondary()).isEqualTo(Cause.STORAGE);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.startsWith("also storage (most_likely)"));
    }

    @Test
    void everyRuleStatesItsFingerprint() {
        for (CauseRule r : Attribution.standard().rules()) {
            assertThat(r.fingerprint()).as(r.cause().code()).isNotBlank();
        }
        assertThat(Attribution.standard().rules()).extracting(CauseRule::cause).containsExactlyInAnyOrder(
                Cause.GENERATOR, Cause.VACUUM_STORM, Cause.WAL_POOL, Cause.LOCK_CONTENTION, Cause.STORAGE,
                Cause.CACHE_RAM, Cause.HOST_IO, Cause.CONNECTION_POOL, Cause.SERVICE);
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
                cadence, settings, null, environment));
    }

    /** {@link #attribute()} for an episode of freeze-seconds {@code [start, end)} whose worst request took {@code worstMs}. */
    private Episode attributeLong(long start, long end, double worstMs) {
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

    /** Performance Insights db.load.avg by db.wait_event, one a second from {@code fromSec} to 3 s after the episode. */
    private void piWaitsFrom(long fromSec, Map<String, Double> load) {
        telemetry.removeIf(r -> r instanceof Waits w && w.ts() >= fromSec * 1_000_000L);
        for (long sec = fromSec; sec < END + 3; sec++) {
            telemetry.add(new Waits(RUN, 1, "pi@db-1", sec * 1_000_000L, 1, load));
        }
    }

    /** A 1-s Enhanced Monitoring document every second: rdsdev's write and read IOPS, queue and await. */
    private void emPerSecond(double writeIops, double readIops, double queue, double awaitMs) {
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
    private void emWriteBursts(int segmentMb, long... burstsAt) {
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
    private void dbPerSecond(long walBytes, long commits, long fromSec) {
        long from = fromSec == 0 ? S : fromSec;
        telemetry.removeIf(r -> r instanceof DbSample d && d.ts() > from * 1_000_000L);
        for (long sec = from; sec < S + 30; sec++) {
            telemetry.add(new DbSample(RUN, 1, "db@db-1", (sec + 1) * 1_000_000L, 150018, 1000,
                    new DbSample.Wal(walBytes / 1000, 0, walBytes, 0), null, null, List.of(), List.of(),
                    new DbSample.Database(commits, 0, 0, 1000), null));
        }
    }

    /** A vmstat line every second from {@code src}: CPU idle and steal, percent. */
    private void vmstatPerSecond(String src, int idlePct, int stealPct) {
        telemetry.removeIf(r -> r instanceof Vmstat v && v.src().equals(src));
        for (long sec = S; sec < S + 30; sec++) {
            telemetry.add(new Vmstat(RUN, 1, src, sec * 1_000_000L, 1, 0, 0, 18_000_000, 80_000, 4_000_000, 0, 0, 0,
                    500, 9_000, 14_000, 100 - idlePct - stealPct, 0, idlePct, 0, stealPct, null));
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

    /**
     * The DB sampler every {@code everySec} from 10 s before the episode: the file count rises in the episode's
     * first second; the checkpoint counters stay {@code steady}, or (null) a checkpoint completes in that interval.
     */
    private void walFilesEvery(int everySec, int before, int after, DbSample.Checkpoints steady) {
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
    private void vacuumRunning(long pages, long fpiPerSec, long walBytesPerSec) {
        for (long sec = S; sec < S + 30; sec++) {
            long scanned = Math.min(pages, (sec - S) * Math.max(1, pages / 40));
            telemetry.add(new DbSample(RUN, 1, "db@db-1", sec * 1_000_000L, 150018, 1000,
                    new DbSample.Wal(walBytesPerSec / 100, fpiPerSec, walBytesPerSec, 0), null, null,
                    List.of(new DbSample.VacuumProgress(7807, "usage_events", "scanning heap", pages, scanned, 0, 0)),
                    List.of(), new DbSample.Database(300, 0, 0, 1000), null));
        }
    }

    /** The DB sampler every second from S: the file count rises by one in each of {@code risesAt}'s seconds. */
    private void walFilesRising(long... risesAt) {
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
