package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.Waits;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The disk control: without the disk canary, or a device view that stands in for it, an I/O cause is only most likely.
 */
class DiskControlTest extends AttributionFixture {

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
}
