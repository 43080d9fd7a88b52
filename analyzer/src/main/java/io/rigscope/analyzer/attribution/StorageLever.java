package io.rigscope.analyzer.attribution;

import static io.rigscope.analyzer.scene.EpisodeScene.LeverContext.num;

import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Lever;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.OsMetrics;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code storage}: the IOPS and throughput the episode needed against what the volume delivered. In the rig.os record
 * over the episode with the deepest queue, on that device: delivered = its read + write IO/s; needed = what it
 * delivered plus the requests it left waiting, the queue above the device's own depth before the episode:
 * {@code delivered + max(0, avgQueueLen - queue before)}, where queue before is the median {@code avgQueueLen} of the
 * same device's records with IO in the 10 s before the episode; throughput needed = that x the episode record's
 * average request size. (Not Little's law on the await before: the await of the small requests before a burst says
 * nothing of how long the burst's requests take; on a 1 GB WAL segment's zero-fill, 1,610-KB requests queued 59 deep
 * against a 0.19-ms await before, it asked for 312,586 IOPS and 491 GB/s.)
 */
final class StorageLever implements LeverRule {

    @Override
    public Lever lever(Episode e, EpisodeScene scene, LeverContext ctx) {
        OsMetrics deepest = null;
        OsMetrics.DiskIO disk = null;
        for (OsMetrics os : scene.around(TelemetryStream.OS, OsMetrics.class)) {
            for (OsMetrics.DiskIO d : os.diskIO()) {
                if (disk == null || d.avgQueueLen() > disk.avgQueueLen()) {
                    deepest = os;
                    disk = d;
                }
            }
        }
        if (disk == null) {
            return Lever.notMeasured("no rig.os record over the episode: the IOPS delivered and needed were not "
                    + "measured (a 60-s CloudWatch point cannot size a few seconds' queue)");
        }
        String device = disk.device();
        List<Double> before = new ArrayList<>();
        for (OsMetrics os : scene.telemetry().records(TelemetryStream.OS, scene.startSec() - 11,
                scene.startSec() - 1, OsMetrics.class)) {
            for (OsMetrics.DiskIO d : os.diskIO()) {
                if (d.device().equals(device) && d.readIOsPS() + d.writeIOsPS() > 0) {
                    before.add(d.avgQueueLen());
                }
            }
        }
        double delivered = disk.readIOsPS() + disk.writeIOsPS();
        double deliveredMb = disk.readKbPS() / 1024 + disk.writeKbPS() / 1024;
        String seen = "rig.os " + device + " at its deepest over the episode: queue " + num(disk.avgQueueLen(), 1)
                + ", await " + num(disk.await(), 1) + " ms, busy " + num(disk.util(), 0) + " %, " + num(delivered, 0)
                + " IO/s delivered (" + num(deliveredMb, 1) + " MB/s, average request " + num(disk.avgReqSz(), 1)
                + " KB), " + scene.within(TelemetryStream.OS);
        if (before.isEmpty()) {
            return Lever.notMeasured(seen + "; the device's queue before the episode was not measured (no rig.os "
                    + "record with IO on " + device + " in the 10 s before it): the IOPS needed cannot be sized");
        }
        double queueBefore = Levers.median(before.stream().mapToDouble(Double::doubleValue).toArray());
        double waiting = Math.max(0, disk.avgQueueLen() - queueBefore);
        double needed = delivered + waiting;
        double neededMbPerSec = needed * disk.avgReqSz() / 1024;
        String why = seen + "; queue before the episode " + num(queueBefore, 2) + " (median of " + before.size()
                + " record(s)); needed = delivered + the requests left waiting (queue above its depth before) = "
                + num(delivered, 0) + " + (" + num(disk.avgQueueLen(), 1) + " - " + num(queueBefore, 2) + ") = "
                + num(needed, 0) + " IO/s, x " + num(disk.avgReqSz(), 1) + " KB = " + num(neededMbPerSec, 1) + " MB/s"
                + (disk.util() < 90 ? "; the device was busy " + num(disk.util(), 0) + " % of that second: the queue came "
                + "as a burst, not from a rate beyond what it sustains" : "");
        return Lever.action("provision the volume for at least " + num(needed, 0) + " IOPS and "
                + num(neededMbPerSec, 1) + " MB/s (it delivered " + num(delivered, 0) + " IO/s, " + num(deliveredMb, 1)
                + " MB/s, at queue " + num(disk.avgQueueLen(), 1) + ")", num(needed, 0) + " IOPS", why);
    }
}
