package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.ProcessMetrics;
import io.rigscope.model.wire.ServerTiming;
import io.rigscope.model.wire.Waits;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * What the {@code service} and {@code connection_pool} rules (and their levers) share: the episode's slowest request
 * that told its time (Server-Timing) and the database control (was the database busy?). Pure.
 */
final class ServiceView {

    /** The Server-Timing name of the database's share. */
    public static final String DB = "db";
    /** The Server-Timing name of the wait for a pooled connection. */
    public static final String POOL = "pool";

    private ServiceView() {
    }

    /** The slowest request of the episode's seconds that carried Server-Timing, or null. */
    public static Decision.Worst slowestTimed(EpisodeScene scene) {
        Decision.Worst worst = null;
        for (Decision.Worst w : scene.serverTiming().worst(scene.startSec(), scene.endSec())) {
            if (worst == null || w.serviceUs() > worst.serviceUs()) {
                worst = w;
            }
        }
        return worst;
    }

    /**
     * True when the timed request {@code w} (may be null) waited for a pooled connection at least
     * {@code attribution_pool_share} of the episode's worst request, longer than in {@code db} and in the service's own
     * metrics: {@link ConnectionPoolRule}'s fingerprint.
     */
    public static boolean poolDominates(EpisodeScene scene, Decision.Worst w, double worstUs) {
        if (w == null) {
            return false;
        }
        long poolUs = us(w.timing(), POOL);
        return poolUs >= scene.settings().poolShare() * worstUs && poolUs > us(w.timing(), DB)
                && poolUs > ownUs(w.timing());
    }

    /** Every metric but {@code db} and {@code pool}: the service's own time, µs. */
    public static long ownUs(ServerTiming t) {
        long sum = 0;
        for (int i = 0; i < t.size(); i++) {
            if (!t.name(i).equals(DB) && !t.name(i).equals(POOL)) {
                sum += t.durUs(i);
            }
        }
        return sum;
    }

    /** A metric's duration, µs, 0 when the service did not name it. */
    public static long us(ServerTiming t, String name) {
        return Math.max(0, t.durUs(name));
    }

