package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.threshold.K6Verdict;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code k6_agreement}: with k6's own summary export of an imported run, every threshold k6 judged got the same
 * verdict from rigscope. Present only when the summary gave at least one verdict; a disagreement fails the repeat,
 * naming each threshold and both verdicts.
 */
final class K6AgreementGate implements Gate {

    private final List<K6Verdict> verdicts;

    public K6AgreementGate(List<K6Verdict> verdicts) {
        this.verdicts = List.copyOf(verdicts);
    }

    @Override
    public String name() {
        return "k6_agreement";
    }

    @Override
    public String rule() {
        return "rigscope's verdict on every k6 threshold equals k6's own (its --summary-export)";
    }

    @Override
    public boolean appliesTo(RepeatFacts facts) {
        return verdicts.stream().anyMatch(v -> v.k6Pass() != null);
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        List<K6Verdict> disagree = verdicts.stream().filter(K6Verdict::disagrees).toList();
        long compared = verdicts.stream().filter(v -> v.k6Pass() != null).count();
        Object value = disagree.isEmpty() ? (Object) (compared + " of " + verdicts.size() + " agree")
                : disagree.stream().map(v -> v.key() + ": k6 " + (v.k6Pass() ? "pass" : "fail") + ", rigscope "
                        + (v.pass() ? "pass" : "fail")).collect(Collectors.joining("; "));
        return new GateResult(name(), disagree.isEmpty(), value, null);
    }
}
