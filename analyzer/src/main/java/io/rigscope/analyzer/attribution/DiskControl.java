package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.episode.Evidence;
import io.rigscope.analyzer.telemetry.TelemetryStream;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.Waits;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The disk control, checked before an IO cause ({@code vacuum_storm}, {@code wal_pool}, {@code storage},
 * {@code cache_ram}) is named: could the disk itself have stopped? Met by the first of these that holds
 * (docs/attribution.md, Controls):
 * <ol>
 *   <li>the disk canary ({@code rig.canary}) over the episode (its stalls are {@link HostIoRule}'s);</li>
 *   <li>the device view ({@code rig.os}, from Enhanced Monitoring or /proc) at 1-s resolution: for every second
 *       {@code s} of the episode a record stamped in {@code [s, s + 2)}; in every such second in which Postgres had
 *       writes (WAL bytes in a {@code rig.db} sample, or sessions on a write wait in {@code rig.waits}, stamped in
 *       the same window) the device completed writes (write IO/s above 0, all devices), and in every second in
 *       which sessions waited on {@code IO:DataFileRead} it completed reads; and Postgres wrote or read in at
 *       least one of them.</li>
 * </ol>
 * A host stall is the device completing nothing while Postgres has IO waiting: that fails the control. A device
 * idle while Postgres did no IO proves nothing about the disk: not met. A stall shorter than the device view's
 * second can hide inside it; only the canary sees those. Pure.
 */
final class DiskControl {

    /** Wait events of a backend whose write is waiting on the device (or on one in progress). */
    static final Set<String> WRITES = writes();

    private DiskControl() {
    }

    private static Set<String> writes() {
        Set<String> s = new HashSet<>(WaitProfile.WAL);
        s.addAll(WaitProfile.WAL_INIT);
        s.addAll(WaitProfile.DATA_SYNC);
        s.addAll(Set.of("IO:DataFileWrite", "IO:DataFileExtend", "IO:WALBootstrapWrite", "IO:WALBootstrapSync",
                "IO:BufFileWrite"));
        return Set.copyOf(s);
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
        int withIo = 0;
        double lowestWriteIops = Double.MAX_VALUE;
        long lowestTs = start * 1_000_000L;
        boolean walFromSampler = false;
        boolean fromWaits = false;
        for (long s = start; s < end; s++) {
            List<OsMetrics> os = t.records(TelemetryStream.OS, s, s + 2, OsMetrics.class);
            if (os.isEmpty()) {
                return Control.notMet(new Evidence("rig.canary", noCanary + "; the device view (rig.os) has no record "
                        + "for second " + s + " of it, a host IO stall cannot be ruled out"));
            }
            double writeIops = 0;
            double readIops = 0;
            for (OsMetrics.DiskIO d : os.get(0).diskIO()) {
                writeIops += d.writeIOsPS();
                readIops += d.readIOsPS();
            }
            boolean walWritten = false;
            for (DbSample d : t.records(TelemetryStream.DB, s, s + 2, DbSample.class)) {
                walWritten |= d.wal() != null && d.wal().bytes() > 0;
            }
            WaitProfile waits = new WaitProfile(t.records(TelemetryStream.WAITS, s, s + 2, Waits.class));
            boolean writesWaiting = waits.sessions(WRITES) > 0;
            boolean readsWaiting = waits.sessions(WaitProfile.DATA_READ) > 0;
            if ((walWritten || writesWaiting) && writeIops <= 0) {
                return Control.notMet(Evidence.measured("rig.os", os.get(0).ts(), "device_write_iops", 0, "IO/s",
                        "control failed: the device completed no writes in second " + s + " while Postgres had writes "
                                + (walWritten ? "(WAL bytes in rig.db)" : "waiting (" + waits.describe(WRITES) + ")")
                                + ": a host IO stall"));
            }
            if (readsWaiting && readIops <= 0) {
                return Control.notMet(Evidence.measured("rig.os", os.get(0).ts(), "device_read_iops", 0, "IO/s",
                        "control failed: the device completed no reads in second " + s + " while sessions waited on "
                                + "IO:DataFileRead: a host IO stall"));
            }
            if (walWritten || writesWaiting || readsWaiting) {
                withIo++;
                walFromSampler |= walWritten;
                fromWaits |= writesWaiting || readsWaiting;
                if (writeIops + readIops < lowestWriteIops) {
                    lowestWriteIops = writeIops + readIops;
                    lowestTs = os.get(0).ts();
                }
            }
        }
        if (withIo == 0) {
            return Control.notMet(new Evidence("rig.canary", noCanary + "; Postgres did no IO over it (no WAL bytes in "
                    + "rig.db, no session on an IO wait in rig.waits): the device view cannot show the disk working"));
        }
        String postgres = walFromSampler && fromWaits ? "WAL bytes in rig.db, IO waits in rig.waits"
                : walFromSampler ? "WAL bytes in rig.db" : "IO waits in rig.waits";
        return Control.bySubstitute(Evidence.measured("rig.os", lowestTs, "device_iops_lowest",
                WaitProfile.round(lowestWriteIops), "IO/s", "disk control by the device view (rig.os): in each of the "
                        + withIo + " second(s) of the episode with Postgres doing IO (" + postgres + ") the device "
                        + "completed IO, at least " + WaitProfile.round(lowestWriteIops) + " IO/s"));
    }
}
