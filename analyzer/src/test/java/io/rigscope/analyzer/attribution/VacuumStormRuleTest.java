package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The vacuum-storm rule: a vacuum writing full-page images while committers wait on WAL, on RDS-shaped evidence, and
 * how it degrades without each stream. A test with a defining stream removed expects the cause to degrade (only most
 * likely, or unattributed), never to stay attributed.
 */
class VacuumStormRuleTest extends AttributionFixture {

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
}
