package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.GateResult;

/** {@code config}: the series' CONFIG marker was understood. Present only when it was not. */
final class ConfigGate implements Gate {

    @Override
    public String name() {
        return "config";
    }

    @Override
    public String rule() {
        return "every CONFIG marker of the series is valid (a bad threshold or setting fails every repeat)";
    }

    @Override
    public boolean appliesTo(RepeatFacts facts) {
        return !facts.configErrors().isEmpty();
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        return new GateResult(name(), facts.configErrors().isEmpty(), String.join("; ", facts.configErrors()), null);
    }
}
