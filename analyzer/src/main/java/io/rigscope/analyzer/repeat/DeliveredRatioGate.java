package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.GateResult;

/**
 * {@code delivered_ratio} (ladder rungs): requests of the primary scenario that did not fail over requests its
 * ledger scheduled, at least {@code ladder_min_delivered_ratio}. Nothing scheduled fails.
 */
final class DeliveredRatioGate implements Gate {

    private final double minRatio;

    /** @param minRatio the setting {@code ladder_min_delivered_ratio} (default 0.99) */
    public DeliveredRatioGate(double minRatio) {
        this.minRatio = minRatio;
    }

    @Override
    public String name() {
        return "delivered_ratio";
    }

    @Override
    public String rule() {
        return "delivered / scheduled >= " + minRatio + " (ladder_min_delivered_ratio), ladder rungs only";
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        Double ratio = facts.scheduled() == 0 ? null : Gate.round((double) facts.delivered() / facts.scheduled(), 4);
        boolean pass = ratio != null && ratio >= minRatio;
        return new GateResult(name(), pass, ratio, minRatio, !pass && facts.unreachable() ? facts.unreachableSentence()
                : null);
    }
}
