package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.GateResult;

/** {@code dropped}: no request of any scenario was dropped (the ledger's count; k6's dropped_iterations). */
final class DroppedGate implements Gate {

    @Override
    public String name() {
        return "dropped";
    }

    @Override
    public String rule() {
        return "0 requests dropped (could not start at their intended time), every scenario";
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        return new GateResult(name(), facts.dropped() == 0, facts.dropped(), 0);
    }
}
