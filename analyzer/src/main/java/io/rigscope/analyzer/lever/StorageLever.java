package io.rigscope.analyzer.lever;

import static io.rigscope.analyzer.lever.LeverContext.num;

import io.rigscope.analyzer.attribution.EpisodeScene;
import io.rigscope.analyzer.episode.Episode;
import io.rigscope.analyzer.episode.Lever;
import io.rigscope.analyzer.telemetry.TelemetryStream;
import io.rigscope.model.wire.OsMetrics;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code storage}: the IOPS and throughput the episode needed against what the volume delivered. In the rig.os record
 * over the episode with the deepest queue, on that device: delivered = its read + write IO/s; needed = the queue
 * served at the device's own await before the episode (Little's law: IO/s = requests in flight / time per request):
 * {@code avgQueueLen / (await before / 1000)}, where await before is the median await of the same device's records
 * with IO in the 10 s before the episode; throughput needed = that x the average request size.
 */
final class StorageLever implements Levers.LeverRule {

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
                if (d.device().equals(device) && d.readIOsPS() + d.writeIOsPS() > 0 && d.await() > 0) {
                    before.add(d.await());
                }
            }
        }
        double delivered = disk.readIOsPS() + disk.writeIOsPS();
        String seen = "rig.os " + device + " at its deepest over the episode: queue " + num(disk.avgQueueLen(), 1)
                + ", await " + num(disk.await(), 1) + " ms, " + num(delivered, 0) + " IO/s delivered ("
                + num(disk.readKbPS() / 1024 + disk.writeKbPS() / 1024, 1) + " MB/s, average request "
                + num(disk.avgReqSz(), 1) + " KB), " + scene.within(TelemetryStream.OS);
        if (before.isEmpty()) {
            return Lever.notMeasured(seen + "; the device's await before the episode was not measured (no rig.os "
                    + "record with IO on " + device + " in the 10 s before it): the IOPS needed cannot be sized");
        }
        double awaitBeforeMs = Levers.median(before.stream().mapToDouble(Double::doubleValue).toArray());
        double needed = disk.avgQueueLen() / (awaitBeforeMs / 1000.0);
        double neededMbPerSec = needed * disk.avgReqSz() / 1024;
        String why = seen + "; await before the episode " + num(awaitBeforeMs, 2) + " ms (median of " + before.size()
                + " record(s)); needed = queue / await before = " + num(disk.avgQueueLen(), 1) + " / "
                + num(awaitBeforeMs / 1000.0, 5) + " s = " + num(needed, 0) + " IO/s, x " + num(disk.avgReqSz(), 1)
                + " KB = " + num(neededMbPerSec, 1) + " MB/s";
        return Lever.action("provision the volume for at least " + num(needed, 0) + " IOPS and "
                + num(neededMbPerSec, 1) + " MB/s (it delivered " + num(delivered, 0) + " IO/s at queue "
                + num(disk.avgQueueLen(), 1) + ")", num(needed, 0) + " IOPS", why);
    }
}
