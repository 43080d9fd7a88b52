package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Decision;
import static io.rigscope.analyzer.scene.EpisodeScene.LeverContext.num;

import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.Lever;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.ProcessMetrics;
import io.rigscope.model.wire.ServerTiming;

/**
 * {@code service}: the service itself took the time. The lever follows the evidence that named it:
 * <ul>
 *   <li>its own account ({@code service_own_ms}, Server-Timing): the own step (every metric but {@code db} and
 *       {@code pool}) that took the most of the episode's slowest timed request;</li>
 *   <li>a pause of its process ({@code pause_ms}, rig.process): what the record says stopped it, the larger of the
 *       time stopped (state T), in GC, and at other JVM safepoints over the episode's records;</li>
 *   <li>threads waiting for a CPU ({@code runq_wait_ms}): when the process used at least
 *       {@code attribution_service_cpu_share} of its CPUs, it needed more: {@code ceil(c / 100 / 0.7)} CPUs keep it at
 *       most 70 % busy ({@code c} its CPU at most, % of one core); below that, with the host not saturated (the rule
 *       already left a saturated host out), something capped it: a CPU limit.</li>
 * </ul>
 * A finding by exclusion has no lever: nothing measured says what in the service took the time.
 */
final class ServiceLever implements LeverRule {

    /** The busy share a CPU sizing leaves room under. */
    static final double CPU_TARGET = 0.7;

    @Override
    public Lever lever(Episode e, EpisodeScene scene, LeverContext ctx) {
        if (Levers.evidence(e, "service_own_ms").isPresent()) {
            return ownStep(scene);
        }
        if (Levers.evidence(e, "pause_ms").isPresent()) {
            return pause(scene);
        }
        if (Levers.evidence(e, io.rigscope.analyzer.attribution.ServiceRule.STARVED_BY_HOST).isPresent()) {
            return starvedByHost(e);
        }
        if (Levers.evidence(e, "runq_wait_ms").isPresent()) {
            return cpu(scene);
        }
        return Lever.notMeasured("named by exclusion: no Server-Timing and no rig.process say what in the service "
                + "took the time; add either to size a lever");
    }

    private static Lever ownStep(EpisodeScene scene) {
        Decision.Worst w = ServiceView.slowestTimed(scene);
        if (w == null) {
            return Lever.notMeasured("the episode's Server-Timing is gone from the scene: no own step to name");
        }
        ServerTiming t = w.timing();
        String step = null;
        long stepUs = -1;
        for (int i = 0; i < t.size(); i++) {
            String name = t.name(i);
            if (!name.equals(ServiceView.DB) && !name.equals(ServiceView.POOL) && t.durUs(i) > stepUs) {
                step = name;
                stepUs = t.durUs(i);
            }
        }
        return Lever.action("make the service's own `" + step + "` step faster (it is the service's code, not the "
                        + "database's)", step + " " + num(stepUs / 1000.0, 1) + " ms",
                "Server-Timing of the slowest timed request (second " + w.sec() + ", " + num(w.serviceUs() / 1000.0, 1)
                        + " ms): " + ServiceView.describe(t) + "; its own step `" + step + "` took "
                        + num(stepUs / 1000.0, 1) + " ms of the episode's worst request " + scene.episode().worstMs()
                        + " ms, the database " + num(ServiceView.us(t, ServiceView.DB) / 1000.0, 1) + " ms");
    }

    private static Lever pause(EpisodeScene scene) {
        double stopped = 0;
        double gc = 0;
        double safepoint = 0;
        boolean gcKnown = false;
        boolean safepointKnown = false;
        ProcessMetrics last = null;
        for (ProcessMetrics p : scene.around(TelemetryStream.PROCESS, ProcessMetrics.class)) {
            stopped += p.stoppedMs();
            if (p.gcPauseMs() != null) {
                gc += p.gcPauseMs();
                gcKnown = true;
            }
            if (p.safepointMs() != null) {
                safepoint += p.safepointMs();
                safepointKnown = true;
            }
            last = p;
        }
        if (last == null) {
            return Lever.notMeasured("no rig.process record around the episode: what paused the service is unknown");
        }
        // a GC pause is spent at a safepoint: what is left of the safepoints is not GC
        double otherSafepoint = Math.max(0, safepoint - gc);
        String why = "rig.process (" + last.src() + ", pid " + last.pid() + "), " + scene.within(TelemetryStream.PROCESS)
                + ": stopped (state T) " + num(stopped, 1) + " ms, in GC " + (gcKnown ? num(gc, 1) + " ms" : "not measured")
                + ", at JVM safepoints " + (safepointKnown ? num(safepoint, 1) + " ms" : "not measured")
                + " over the episode's records; the worst request " + scene.episode().worstMs() + " ms";
        if (stopped >= gc && stopped >= otherSafepoint) {
            return Lever.action("find what stops the service's process (SIGSTOP, a debugger, a container freeze or "
                    + "the host pausing it): it stood still in state T", "stopped " + num(stopped, 1) + " ms", why);
        }
        if (gc >= otherSafepoint) {
            return Lever.action("shorten the service's GC pauses (a heap sized to its live set, a low-pause "
                    + "collector)", "GC " + num(gc, 1) + " ms", why);
        }
        return Lever.action("find the service's JVM safepoints that are not GC (-Xlog:safepoint names each: "
                + "deoptimisation, thread dumps, class redefinition)", "safepoints " + num(otherSafepoint, 1)
                + " ms besides GC", why);
    }

