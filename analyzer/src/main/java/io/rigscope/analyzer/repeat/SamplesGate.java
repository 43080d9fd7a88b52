package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.GateResult;

/** {@code samples}: the primary scenario has at least {@code min_samples} requests. */
final class SamplesGate implements Gate {

    private final long minSamples;

    /** @param minSamples the setting {@code min_samples} (default 1,000) */
    public SamplesGate(long minSamples) {
        this.minSamples = minSamples;
    }

    @Override
    public String name() {
        return "samples";
    }

    @Override
    public String rule() {
        return "at least " + minSamples + " requests in the primary scenario (min_samples)";
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        return new GateResult(name(), facts.samples() >= minSamples, facts.samples(), minSamples);
    }
}
