package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.model.wire.CloudWatchPoint;
import io.rigscope.model.wire.PgLogEvent;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The storage rule: a deep device queue at a checkpoint's sync, and what alone never names storage. A test with a
 * defining stream removed expects the cause to degrade (only most likely, or unattributed), never to stay attributed.
 */
class StorageRuleTest extends AttributionFixture {

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
}
