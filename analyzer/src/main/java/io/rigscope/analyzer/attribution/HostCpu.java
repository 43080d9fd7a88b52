package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.Vmstat;
import java.util.List;

/**
 * Whether a host's CPU was saturated around an episode, by vmstat: the one reading of it that the rules whose
 * evidence a busy CPU can fake ({@link HostIoRule}: a canary waiting for a CPU; {@link ServiceRule}: a service
 * waiting for one) both use.
 */
final class HostCpu {

    /** The CPU is saturated when vmstat's run queue reaches this many runnable tasks per CPU of the host. */
    static final double SATURATED_RUNQ_PER_CPU = 2.0;
    /** The CPU is saturated when vmstat's idle is at most this, percent. */
    static final int SATURATED_IDLE_PCT = 5;

    private HostCpu() {
    }

    /**
     * True when vmstat within its tolerance of the episode shows the CPU saturated on any line: the run queue at
     * least {@link #SATURATED_RUNQ_PER_CPU} per CPU (when the host's CPUs are known) or idle at most
     * {@link #SATURATED_IDLE_PCT} %. The vmstat of {@code src}'s host ({@code name@HOST}) when it has records, else
     * any host's; false when no vmstat covers the episode.
     *
     * @param cpus the host's CPUs, or null when unknown
     */
    static boolean saturated(EpisodeScene scene, String src, Integer cpus) {
        List<Vmstat> all = scene.around(TelemetryStream.VMSTAT, Vmstat.class);
        String host = host(src);
        List<Vmstat> same = all.stream().filter(v -> host != null && host.equals(host(v.src()))).toList();
        for (Vmstat v : same.isEmpty() ? all : same) {
            if (cpus != null && v.r() >= SATURATED_RUNQ_PER_CPU * cpus || v.id() <= SATURATED_IDLE_PCT) {
                return true;
            }
        }
        return false;
    }

    /**
     * The vmstat line of the busiest moment around the episode (highest run queue, then lowest idle), of
     * {@code src}'s host when it has records, else of any host; null when no vmstat covers the episode.
     */
    static Vmstat busiest(EpisodeScene scene, String src) {
        List<Vmstat> all = scene.around(TelemetryStream.VMSTAT, Vmstat.class);
        String host = host(src);
        List<Vmstat> same = all.stream().filter(v -> host != null && host.equals(host(v.src()))).toList();
        Vmstat best = null;
        for (Vmstat v : same.isEmpty() ? all : same) {
            if (best == null || v.r() > best.r() || v.r() == best.r() && v.id() < best.id()) {
                best = v;
            }
        }
        return best;
    }

    private static String host(String src) {
        int at = src == null ? -1 : src.indexOf('@');
        return at < 0 ? null : src.substring(at + 1);
    }
}