    /** The timing in words: {@code pool 0.1 ms, db 3.4 ms, app 812.0 ms}. */
    public static String describe(ServerTiming t) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < t.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(t.name(i)).append(' ').append(WaitProfile.round(t.durUs(i) / 1000.0))
                    .append(" ms");
        }
        return b.toString();
    }

    /**
     * The database's load over the episode from {@code rig.waits}: average active sessions not waiting on the client
     * ({@code Client:*}), or -1 when the stream does not cover the episode.
     */
    public static double busySessions(EpisodeScene scene) {
        if (!scene.covered(TelemetryStream.WAITS)) {
            return -1;
        }
        List<Waits> waits = scene.around(TelemetryStream.WAITS, Waits.class);
        if (waits.isEmpty()) {
            return -1;
        }
        double sum = 0;
        for (Waits w : waits) {
            for (Map.Entry<String, Double> e : w.load().entrySet()) {
                if (!e.getKey().startsWith("Client:") && !WaitProfile.timer(e.getKey())) {
                    sum += e.getValue();
                }
            }
        }
        return sum / waits.size();
    }

    /** Average sessions waiting on the client ({@code Client:*}) over the episode's waits, 0 without them. */
    public static double clientSessions(EpisodeScene scene) {
        List<Waits> waits = scene.around(TelemetryStream.WAITS, Waits.class);
        if (waits.isEmpty()) {
            return 0;
        }
        double sum = 0;
        for (Waits w : waits) {
            for (Map.Entry<String, Double> e : w.load().entrySet()) {
                if (e.getKey().startsWith("Client:")) {
                    sum += e.getValue();
                }
            }
        }
        return sum / waits.size();
    }

    /** The database control's fact: its sessions over the episode, in words. */
    public static Evidence dbFact(EpisodeScene scene, double busy) {
        return new Evidence("rig.waits", "database not busy: " + WaitProfile.round(busy) + " active sessions not "
                + "waiting on the client (< attribution_db_busy_sessions " + scene.settings().dbBusySessions() + "), "
                + WaitProfile.round(clientSessions(scene)) + " on Client:*, " + scene.within(TelemetryStream.WAITS));
    }

    /**
     * True when {@code rig.process} shows the service starved of CPU around the episode: one thread's run-queue wait
     * in one record (the sum over threads in older records) at least {@code attribution_cover_share} of the
     * episode's worst request, or one thread waiting at least {@code attribution_service_starved_share} of a
     * record's interval ({@link #starvedSecond}: a thread cannot wait longer than the second it is measured in, so a
     * worst request of several seconds is never covered by one record).
     */
    public static boolean starved(EpisodeScene scene, double worstUs) {
        for (ProcessMetrics p : scene.around(TelemetryStream.PROCESS, ProcessMetrics.class)) {
            if (p.threadRunqWaitMs() * 1000 >= scene.settings().coverShare() * worstUs || starvedSecond(scene, p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when one thread of the process waited for a CPU at least {@code attribution_service_starved_share} of the
     * record's interval ({@code runqWaitMaxMs}; false for older records that carry only the sum over threads).
     */
    public static boolean starvedSecond(EpisodeScene scene, ProcessMetrics p) {
        return p.runqWaitMaxMs() != null && p.intervalMs() > 0
                && p.runqWaitMaxMs() >= scene.settings().serviceStarvedShare() * p.intervalMs();
    }

    /**
     * The longest run of consecutive {@link #starvedSecond starved} records around the episode (each within 1.5 of
     * its interval of the one before): its span, ms (the sum of their intervals), 0 when none.
     */
    public static double starvedRunMs(EpisodeScene scene) {
        Run run = longestRun(scene, p -> starvedSecond(scene, p), ProcessMetrics::intervalMs);
        return run == null ? 0 : run.sumMs();
    }

    /**
     * The longest pause of the service's process around the episode, summed over consecutive records that each show
     * a pause of at least a fifth of {@code attribution_service_pause_ms} (an ordinary safepoint is not a stop): a
     * stop that straddles the boundary of two 1-s records shows as two parts (the service-pause calibration of
     * 2026-12-02: 828 ms stopped, 400 ms in the first record). Null when no record shows such a pause.
     */
    public static Run pausedRun(EpisodeScene scene) {
        double leastMs = scene.settings().servicePauseUs() / 5000.0;
        return longestRun(scene, p -> p.pauseMs() >= leastMs, ProcessMetrics::pauseMs);
    }

    /** A run of consecutive {@code rig.process} records: the last of them, their amounts summed (ms), how many. */
    public record Run(ProcessMetrics last, double sumMs, int records) {
    }

    /**
     * The run of consecutive records around the episode that all satisfy {@code member} (each within 1.5 of its
     * interval of the one before) with the largest sum of {@code amountMs}; null when no record is a member.
     */
    private static Run longestRun(EpisodeScene scene, Predicate<ProcessMetrics> member,
                                  ToDoubleFunction<ProcessMetrics> amountMs) {
        Run best = null;
        double sum = 0;
        int n = 0;
        ProcessMetrics prev = null;
        for (ProcessMetrics p : scene.around(TelemetryStream.PROCESS, ProcessMetrics.class)) {
            if (!member.test(p)) {
                sum = 0;
                n = 0;
                prev = null;
                continue;
            }
            boolean next = prev != null && p.ts() - prev.ts() <= 1.5 * prev.intervalMs() * 1000;
            sum = next ? sum + amountMs.applyAsDouble(p) : amountMs.applyAsDouble(p);
            n = next ? n + 1 : 1;
            prev = p;
            if (best == null || sum > best.sumMs()) {
                best = new Run(p, sum, n);
            }
        }
        return best;
    }
}
