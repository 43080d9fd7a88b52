package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code cache_ram}: the working set fell out of RAM. At least {@code attribution_read_share} of the active
 * sessions on {@code IO:DataFileRead} around the episode ({@code rig.waits}).
 * <ul>
 *   <li>attributed: with the host reading from disk at the time (rig.os read IOPS or vmstat blocks in);</li>
 *   <li>most likely: the waits alone, without either host stream (vmstat of a host named in
 *       {@code attribution_generator_hosts} is the load generator's, not the database's, and is not read).</li>
 * </ul>
 */
final class CacheRamRule implements CauseRule {

    @Override
    public Cause cause() {
        return Cause.CACHE_RAM;
    }

    @Override
    public String fingerprint() {
        return "IO:DataFileRead >= attribution_read_share of active sessions, with the host reading from disk";
    }

    @Override
    public Optional<Finding> examine(EpisodeScene scene) {
        WaitProfile waits = new WaitProfile(scene.around(TelemetryStream.WAITS, Waits.class));
        double share = waits.share(WaitProfile.DATA_READ);
        if (waits.empty() || share < scene.settings().readShare()) {
            return Optional.empty();
        }
        List<Evidence> evidence = new ArrayList<>();
        evidence.add(Evidence.measured("rig.waits", scene.startSec() * 1_000_000L, "read_share",
                WaitProfile.round(share), "fraction", WaitProfile.round(waits.sessions(WaitProfile.DATA_READ)) + " of "
                        + WaitProfile.round(waits.total()) + " active sessions on IO:DataFileRead, "
                        + scene.within(TelemetryStream.WAITS)));
        double readIops = 0;
        long ts = 0;
        for (OsMetrics os : scene.around(TelemetryStream.OS, OsMetrics.class)) {
            for (OsMetrics.DiskIO d : os.diskIO()) {
                if (d.readIOsPS() > readIops) {
                    readIops = d.readIOsPS();
                    ts = os.ts();
                }
            }
        }
        long blocksIn = 0;
        boolean dbHostVmstat = false;
        for (Vmstat v : scene.around(TelemetryStream.VMSTAT, Vmstat.class)) {
            int at = v.src().indexOf('@');
            if (at >= 0 && scene.settings().generatorHosts().contains(v.src().substring(at + 1))) {
                continue;   // the load generator's host: its disk says nothing of the database's reads
            }
            dbHostVmstat = true;
            blocksIn = Math.max(blocksIn, v.bi());
        }
        if (readIops > 0) {
            evidence.add(Evidence.measured("rig.os", ts, "read_iops", readIops, "IO/s", "disk reads "
                    + WaitProfile.round(readIops) + " IO/s, " + scene.within(TelemetryStream.OS)));
        }
        if (blocksIn > 0) {
            evidence.add(new Evidence("rig.vmstat", "blocks in " + blocksIn + "/s, " + scene.within(TelemetryStream.VMSTAT)));
        }
        boolean reading = readIops > 0 || blocksIn > 0;
        boolean blind = !scene.covered(TelemetryStream.OS) && !dbHostVmstat;
        if (reading) {
            return Optional.of(new Finding(Cause.CACHE_RAM, Confidence.ATTRIBUTED, evidence, List.of()));
        }
        return blind ? Optional.of(new Finding(Cause.CACHE_RAM, Confidence.MOST_LIKELY, evidence,
                List.of("rig.os", "rig.vmstat"))) : Optional.empty();
    }
}
