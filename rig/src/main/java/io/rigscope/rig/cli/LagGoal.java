package io.rigscope.rig.cli;

import io.rigscope.generator.bench.TimerJitter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The generator's send-lag goal, judged against the host's own timer jitter ({@code bench generator}). */
final class LagGoal {

    /** The send-lag goal: lag p99 at or under this, ms. */
    static final double GOAL_MS = 0.25;

    private LagGoal() {
    }

    /**
     * The lag goal against the host's own jitter: met; missed by the generator (the host's timer keeps to it); or
     * out of this host's reach (its timer's own p99 is over the goal).
     */
    static Map<String, Object> of(double lagP99Ms, TimerJitter jitter) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("lag_p99_goal_ms", GOAL_MS);
        m.put("lag_p99_ms", Math.round(lagP99Ms * 1000) / 1000.0);
        m.put("timer_jitter_p99_ms", Math.round(jitter.p99Ms() * 1000) / 1000.0);
        m.put("met", lagP99Ms <= GOAL_MS);
        m.put("host_allows", jitter.allows(GOAL_MS));
        String verdict;
        if (!jitter.allows(GOAL_MS)) {
            verdict = String.format(Locale.ROOT, "send lag p99 %.3f ms; the host's own timer jitter p99 is %.3f ms, over the "
                    + "%.2f ms goal: this host does not allow the goal (a sleeping thread alone wakes that late)",
                    lagP99Ms, jitter.p99Ms(), GOAL_MS);
        } else if (lagP99Ms <= GOAL_MS) {
            verdict = String.format(Locale.ROOT, "send lag p99 %.3f ms: within the %.2f ms goal (the host's timer jitter p99 %.3f ms)",
                    lagP99Ms, GOAL_MS, jitter.p99Ms());
        } else {
            verdict = String.format(Locale.ROOT, "send lag p99 %.3f ms: over the %.2f ms goal while the host's own timer "
                    + "jitter p99 is %.3f ms: the generator's, not the host's", lagP99Ms, GOAL_MS, jitter.p99Ms());
        }
        m.put("verdict", verdict);
        return m;
    }

}
