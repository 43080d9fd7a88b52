package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.Waits;
import java.util.Set;

/**
 * The disk control, checked before an IO cause ({@code vacuum_storm}, {@code wal_pool}, {@code storage},
 * {@code cache_ram}) is named: could the disk itself have stopped? Met by the first of these that holds
 * (docs/attribution.md, Controls):
 * <ol>
 *   <li>the disk canary ({@code rig.canary}) over the episode (its stalls are {@link HostIoRule}'s);</li>
 *   <li>the device view ({@code rig.os}, from Enhanced Monitoring or /proc) at 1-s resolution: for every second
 *       {@code s} of the episode a record stamped in {@code [s, s + 2)}; for every record stamped in
 *       {@code [start, end + 1)}, in second {@code q}, when Postgres had writes then (WAL bytes in a {@code rig.db}
 *       sample, or sessions on a sync wait ({@link #SYNCS}) in {@code rig.waits}, stamped in {@code [q - 1, q + 1)})
 *       the device completed writes (write IO/s above 0, all devices); and Postgres wrote at the time of at least
 *       one of them.</li>
 * </ol>
 * A host stall is the device completing nothing while Postgres has writes waiting: that fails the control. A
 * device idle while Postgres wrote nothing proves nothing about the disk: not met. Reads are not looked at: a
 * read wait may be served by the page cache. A stall shorter than the device view's
 * second can hide inside it; only the canary sees those. Pure.
 */
final class DiskControl {

    /**
     * Wait events that a device must complete writes to end: a sync of WAL or data files, a segment being
     * zero-filled and synced, or the lock a committer holds while it flushes WAL. A plain {@code write()}
     * ({@code IO:WALWrite}, {@code IO:DataFileWrite}) or a read may be served by the OS page cache without the
     * device, so those prove nothing either way.
     */
    static final Set<String> SYNCS = Set.of("IO:WALSync", "IO:WALInitSync", "IO:DataFileSync", "IO:DataFileFlush",
            "LWLock:WALWrite");

    private DiskControl() {
    }

    static Control check(EpisodeScene scene) {
        if (scene.covered(TelemetryStream.CANARY)) {
            return Control.byOwnStream();
        }
        var t = scene.telemetry();
        long start = scene.startSec();
        long end = scene.endSec();
        String noCanary = "control missing: no disk canary over the episode";
        if (!scene.covered(TelemetryStream.OS)) {
            return Control.notMet(new Evidence("rig.canary", noCanary + " and no device view (rig.os), a host IO "
                    + "stall cannot be ruled out"));
        }
        if (t.toleranceSec(TelemetryStream.OS) > 2) {
            return Control.notMet(new Evidence("rig.canary", noCanary + "; the device view (rig.os) is coarser than "
                    + "1 s (joined within ±" + t.toleranceSec(TelemetryStream.OS) + " s), a host IO stall cannot be "
                    + "ruled out"));
        }
        for (long s = start; s < end; s++) {
            if (t.records(TelemetryStream.OS, s, s + 2, OsMetrics.class).isEmpty()) {
                return Control.notMet(new Evidence("rig.canary", noCanary + "; the device view (rig.os) has no record "
                        + "for second " + s + " of it, a host IO stall cannot be ruled out"));
            }
        }
        int withIo = 0;
        Evidence stalled = null;
        int stalledSeconds = 0;
        double lowestWriteIops = Double.MAX_VALUE;
        long lowestTs = start * 1_000_000L;
        boolean walFromSampler = false;
        boolean fromWaits = false;
        for (OsMetrics os : t.records(TelemetryStream.OS, start, end + 1, OsMetrics.class)) {
            // the record describes the second up to its stamp; Postgres's side of it is what the sampler and the
            // waits stamped in the second before it and in its own
            long q = Math.floorDiv(os.ts(), 1_000_000L);
            double writeIops = 0;
            for (OsMetrics.DiskIO d : os.diskIO()) {
                writeIops += d.writeIOsPS();
            }
            boolean walWritten = false;
            for (DbSample d : t.records(TelemetryStream.DB, q - 1, q + 1, DbSample.class)) {
                walWritten |= d.wal() != null && d.wal().bytes() > 0;
            }
            WaitProfile waits = new WaitProfile(t.records(TelemetryStream.WAITS, q - 1, q + 1, Waits.class));
            boolean writesWaiting = waits.sessions(SYNCS) > 0;
            if ((walWritten || writesWaiting) && writeIops <= 0) {
                if (stalled == null) {
                    stalled = Evidence.measured("rig.os", os.ts(), "device_write_iops", 0, "IO/s",
                            "control failed: the device completed no writes in the second to " + q + " while Postgres "
                                    + "had writes " + (walWritten ? "(WAL bytes in rig.db)" : "waiting ("
                                    + waits.describe(SYNCS) + ")") + ": a host IO stall");
                }
                stalledSeconds++;
                continue;
            }
            if (walWritten || writesWaiting) {
                withIo++;
                walFromSampler |= walWritten;
                fromWaits |= writesWaiting;
                if (writeIops < lowestWriteIops) {
                    lowestWriteIops = writeIops;
                    lowestTs = os.ts();
                }
            }
        }
        // a host stall explains the seconds it lasted: it fails the control when those seconds are at least
        // attribution_cover_share of the episode's slow seconds, not for one silent second in a minute-long episode
        long slow = InstrumentControl.slowRuns(scene).stream().mapToLong(r -> r[1] - r[0]).sum();
        if (stalled != null && stalledSeconds >= scene.settings().coverShare() * slow) {
            return Control.notMet(stalled);
        }
        if (withIo == 0) {
            return Control.notMet(new Evidence("rig.canary", noCanary + "; Postgres wrote nothing over it (no WAL bytes in "
                    + "rig.db, no session on a sync wait in rig.waits): the device view cannot show the disk working"));
        }
        String postgres = walFromSampler && fromWaits ? "WAL bytes in rig.db, sync waits in rig.waits"
                : walFromSampler ? "WAL bytes in rig.db" : "sync waits in rig.waits";
        String aside = stalled == null ? "" : "; it completed none in " + stalledSeconds + " other second(s) of the "
                + "episode's " + slow + " slow ones (first: " + stalled.fact().replace("control failed: ", "")
                + "), too few to explain the episode";
        return Control.bySubstitute(Evidence.measured("rig.os", lowestTs, "device_write_iops_lowest",
                WaitProfile.round(lowestWriteIops), "IO/s", "disk control by the device view (rig.os): in each of its "
                        + withIo + " record(s) over the episode with Postgres writing (" + postgres + ") the device "
                        + "completed writes, at least " + WaitProfile.round(lowestWriteIops) + " write IO/s" + aside));
    }
}