    /**
     * The service starved by the host's other processes: no setting of the service's own, the host is the lever. The
     * rule's evidence says what the host was doing.
     */
    private static Lever starvedByHost(Episode e) {
        Evidence ev = Levers.evidence(e, io.rigscope.analyzer.attribution.ServiceRule.STARVED_BY_HOST).orElseThrow();
        return Lever.action("free CPUs for the service on its host: the host's other processes held them (move the "
                + "load generator, the database or other jobs to hosts of their own, or give the service more CPUs "
                + "than the host's other work takes)", null, ev.text());
    }

    private static Lever cpu(EpisodeScene scene) {
        ProcessMetrics busiest = null;
        ProcessMetrics waited = null;
        for (ProcessMetrics p : scene.around(TelemetryStream.PROCESS, ProcessMetrics.class)) {
            if (busiest == null || p.cpuPct() > busiest.cpuPct()) {
                busiest = p;
            }
            if (waited == null || p.threadRunqWaitMs() > waited.threadRunqWaitMs()) {
                waited = p;
            }
        }
        if (busiest == null) {
            return Lever.notMeasured("no rig.process record around the episode: the service's CPU is unknown");
        }
        int cpus = Math.max(1, busiest.cpus());
        double share = scene.settings().serviceCpuShare();
        String why = "rig.process (" + busiest.src() + ", pid " + busiest.pid() + "), "
                + scene.within(TelemetryStream.PROCESS) + ": CPU up to " + num(busiest.cpuPct(), 0) + " % of one core on "
                + cpus + " CPU(s); a thread waited up to " + num(waited.threadRunqWaitMs(), 1) + " ms for a CPU in "
                + "a second";
        int usable = io.rigscope.analyzer.attribution.ServiceRule.usableCpus(waited);
        if (usable < cpus && busiest.cpuPct() >= share * 100.0 * usable) {
            // one thread did the waiting: more CPUs would not help a single-threaded server, more of it would
            return Lever.action("run more workers of the service (processes or threads): one thread of it used "
                    + num(busiest.cpuPct(), 0) + " % of one core, all a single thread can use", null, why
                    + "; its longest-waiting thread held at least " + io.rigscope.analyzer.attribution.ServiceRule.ONE_THREAD_SHARE + " of the process's "
                    + "run-queue wait: single-threaded, judged by the one CPU it can use");
        }
        if (busiest.cpuPct() >= share * 100.0 * cpus) {
            long need = Math.max(cpus + 1L, (long) Math.ceil(busiest.cpuPct() / 100.0 / CPU_TARGET));
            return Lever.action("give the service " + need + " CPUs (it had " + cpus + ")", need + " CPUs", why
                    + "; at least attribution_service_cpu_share " + share + " of its CPUs: it needed more; CPUs = "
                    + "max(" + cpus + " + 1, ceil(" + num(busiest.cpuPct(), 0) + " / 100 / " + CPU_TARGET + ")) = "
                    + need + ", so it runs at most " + Math.round(CPU_TARGET * 100) + " % busy");
        }
        return Lever.action("look for a CPU limit on the service (a cgroup cpu.max or container limit, CPU affinity): "
                + "its threads waited for a CPU while it used " + num(busiest.cpuPct(), 0) + " % of one core on "
                + cpus + " CPU(s) and the host was not saturated", null, why + "; below attribution_service_cpu_share "
                + share + " of its CPUs, and the host's CPUs not saturated (vmstat): its own CPUs were capped");
    }
}
