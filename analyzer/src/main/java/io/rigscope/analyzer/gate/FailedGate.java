package io.rigscope.analyzer.gate;

/** {@code failed}: no request of any scenario failed (an error kind other than none). */
public final class FailedGate implements Gate {

    @Override
    public String name() {
        return "failed";
    }

    @Override
    public String rule() {
        return "0 requests failed (non-2xx/3xx status, timeout, connection error), every scenario";
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        return new GateResult(name(), facts.failed() == 0, facts.failed(), 0);
    }
}
