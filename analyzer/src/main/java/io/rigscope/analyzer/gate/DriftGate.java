package io.rigscope.analyzer.gate;

import io.rigscope.analyzer.drift.DriftRule;

/**
 * {@code drift}: the p99 of the last third over the p99 of the first third ({@link DriftRule}) is at most
 * {@code drift_bound}. A drift that cannot be measured fails.
 */
public final class DriftGate implements Gate {

    private final double bound;

    /** @param bound the setting {@code drift_bound} (default 1.5) */
    public DriftGate(double bound) {
        this.bound = bound;
    }

    @Override
    public String name() {
        return "drift";
    }

    @Override
    public String rule() {
        return "p99 of the last third / p99 of the first third <= " + bound + " (drift_bound); unmeasurable fails";
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        Double drift = facts.drift();
        return new GateResult(name(), drift != null && drift <= bound, drift == null ? null : Gate.round(drift, 4),
                bound);
    }
}
