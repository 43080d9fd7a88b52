package io.rigscope.analyzer.attribution;

import static io.rigscope.analyzer.scene.EpisodeScene.LeverContext.num;

import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.Lever;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.Vmstat;
import java.util.OptionalLong;

/**
 * {@code generator}: the instrument stalled. When the host was oversubscribed (rig.vmstat's run queue {@code r} above
 * its CPUs over the episode), other work took the generator's CPU: the lever is a host of its own. Otherwise the
 * generator itself was the load: split its schedule over {@code max(2, ceil(c / 100))} generators, where {@code c}
 * is its process CPU at most over the episode (rig.health, percent of one core), so each needs at most one core
 * ({@code rigscope generate --share k/N}).
 */
final class GeneratorLever implements LeverRule {

    @Override
    public Lever lever(Episode e, EpisodeScene scene, LeverContext ctx) {
        String stall = Levers.evidence(e, "loop_lag_ms").or(() -> Levers.evidence(e, "jvm_pause_ms"))
                .or(() -> Levers.evidence(e, "generator_host_idle_pct")).map(Evidence::text)
                .orElse("the generator's stall");
        Vmstat busiest = null;
        for (Vmstat v : scene.around(TelemetryStream.VMSTAT, Vmstat.class)) {
            if (busiest == null || v.r() > busiest.r()) {
                busiest = v;
            }
        }
        OptionalLong cpus = ctx.cpuCount();
        if (busiest != null && cpus.isPresent() && busiest.r() > cpus.getAsLong()) {
            return Lever.action("run the generator on a host of its own", null, stall + "; rig.vmstat ("
                    + busiest.src() + "): run queue up to " + busiest.r() + " on " + cpus.getAsLong() + " CPU(s), idle "
                    + busiest.id() + " %, " + scene.within(TelemetryStream.VMSTAT) + ": the host was oversubscribed "
                    + num((double) busiest.r() / cpus.getAsLong(), 1) + " times, a thread got about "
                    + num((double) cpus.getAsLong() / busiest.r(), 2) + " of a CPU");
        }
        double cpuPct = -1;
        for (double[] h : scene.health().subMap(scene.startSec() - 1, true, scene.endSec(), true).values()) {
            if (h.length > 3) {
                cpuPct = Math.max(cpuPct, h[3]);
            }
        }
        if (cpuPct < 0) {
            return Lever.notMeasured(stall + "; neither an oversubscribed host (" + (busiest == null
                    ? "no rig.vmstat over the episode" : "run queue " + busiest.r() + (cpus.isPresent() ? " on "
                    + cpus.getAsLong() + " CPU(s)" : ", CPUs not in the environment")) + ") nor the generator's own "
                    + "CPU (no rig.health CPU over the episode) was measured: how many generators cannot be sized");
        }
        long n = Math.max(2, (long) Math.ceil(cpuPct / 100));
        return Lever.action("split the schedule over " + n + " generators (rigscope generate --share 1/" + n + " ... --share "
                + n + "/" + n + ")", n + " generators", stall + "; the host was not oversubscribed ("
                + (busiest == null ? "no rig.vmstat" : "run queue up to " + busiest.r()) + "); rig.health: the "
                + "generator's process CPU up to " + num(cpuPct, 0) + " % of one core over the episode; generators = "
                + "max(2, ceil(" + num(cpuPct, 0) + " / 100)) = " + n);
    }
}
