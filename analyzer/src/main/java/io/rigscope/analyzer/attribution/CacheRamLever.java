package io.rigscope.analyzer.attribution;

import static io.rigscope.analyzer.scene.EpisodeScene.LeverContext.num;

import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Lever;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.OsMetrics;
import java.util.List;
import java.util.OptionalLong;

/**
 * {@code cache_ram}: the working set against RAM. A lower bound of the working set: what the caches held
 * (rig.os {@code memory.cached} at the episode's last record, plus {@code shared_buffers}) plus what was read from
 * the device over the episode (read KB/s of every device, each record standing for its second), which missed both.
 * RAM needed = the memory in other use ({@code total - free - cached}) + that bound, rounded up to whole GB.
 */
final class CacheRamLever implements LeverRule {

    @Override
    public Lever lever(Episode e, EpisodeScene scene, LeverContext ctx) {
        List<OsMetrics> records = scene.telemetry().records(TelemetryStream.OS, scene.startSec(), scene.endSec() + 1,
                OsMetrics.class);
        OsMetrics last = null;
        double readKb = 0;
        for (OsMetrics os : records) {
            if (os.memory() != null && os.memory().total() > 0) {
                last = os;
            }
            readKb += os.diskIO().stream().mapToDouble(OsMetrics.DiskIO::readKbPS).sum();
        }
        if (last == null) {
            return Lever.notMeasured("no rig.os memory record over the episode: the working set and RAM were not "
                    + "measured");
        }
        OsMetrics.Memory m = last.memory();
        OptionalLong shared = ctx.settingBytes("shared_buffers");
        double sharedKb = shared.isPresent() ? shared.getAsLong() / 1024.0 : 0;
        double workingKb = m.cached() + sharedKb + readKb;
        double otherKb = Math.max(0, m.total() - m.free() - m.cached());
        double neededKb = otherKb + workingKb;
        long neededGb = (long) Math.ceil(neededKb / 1_048_576.0);
        String why = "rig.os: RAM " + num(m.total() / 1_048_576.0, 1) + " GB, page cache " + num(m.cached() / 1_048_576.0,
                1) + " GB, free " + num(m.free() / 1_048_576.0, 1) + " GB; " + num(readKb / 1024, 0) + " MB read from "
                + "the device over the episode's " + records.size() + " record(s); working set at least cache + "
                + (shared.isPresent() ? "shared_buffers " + ctx.setting("shared_buffers").orElseThrow()
                : "shared_buffers (not in the environment: 0 counted)") + " + reads = " + num(workingKb / 1_048_576.0, 1)
                + " GB; RAM needed = other use " + num(otherKb / 1_048_576.0, 1) + " GB + " + num(workingKb / 1_048_576.0,
                1) + " GB = " + num(neededKb / 1_048_576.0, 1) + " GB, rounded up";
        return Lever.action("give the database host at least " + neededGb + " GB of RAM (it has "
                + num(m.total() / 1_048_576.0, 1) + " GB), or shrink the working set", neededGb + " GB", why);
    }
}
