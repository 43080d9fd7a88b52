package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.ProcessMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code service}: the service itself, neither the database nor the instrument. Its defining evidence is either
 * <ul>
 *   <li>its own account: the slowest request of the episode that carried {@code Server-Timing} spent at least
 *       {@code attribution_service_share} of the episode's worst request in the service's own metrics (every one but
 *       {@code db} and {@code pool}), more than in {@code db}; or</li>
 *   <li>its process ({@code rig.process}, within the stream's tolerance of the episode): stopped or at a JVM safepoint
 *       for at least {@code attribution_service_pause_ms}, attributed when that pause is at least
 *       {@code attribution_cover_share} of the episode's worst request (most likely when shorter); or starved of CPU:
 *       its threads waited for a CPU (run-queue wait, summed over threads) at least
 *       {@code attribution_service_pause_ms} in a second, or its CPU reached {@code attribution_service_cpu_share} of
 *       the host's; attributed when that wait is at least {@code attribution_cover_share} of the worst request and
 *       vmstat covers the episode (most likely otherwise). Starvation names nothing when vmstat shows the host's CPU
 *       saturated around the episode (run queue at least 2 per CPU, or idle at most 5 %): every process on that host
 *       waited for a CPU, the instrument included.</li>
 * </ul>
 * The database control is this rule's own: over the episode {@code rig.waits} must show fewer than
 * {@code attribution_db_busy_sessions} active sessions not waiting on the client; a busy database means no finding
 * (a database cause, or none, explains it). Without {@code rig.waits}, a Server-Timing finding meets the control by
 * its {@code db} share being the smaller (named as the substitute); a process-only finding is then capped at most
 * likely. The instrument control is {@link Attribution}'s, as for every server cause.
 *
 * <p>By exclusion ({@code most_likely}): with no Server-Timing and no {@code rig.process} over the episode, when every
 * stream that would show another cause is there and shows none: the generator's health with no stall of
 * {@code attribution_generator_pause_ms}, the database idle by {@code rig.waits} (as above) and sampled by
 * {@code rig.db}, the disk watched by the canary or the device view. A missing one of these means no finding: a
 * confident wrong answer is the worst outcome.
 */
final class ServiceRule implements CauseRule {

    @Override
    public Cause cause() {
        return Cause.SERVICE;
    }

    @Override
    public String fingerprint() {
        return "Server-Timing's own (non-db, non-pool) share >= attribution_service_share of the episode's worst request, "
                + "or the process stopped/at a safepoint >= attribution_service_pause_ms or CPU-saturated "
                + "(attribution_service_cpu_share), with the database not busy (< attribution_db_busy_sessions)";
    }

    @Override
    public Optional<Finding> examine(EpisodeScene scene) {
        double busy = ServiceView.busySessions(scene);
        if (busy >= scene.settings().dbBusySessions()) {
            return Optional.empty();
        }
        double worstUs = scene.episode().worstMs() * 1000.0;
        Optional<Finding> timed = byTiming(scene, busy, worstUs);
        if (timed.isPresent() && timed.get().confidence() == Confidence.ATTRIBUTED) {
            return timed;
        }
        Optional<Finding> process = byProcess(scene, busy, worstUs);
        if (process.isPresent()) {
            return process;
        }
        if (timed.isPresent()) {
            return timed;
        }
        if (ServiceView.slowestTimed(scene) == null && !scene.covered(TelemetryStream.PROCESS)) {
            return byExclusion(scene, busy);
        }
        return Optional.empty();
    }

    private static Optional<Finding> byTiming(EpisodeScene scene, double busy, double worstUs) {
        Decision.Worst w = ServiceView.slowestTimed(scene);
        if (w == null || worstUs <= 0) {
            return Optional.empty();
        }
        long ownUs = ServiceView.ownUs(w.timing());
        long dbUs = ServiceView.us(w.timing(), ServiceView.DB);
        if (ownUs < scene.settings().serviceShare() * worstUs || ownUs <= dbUs) {
            return Optional.empty();
        }
        List<Evidence> evidence = new ArrayList<>();
        evidence.add(Evidence.measured("server-timing", w.sec() * 1_000_000L, "service_own_ms", ownUs / 1000.0, "ms",
                "the slowest timed request (second " + w.sec() + ", " + WaitProfile.round(w.serviceUs() / 1000.0)
                        + " ms) spent " + WaitProfile.round(ownUs / 1000.0) + " ms in the service itself ("
                        + ServiceView.describe(w.timing()) + "), >= attribution_service_share "
                        + scene.settings().serviceShare() + " of the episode's worst request " + scene.episode().worstMs()
                        + " ms"));
        if (busy >= 0) {
            evidence.add(ServiceView.dbFact(scene, busy));
        } else {
            evidence.add(new Evidence("server-timing", "database control met by Server-Timing: db "
                    + WaitProfile.round(dbUs / 1000.0) + " ms of that request (rig.waits missing)"));
        }
        return Optional.of(new Finding(Cause.SERVICE, Confidence.ATTRIBUTED, evidence, List.of()));
    }

    private static Optional<Finding> byProcess(EpisodeScene scene, double busy, double worstUs) {
        List<ProcessMetrics> around = scene.around(TelemetryStream.PROCESS, ProcessMetrics.class);
        ProcessMetrics paused = null;
        ProcessMetrics starved = null;
        ProcessMetrics saturated = null;
        for (ProcessMetrics p : around) {
            if (p.pauseMs() * 1000 >= scene.settings().servicePauseUs()
                    && (paused == null || p.pauseMs() > paused.pauseMs())) {
                paused = p;
            }
            if (p.threadRunqWaitMs() * 1000 >= scene.settings().servicePauseUs()
                    && (starved == null || p.threadRunqWaitMs() > starved.threadRunqWaitMs())) {
                starved = p;
            }
            double capPct = scene.settings().serviceCpuShare() * 100.0 * usableCpus(p);
            if (p.cpuPct() >= capPct && (saturated == null || p.cpuPct() > saturated.cpuPct())) {
                saturated = p;
            }
        }
        double coverUs = scene.settings().coverShare() * worstUs;
        List<Evidence> evidence = new ArrayList<>();
        Confidence confidence;
        double share = -1;
        // the run holding the longest single pause sums at least that pause: never shorter than it
        ServiceView.Run run = paused == null ? null : ServiceView.pausedRun(scene);
        double pauseMs = run == null ? 0 : run.sumMs();
        if (paused != null && (starved == null || pauseMs * 1000 >= coverUs)) {
            String what = paused.stoppedMs() >= paused.pauseMs() ? "stopped (state T)" : "at JVM safepoints";
            confidence = pauseMs * 1000 >= coverUs ? Confidence.ATTRIBUTED : Confidence.MOST_LIKELY;
            share = pauseMs * 1000 / worstUs;
            boolean several = run.records() > 1;
            ProcessMetrics last = run.last();
            evidence.add(Evidence.measured("rig.process", last.ts(), "pause_ms", WaitProfile.round(pauseMs), "ms",
                    "the service's process " + paused.src() + " (pid " + paused.pid() + ") was " + what + " "
                            + WaitProfile.round(pauseMs) + " ms " + (several ? "over " + run.records()
                            + " consecutive records ending at " : "in the second ending at ")
                            + last.ts() / 1_000_000L + " (>= attribution_service_pause_ms "
                            + scene.settings().servicePauseUs() / 1000 + " in one), "
                            + (confidence == Confidence.ATTRIBUTED ? "covering" : "short of") + " the episode's worst "
                            + "request " + scene.episode().worstMs() + " ms; " + scene.within(TelemetryStream.PROCESS)));
        } else if (starved != null || saturated != null) {
            ProcessMetrics p = starved != null ? starved : saturated;
            if (HostCpu.saturated(scene, p.src(), p.cpus() > 0 ? p.cpus() : null)) {
                // every process on a saturated host waits for a CPU, the instrument and the database included: a
                // service whose own wait covers the episode was starved by the host's other processes (most likely
                // at best: the generator waited too, and its own rule is surer when its stall covers the episode);
                // a shorter wait is the host's doing, no cause of the service's (calibrate's clean and
                // generator-pause cases on 2 busy cores were named service from it)
                return starvedByHost(scene, busy, worstUs, starved);
            }
            // threads waiting for a CPU that long in a second: the service could not run, whatever else it waited on.
            // One record spans one second, so a worst request of several seconds is covered by a run of starved
            // seconds, never by one record
            double runMs = ServiceView.starvedRunMs(scene);
            boolean persisted = runMs * 1000 >= coverUs;
            // without vmstat over the episode a saturated host cannot be ruled out: at most most_likely
            confidence = (p.threadRunqWaitMs() * 1000 >= coverUs || persisted)
                    && scene.covered(TelemetryStream.VMSTAT) ? Confidence.ATTRIBUTED : Confidence.MOST_LIKELY;
            share = Math.max(p.threadRunqWaitMs(), runMs) * 1000 / worstUs;
            evidence.add(Evidence.measured("rig.process", p.ts(), "runq_wait_ms", p.threadRunqWaitMs(), "ms",
                    "the service's process " + p.src() + " (pid " + p.pid() + ") was starved of CPU: a thread of it "
                            + "waited " + WaitProfile.round(p.threadRunqWaitMs()) + " ms for a CPU in the second ending at "
                            + p.ts() / 1_000_000L + " (" + WaitProfile.round(p.runqWaitMs()) + " ms summed over its "
                            + p.threads() + " threads; " + WaitProfile.round(p.cpuPct())
                            + " % CPU of " + p.cpus() + " CPUs)" + (runMs > 0 ? "; a thread of it waited for a CPU at "
                            + "least attribution_service_starved_share " + scene.settings().serviceStarvedShare()
                            + " of each second for " + WaitProfile.round(runMs) + " ms in a row" : "") + ", "
                            + (confidence == Confidence.ATTRIBUTED ? "covering" : "short of")
                            + " the episode's worst request " + scene.episode().worstMs() + " ms; "
                            + scene.within(TelemetryStream.PROCESS)));
            Decision.Worst w = ServiceView.slowestTimed(scene);
            if (confidence == Confidence.ATTRIBUTED && ServiceView.poolDominates(scene, w, worstUs)) {
                // a pool too small for the load looks the same from here: requests queue for a connection either way
                confidence = Confidence.MOST_LIKELY;
                evidence.add(new Evidence("server-timing", "the slowest timed request also waited "
                        + WaitProfile.round(ServiceView.us(w.timing(), ServiceView.POOL) / 1000.0) + " ms for a pooled "
                        + "connection (" + ServiceView.describe(w.timing()) + "): a pool too small for the load would "
                        + "show the same wait, so neither is proven"));
            }
        } else {
            return Optional.empty();
        }
        if (busy >= 0) {
            evidence.add(ServiceView.dbFact(scene, busy));
        } else {
            Evidence why = new Evidence("rig.waits", "database control missing: no rig.waits over the episode, a busy "
                    + "database cannot be ruled out");
            return Optional.of(new Finding(Cause.SERVICE, Confidence.MOST_LIKELY, append(evidence, why),
                    List.of("rig.waits")).explaining(share));
        }
        return Optional.of(new Finding(Cause.SERVICE, confidence, evidence, List.of()).explaining(share));
    }

    /**
     * The CPUs a process can use: one when a single thread of it did the waiting (its longest thread's run-queue
     * wait at least {@link #ONE_THREAD_SHARE} of the whole process's: a single-threaded server, an event loop), else
     * the host's. A single-threaded server never reaches a share of the host's CPUs; it is judged by its one.
     */
    public static int usableCpus(ProcessMetrics p) {
        int host = Math.max(1, p.cpus());
        if (p.runqWaitMaxMs() != null && p.runqWaitMs() > 0 && p.runqWaitMaxMs() >= ONE_THREAD_SHARE * p.runqWaitMs()) {
            return 1;
        }
        return host;
    }

    /** The share of a process's run-queue wait one thread must hold for the process to count as single-threaded. */
    public static final double ONE_THREAD_SHARE = 0.8;

    /**
     * The service starved of CPU by the host's other processes: the host saturated (vmstat), the service's own
     * run-queue wait covering {@code attribution_cover_share} of the worst request (one record, or a run of starved
     * seconds), and the service below {@code attribution_service_cpu_share} of the CPUs it can use (else it is the
     * one keeping the host busy: no finding). Most likely at best: every process on that host waited too.
     */
    private static Optional<Finding> starvedByHost(EpisodeScene scene, double busy, double worstUs,
                                                   ProcessMetrics starved) {
        if (starved == null || worstUs <= 0) {
            return Optional.empty();
        }
        double coverUs = scene.settings().coverShare() * worstUs;
        double runMs = ServiceView.starvedRunMs(scene);
        double waitMs = Math.max(starved.threadRunqWaitMs(), runMs);
        int usable = usableCpus(starved);
        if (waitMs * 1000 < coverUs || starved.cpuPct() >= scene.settings().serviceCpuShare() * 100.0 * usable) {
            return Optional.empty();
        }
        io.rigscope.model.wire.Vmstat host = HostCpu.busiest(scene, starved.src());
        List<Evidence> evidence = new ArrayList<>();
        evidence.add(Evidence.measured("rig.process", starved.ts(), STARVED_BY_HOST, WaitProfile.round(waitMs), "ms",
                "CPU starvation by the host's other processes: the service's process " + starved.src() + " (pid "
                        + starved.pid() + ") had a thread waiting " + WaitProfile.round(starved.threadRunqWaitMs())
                        + " ms for a CPU in the second ending at " + starved.ts() / 1_000_000L
                        + (runMs > 0 ? " (" + WaitProfile.round(runMs) + " ms in a row)" : "") + ", covering the "
                        + "episode's worst request " + scene.episode().worstMs() + " ms, while it used "
                        + WaitProfile.round(starved.cpuPct()) + " % of one core (it can use " + usable + " of the host's "
                        + Math.max(1, starved.cpus()) + " CPUs); " + hostLine(host, starved.cpus()) + "; "
                        + scene.within(TelemetryStream.PROCESS)));
        if (busy >= 0) {
            evidence.add(ServiceView.dbFact(scene, busy));
        }
        // ranked as partial measuring no share of its own: the host's doing, so any other cause that fits comes first
        return Optional.of(new Finding(Cause.SERVICE, Confidence.MOST_LIKELY, evidence,
                busy >= 0 ? List.of() : List.of("rig.waits"), false, true));
    }

    /** The evidence key of a service starved of CPU by the host's other processes (its lever reads it). */
    public static final String STARVED_BY_HOST = "starved_by_host_ms";

    /** {@code the host ran 22 runnable tasks on 2 CPUs, idle 0 % (vmstat@h)}. */
    static String hostLine(io.rigscope.model.wire.Vmstat v, int cpus) {
        if (v == null) {
            return "the host's CPUs saturated (vmstat)";
        }
        return "the host ran " + v.r() + " runnable tasks on " + Math.max(1, cpus) + " CPUs, idle " + v.id() + " %, "
                + "user " + v.us() + " %, system " + v.sy() + " % (" + v.src() + ")";
    }

    private static Optional<Finding> byExclusion(EpisodeScene scene, double busy) {
        if (busy < 0 || !scene.covered(TelemetryStream.DB)) {
            return Optional.empty();
        }
        if (!scene.covered(TelemetryStream.CANARY) && !scene.covered(TelemetryStream.OS)) {
            return Optional.empty();
        }
        Map<Long, double[]> health = scene.health().subMap(scene.startSec() - 1, true, scene.endSec(), true);
        if (health.isEmpty()) {
            return Optional.empty();
        }
        double worstStallMs = 0;
        for (double[] h : health.values()) {
            worstStallMs = Math.max(worstStallMs, Math.max(h[0], h[1]));
        }
        if (worstStallMs * 1000 >= scene.settings().generatorPauseUs()) {
            return Optional.empty();
        }
        List<Evidence> evidence = new ArrayList<>();
        evidence.add(new Evidence("attribution", "by exclusion: the service gave no Server-Timing and no rig.process "
                + "covers the episode; the generator was healthy (worst JVM pause or loop lag "
                + WaitProfile.round(worstStallMs) + " ms), the disk watched ("
                + (scene.covered(TelemetryStream.CANARY) ? "rig.canary" : "rig.os") + ") and the database sampled "
                + "(rig.db)"));
        evidence.add(ServiceView.dbFact(scene, busy));
        return Optional.of(new Finding(Cause.SERVICE, Confidence.MOST_LIKELY, evidence,
                List.of("rig.process", "server-timing")));
    }

    /** True for a {@code service} finding made by exclusion (it stands only when no other rule's fingerprint fits). */
    static boolean byExclusion(Finding f) {
        return f.cause() == Cause.SERVICE && f.lacking().contains("server-timing");
    }

    private static List<Evidence> append(List<Evidence> list, Evidence e) {
        List<Evidence> out = new ArrayList<>(list);
        out.add(e);
        return out;
    }
}
