package io.rigscope.analyzer.gate;

import io.rigscope.model.wire.DatabaseGain;
import java.util.function.ToLongFunction;

/**
 * The two reconciliation gates: {@code reconciliation_rows} (rows the database gained == events the samples
 * claim) and {@code reconciliation_qty} (Σ quantity gained == Σ quantity the samples claim). The claim is the
 * analyzer's own, from the primary scenario's 2xx samples; the gain is the RECONCILIATION marker's. Present when
 * a marker arrived or {@code reconciliation_required} is on; without a marker they fail (value null).
 */
public final class ReconciliationGate implements Gate {

    private final String name;
    private final boolean required;
    private final ToLongFunction<DatabaseGain> gained;
    private final ToLongFunction<RepeatFacts.Claim> claimed;
    private final String sentence;

    private ReconciliationGate(String name, boolean required, ToLongFunction<DatabaseGain> gained,
                               ToLongFunction<RepeatFacts.Claim> claimed, String sentence) {
        this.name = name;
        this.required = required;
        this.gained = gained;
        this.claimed = claimed;
        this.sentence = sentence;
    }

    /** {@code reconciliation_rows}: rows written == events claimed. */
    public static ReconciliationGate rows(boolean required) {
        return new ReconciliationGate("reconciliation_rows", required, DatabaseGain::rowsWritten,
                RepeatFacts.Claim::events, "rows the database gained == events in 2xx answers");
    }

    /** {@code reconciliation_qty}: Σ quantity gained == Σ quantity sent in 2xx answers. */
    public static ReconciliationGate quantity(boolean required) {
        return new ReconciliationGate("reconciliation_qty", required, DatabaseGain::qtySumGained,
                RepeatFacts.Claim::qtySum, "Σ quantity the database gained == Σ quantity sent in 2xx answers");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String rule() {
        return sentence + " (reconciliation_required " + required + ")";
    }

    @Override
    public boolean appliesTo(RepeatFacts facts) {
        return facts.gained() != null || required;
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        if (facts.gained() == null) {
            return new GateResult(name, false, null, null);
        }
        long value = gained.applyAsLong(facts.gained());
        long limit = claimed.applyAsLong(facts.claim());
        return new GateResult(name, value == limit, value, limit);
    }
}
