package io.rigscope.benchmarks.generator;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The generator's send-lag goal, judged against the host's own timer jitter ({@code bench generator}). */
public final class LagGoal {

    /** The send-lag goal: lag p99 at or under this, ms. */
    public static final double GOAL_MS = 0.25;

    private LagGoal() {
    }

    /**
     * The lag goal against the host's own jitter: met; out of this host's reach (its timer's own p99, measured alone
     * before the load, is over the goal); out of reach under the run's own load ({@code duringRun}, the same kind of
     * probe running beside the measured run, woke later than the goal at p99: the CPUs were contended, and a
     * sleeping event loop cannot wake more punctually than that thread); or missed by the generator (both probes
     * keep to the goal). {@code duringRun} may be null (not measured).
     */
    public static Map<String, Object> of(double lagP99Ms, TimerJitter jitter, TimerJitter duringRun) {
        return of(lagP99Ms, jitter, duringRun, -1);
    }

    /**
     * {@link #of(double, TimerJitter, TimerJitter)} with the run's drops ({@code dropped >= 0}), and issue 42's
     * criterion judged from them alone: {@code goal_met} is 0 drops and, when the probe before the load says the host
     * allows the lag goal ({@code host_allows}), lag p99 at or under it; on a host that does not allow it, 0 drops.
     */
    public static Map<String, Object> of(double lagP99Ms, TimerJitter jitter, TimerJitter duringRun, long dropped) {
        Map<String, Object> m = lagOnly(lagP99Ms, jitter, duringRun);
        if (dropped >= 0) {
            boolean lagJudged = jitter.allows(GOAL_MS);
            m.put("dropped", dropped);
            m.put("goal", "0 drops, and lag p99 <= " + GOAL_MS + " ms when host_allows");
            m.put("goal_met", dropped == 0 && (!lagJudged || lagP99Ms <= GOAL_MS));
        }
        return m;
    }

    private static Map<String, Object> lagOnly(double lagP99Ms, TimerJitter jitter, TimerJitter duringRun) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("lag_p99_goal_ms", GOAL_MS);
        m.put("lag_p99_ms", Math.round(lagP99Ms * 1000) / 1000.0);
        m.put("timer_jitter_p99_ms", Math.round(jitter.p99Ms() * 1000) / 1000.0);
        if (duringRun != null) {
            m.put("timer_jitter_during_run_p99_ms", Math.round(duringRun.p99Ms() * 1000) / 1000.0);
        }
        m.put("met", lagP99Ms <= GOAL_MS);
        m.put("host_allows", jitter.allows(GOAL_MS));
        boolean contended = duringRun != null && !duringRun.allows(GOAL_MS);
        if (duringRun != null) {
            m.put("load_allows", !contended);
        }
        String verdict;
        if (!jitter.allows(GOAL_MS)) {
            verdict = String.format(Locale.ROOT, "send lag p99 %.3f ms; the host's own timer jitter p99 is %.3f ms, over the "
                    + "%.2f ms goal: this host does not allow the goal (a sleeping thread alone wakes that late)",
                    lagP99Ms, jitter.p99Ms(), GOAL_MS);
        } else if (lagP99Ms <= GOAL_MS) {
            verdict = String.format(Locale.ROOT, "send lag p99 %.3f ms: within the %.2f ms goal (the host's timer jitter p99 %.3f ms)",
                    lagP99Ms, GOAL_MS, jitter.p99Ms());
        } else if (contended) {
            verdict = String.format(Locale.ROOT, "send lag p99 %.3f ms: over the %.2f ms goal; the host's timer alone "
                    + "keeps to it (p99 %.3f ms) but not under this run's load: a thread that only sleeps (%.0f µs "
                    + "schedule) woke p99 %.3f ms late during the run, so the CPUs were contended (the generator, the "
                    + "bench server if in this JVM, the JIT, the GC, other processes), not the generator's scheduling "
                    + "alone", lagP99Ms, GOAL_MS, jitter.p99Ms(), duringRun.periodUs(), duringRun.p99Ms());
        } else {
            verdict = String.format(Locale.ROOT, "send lag p99 %.3f ms: over the %.2f ms goal while the host's own timer "
                    + "jitter p99 is %.3f ms%s: the generator's, not the host's", lagP99Ms, GOAL_MS, jitter.p99Ms(),
                    duringRun == null ? "" : String.format(Locale.ROOT, " (%.3f ms during the run)", duringRun.p99Ms()));
        }
        m.put("verdict", verdict);
        return m;
    }

}
