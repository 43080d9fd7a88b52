package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.Canary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * {@code host_io}: the disk itself stops. The disk canary (a write+fsync every few ms on the data filesystem) has
 * a write+fsync whose <em>disk share</em> is at least {@code attribution_canary_stall_ms} within its tolerance of
 * the episode. The disk share is the write+fsync minus the run-queue wait of the canary's thread during it (the
 * canary measures it from schedstat, {@code fsyncMaxDiskUs}); a canary that waited for a CPU looks exactly like a
 * disk that stalled, and only the disk's share counts here. Where the canary did not measure its wait (an older
 * canary, or no schedstat) its whole write+fsync stands in for the disk's share, and says so.
 *
 * <p>Attributed when the disk's share covers the episode (at least {@code attribution_cover_share} of its worst
 * request) and every check below is clean; most likely when shorter (the host was struggling, but that alone
 * does not explain the episode). At most most likely, naming why in the evidence, when:
 * <ul>
 *   <li>the slowest canary write+fsync was mostly run-queue wait (more than {@value #MOSTLY_RUNQ_SHARE} of it):
 *       the delay the canary shows is the CPU's, whatever a shorter write left for the disk;</li>
 *   <li>the canary did not measure its own scheduling delay and no vmstat covers the episode: a CPU-starved
 *       canary cannot be ruled out.</li>
 * </ul>
 * No finding at all when no write+fsync reached the threshold, or when none's disk share did (the canary was
 * slow only because it waited for a CPU), or when the CPU was saturated around the episode: the canary's thread
 * itself waited at least {@code attribution_canary_stall_ms} for a CPU within one second ({@code runqUs}, between
 * writes included), or {@code rig.vmstat}'s run queue {@code r} was at least {@value HostCpu#SATURATED_RUNQ_PER_CPU} x the
 * host's CPUs (the canary's {@code cpus}) or its idle at most {@value HostCpu#SATURATED_IDLE_PCT} %, in any record within
 * the tolerance (vmstat of the canary's host when it has records, else any host's). On a saturated CPU the disk's
 * share is not the disk's alone (the journal's and write-back's kernel threads wait for a CPU too), so a stalled
 * disk cannot be told from a starved one, and host_io is not named. Stalled intervals (canary periods with no fsync completing) are reported
 * beside it; a 15 ms fsync already stalls two 5-ms intervals, so they are not a test on their own. Defining:
 * rig.canary. {@link Attribution} names it only when no Postgres cause is attributed (a vacuum's or checkpoint's
 * own writes also slow the canary).
 */
final class HostIoRule implements CauseRule {

    /** A write+fsync whose run-queue wait is more than this share of it was mostly a wait for a CPU. */
    static final double MOSTLY_RUNQ_SHARE = 0.5;

    @Override
    public Cause cause() {
        return Cause.HOST_IO;
    }

    @Override
    public String fingerprint() {
        return "a disk-canary write+fsync whose disk share (minus the canary's run-queue wait) is >= "
                + "attribution_canary_stall_ms around the episode, nothing in Postgres to explain it; not named on a "
                + "saturated CPU (the canary's own run-queue wait >= attribution_canary_stall_ms in a second, vmstat "
                + "r >= " + HostCpu.SATURATED_RUNQ_PER_CPU + " x cpus or idle <= " + HostCpu.SATURATED_IDLE_PCT + " %)";
    }

    @Override
    public Optional<Finding> examine(EpisodeScene scene) {
        List<Canary> canary = scene.around(TelemetryStream.CANARY, Canary.class);
        Canary worst = null;
        Canary worstDisk = null;
        int stalled = 0;
        Integer cpus = null;
        for (Canary c : canary) {
            stalled += c.stalledIntervals();
            if (worst == null || c.fsyncMaxUs() > worst.fsyncMaxUs()) {
                worst = c;
            }
            if (worstDisk == null || diskUs(c) > diskUs(worstDisk)) {
                worstDisk = c;
            }
            if (c.cpus() != null) {
                cpus = cpus == null ? c.cpus() : Math.max(cpus, c.cpus());
            }
        }
        long stallUs = scene.settings().canaryStallUs();
        if (worst == null || worst.fsyncMaxUs() < stallUs || diskUs(worstDisk) < stallUs) {
            return Optional.empty();
        }
        double totalMs = worst.fsyncMaxUs() / 1000.0;
        double diskMs = diskUs(worstDisk) / 1000.0;
        double worstRequestMs = scene.episode().worstMs();
        boolean covers = diskMs >= scene.settings().coverShare() * worstRequestMs;
        Confidence confidence = covers ? Confidence.ATTRIBUTED : Confidence.MOST_LIKELY;
        List<Evidence> evidence = new ArrayList<>();
        String within = scene.within(TelemetryStream.CANARY);
        String judged = (covers ? "covering" : "short of") + " the episode's worst request " + worstRequestMs + " ms";
        // the first fact is the one judged (Attribution quotes it when host_io is the secondary cause)
        if (worstDisk.runqMeasured()) {
            evidence.add(Evidence.measured("rig.canary", worstDisk.ts(), "fsync_disk_max_ms", diskMs, "ms",
                    "disk canary: the disk's share " + diskMs + " ms of a write+fsync of "
                            + worstDisk.fsyncMaxUs() / 1000.0 + " ms (minus the canary's run-queue wait, schedstat) on "
                            + worstDisk.path() + " (" + within + "), " + judged));
        } else {
            evidence.add(Evidence.measured("rig.canary", worstDisk.ts(), "fsync_max_ms", diskMs, "ms",
                    "disk canary write+fsync " + diskMs + " ms, " + stalled + " stalled interval(s) on "
                            + worstDisk.path() + " (" + within + "), " + judged
                            + "; the canary did not measure its own scheduling delay ("
                            + (worstDisk.runqSource() == null ? "an older canary"
                                    : "schedstat " + worstDisk.runqSource())
                            + "): its write+fsync stands for the disk's share"));
        }
        if (worst != worstDisk || worstDisk.runqMeasured()) {
            evidence.add(Evidence.measured("rig.canary", worst.ts(), "fsync_max_ms", totalMs, "ms", "the slowest "
                    + "canary write+fsync " + totalMs + " ms" + (worst.runqMeasured() ? " (" + worst.fsyncMaxRunqUs()
                    / 1000.0 + " ms of it run-queue wait)" : "") + ", " + stalled + " stalled interval(s) ("
                    + within + ")"));
        }
        if (worst.runqMeasured() && worst.fsyncMaxRunqUs() > MOSTLY_RUNQ_SHARE * worst.fsyncMaxUs()) {
            double runqMs = worst.fsyncMaxRunqUs() / 1000.0;
            confidence = confidence.atMost(Confidence.MOST_LIKELY);
            evidence.add(Evidence.measured("rig.canary", worst.ts(), "fsync_max_runq_ms", runqMs, "ms",
                    "the slowest canary write+fsync (" + totalMs + " ms) was mostly run-queue wait (" + runqMs
                            + " ms): its thread waited for a CPU, which is not the disk"));
        }
        Canary waited = canary.stream().filter(Canary::runqMeasured)
                .max(Comparator.comparingLong(Canary::runqUs)).orElse(null);
        if (waited != null && waited.runqUs() >= stallUs) {
            // the CPU was saturated: the disk's share also holds the kernel's own waits for a CPU (journal,
            // write-back), so a stalled disk cannot be told from a starved one; host_io is not named (calibrate's
            // cpu-starved case: a 384 ms write+fsync, 2 ms of it the canary's own wait, under 8 busy loops)
            return Optional.empty();
        }
        if (HostCpu.saturated(scene, worst.src(), cpus)) {
            return Optional.empty();
        }
        if (!worstDisk.runqMeasured() && !scene.covered(TelemetryStream.VMSTAT)) {
            confidence = confidence.atMost(Confidence.MOST_LIKELY);
            evidence.add(new Evidence("rig.vmstat", "control missing: neither the canary's own scheduling delay "
                    + "nor vmstat over the episode, a canary waiting for a CPU cannot be ruled out"));
        }
        return Optional.of(new Finding(Cause.HOST_IO, confidence, evidence, List.of()));
    }

    /** The disk's share of a second's slowest write, µs: measured, or the whole write+fsync when it was not. */
    private static long diskUs(Canary c) {
        return c.runqMeasured() ? c.fsyncMaxDiskUs() : c.fsyncMaxUs();
    }

}
