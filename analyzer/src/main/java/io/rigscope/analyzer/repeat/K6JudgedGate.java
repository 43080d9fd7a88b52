package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.threshold.ThresholdExpression;
import io.rigscope.analyzer.threshold.K6Verdict;
import java.util.Objects;

/**
 * One threshold of an imported k6 run, as the k6 importer ({@code io.rigscope.importers.k6.K6Thresholds}) judged
 * it over the run's points (k6's aggregation, every scenario together unless filtered, exact values) and the
 * REPEAT_END marker carried it. Named {@code metric{filter}: expression} as written. A threshold that could not be judged fails, its value
 * the reason.
 */
final class K6JudgedGate implements Gate {

    private final K6Verdict verdict;

    public K6JudgedGate(K6Verdict verdict) {
        this.verdict = Objects.requireNonNull(verdict, "verdict");
    }

    @Override
    public String name() {
        return verdict.key();
    }

    @Override
    public String rule() {
        return "k6 threshold " + verdict.key() + " holds over every point of the k6 run that the metric (and its tag "
                + "filter) covers, all scenarios together, aggregated as k6 does"
                + (verdict.abortOnFail() ? "; abortOnFail" + (verdict.delayAbortEval() == null ? ""
                : " (delayAbortEval " + verdict.delayAbortEval() + ")") + ": k6 aborts the run when it fails while the run goes on" : "");
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        Object value = verdict.value() != null ? (Object) Gate.round(verdict.value(), 4) : verdict.reason();
        Object limit = null;
        int colon = verdict.key().lastIndexOf(": ");
        if (colon > 0) {
            try {
                limit = ThresholdExpression.parse(verdict.key().substring(colon + 2)).limit();
            } catch (IllegalArgumentException e) {
                limit = null; // a threshold that does not parse: its value says so
            }
        }
        return new GateResult(name(), verdict.pass(), value, limit);
    }
}
