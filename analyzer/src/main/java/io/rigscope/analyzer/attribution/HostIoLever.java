package io.rigscope.analyzer.attribution;

import static io.rigscope.analyzer.scene.EpisodeScene.LeverContext.num;

import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.Lever;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;

/**
 * {@code host_io}: the disk stopped with nothing in Postgres to explain it; no database setting moves it. The lever
 * is the volume, with the stall the canary measured (its disk share).
 */
final class HostIoLever implements LeverRule {

    @Override
    public Lever lever(Episode e, EpisodeScene scene, LeverContext ctx) {
        var stall = Levers.evidence(e, "fsync_disk_max_ms").or(() -> Levers.evidence(e, "fsync_max_ms"));
        if (stall.isEmpty()) {
            return Lever.notMeasured("the canary's stall is not among the episode's evidence");
        }
        Evidence s = stall.get();
        return Lever.action("run the database on a volume that does not stall: no Postgres setting moves a stall "
                + "of the device itself", num(s.value(), 1) + " ms", s.text());
    }
}
