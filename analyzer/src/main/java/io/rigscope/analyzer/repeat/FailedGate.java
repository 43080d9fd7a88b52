package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.model.wire.ErrorKind;
import java.util.Map;

/**
 * {@code failed}: no request of any scenario failed (an error kind other than none). A failing result says how
 * they failed, by error kind ({@code refused 40, timeout 2}); when every request of the repeat was refused it says
 * so with the URL the load was sent to ({@link RepeatFacts#unreachableSentence()}).
 */
final class FailedGate implements Gate {

    @Override
    public String name() {
        return "failed";
    }

    @Override
    public String rule() {
        return "0 requests failed (non-2xx/3xx status, failed check, timeout, connection error), every scenario";
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        if (facts.failed() == 0) {
            return new GateResult(name(), true, 0L, 0);
        }
        String reason;
        if (facts.unreachable()) {
            reason = facts.unreachableSentence();
        } else {
            StringBuilder b = new StringBuilder("by kind: ");
            int n = 0;
            for (Map.Entry<ErrorKind, Long> e : facts.errorsByKind().entrySet()) {
                b.append(n++ == 0 ? "" : ", ").append(e.getKey().code())
                        .append(' ').append(e.getValue());
            }
            reason = n == 0 ? null : b.toString();
        }
        return new GateResult(name(), false, facts.failed(), 0, reason);
    }
}
