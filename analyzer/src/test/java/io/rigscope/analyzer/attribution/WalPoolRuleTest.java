package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.Waits;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The WAL-pool rule: a backend creating a WAL segment in the freeze (the file count rising, a write burst of a
 * segment), what never names it, and its control. A test with a defining stream removed expects the cause to degrade
 * (only most likely, or unattributed), never to stay attributed.
 */
class WalPoolRuleTest extends AttributionFixture {

    @Test
    void aBackendCreatingASegmentWithTheFileCountRisingAndNoVacuumIsTheWalPool() {
        cleanControls();
        piWaits(Map.of("IO:WALInitWrite", 0.6, "IO:WALInitSync", 0.3, "LWLock:WALWrite", 7.0, "CPU", 1.0));
        walFiles(40, 41);
        cadence = FreezeRule.cadence(List.of(S + 6, S + 13, START, S + 27));

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
        cadence = FreezeRule.cadence(List.of(S + 6, S + 13, START, S + 27));
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
        cadence = FreezeRule.cadence(List.of(START - 16, START - 8, START, START + 8));
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
        cadence = FreezeRule.cadence(List.of(START - 16, START - 8, START, START + 8));
        emWriteBursts(64, START - 8, START, START + 8);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.WAL_POOL);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
    }

    @Test
    void aWriteBurstOutOfStepWithTheFreezesNeverNamesTheWalPool() {
        cleanControls();
        piWaits(Map.of("LWLock:WALWrite", 15.0));
        cadence = FreezeRule.cadence(List.of(START - 16, START - 8, START, START + 8));
        emWriteBursts(64, START);

        assertThat(attribute().cause()).isNotEqualTo(Cause.WAL_POOL);
    }

    @Test
    void aWriteBurstWithTheSessionsOnLocksOrACheckpointCompletingNeverNamesTheWalPool() {
        cleanControls();
        piWaits(Map.of("Lock:transactionid", 12.0, "LWLock:WALWrite", 1.0));
        cadence = FreezeRule.cadence(List.of(START - 16, START - 8, START, START + 8));
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
        cadence = FreezeRule.cadence(List.of(START - 16, START - 8, START, START + 8));
        emWriteBursts(64, START - 8, START, START + 8);
        environment.put("settings", Map.of("wal_segment_size", "1GB"));

        assertThat(attribute().cause()).isNotEqualTo(Cause.WAL_POOL);
    }

    @Test
    void aSingleFileRiseBesideFreezesWithTheWaitSamplesSilentNamesNothing() {
        // the demo of 2026-12-02 06:13: a fresh cluster's second segment beside a noisy repeat's freezes
        cleanControls();
        piWaits(Map.of("CPU", 0.25));
        cadence = FreezeRule.cadence(List.of(S + 12, S + 16, START, S + 24));
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
}
