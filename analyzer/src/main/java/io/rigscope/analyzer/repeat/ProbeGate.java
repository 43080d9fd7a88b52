package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.GateResult;

/**
 * {@code probe_p99_ms}: the read probe's p99 service time is at most {@code probe_p99_ms}. Present only when
 * the repeat has probe samples; the probe's samples never pool into the primary scenario's figures.
 */
final class ProbeGate implements Gate {

    private final long limitUs;

    /** @param limitUs the setting {@code probe_p99_ms} (default 500 ms), in µs */
    public ProbeGate(long limitUs) {
        this.limitUs = limitUs;
    }

    @Override
    public String name() {
        return "probe_p99_ms";
    }

    @Override
    public String rule() {
        return "the read probe's p99 <= " + limitUs / 1000.0 + " ms (probe_p99_ms), when the repeat has a probe";
    }

    @Override
    public boolean appliesTo(RepeatFacts facts) {
        return facts.probeP99Us() >= 0;
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        return new GateResult(name(), facts.probeP99Us() <= limitUs, facts.probeP99Us() / 1000.0, limitUs / 1000.0);
    }
}
