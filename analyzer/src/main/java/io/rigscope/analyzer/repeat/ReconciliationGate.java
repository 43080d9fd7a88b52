package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.model.wire.DatabaseGain;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * The two reconciliation gates: {@code reconciliation_rows} (rows the database gained == events the samples
 * claim) and {@code reconciliation_qty} (Σ quantity gained == Σ quantity the samples claim). The claim is the
 * analyzer's own, from the primary scenario's samples answered 2xx that passed their checks (not failed); the gain
 * is the RECONCILIATION marker's. Present when a marker arrived or {@code reconciliation_required} is on; without a
 * marker they fail (value null).
 *
 * <p>Never vacuous: a repeat that claimed 0 events while the database gained 0 rows measured nothing and proves
 * nothing, so both gates fail with the reason {@value #NOTHING}. A mismatch names its direction and size in the
 * result's reason ("the database gained 12 rows beyond the 240 events claimed": an API that stored part of a
 * request it answered as failed), and sets the rows beyond the claims against the failed requests that may have
 * stored them ({@link RepeatFacts.Claim#explain}: "; 262 requests of 10 events timed out: 2,620 events that may have
 * been stored, which can explain the 1,780").
 */
final class ReconciliationGate implements Gate {

    /** The reason both gates give when the repeat claimed no event and the database gained no row. */
    static final String NOTHING = RepeatSummary.NOTHING_MEASURED;

    private final String name;
    private final boolean required;
    private final ToLongFunction<DatabaseGain> gained;
    private final ToLongFunction<RepeatFacts.Claim> claimed;
    /** The reason when the database gained more, a format of (difference, claimed). */
    private final String beyond;
    /** The reason when it gained less, a format of (difference, claimed). */
    private final String fewer;
    private final String sentence;

    private ReconciliationGate(String name, boolean required, ToLongFunction<DatabaseGain> gained,
                               ToLongFunction<RepeatFacts.Claim> claimed, String beyond, String fewer,
                               String sentence) {
        this.name = name;
        this.required = required;
        this.gained = gained;
        this.claimed = claimed;
        this.beyond = beyond;
        this.fewer = fewer;
        this.sentence = sentence;
    }

    /** {@code reconciliation_rows}: rows written == events claimed. */
    public static ReconciliationGate rows(boolean required) {
        return new ReconciliationGate("reconciliation_rows", required, DatabaseGain::rowsWritten,
                RepeatFacts.Claim::events, "the database gained %d rows beyond the %d events claimed",
                "the database gained %d rows fewer than the %d events claimed",
                "rows the database gained == events in 2xx answers that passed their checks, and not both 0");
    }

    /** {@code reconciliation_qty}: Σ quantity gained == Σ quantity sent in 2xx answers that passed their checks. */
    public static ReconciliationGate quantity(boolean required) {
        return new ReconciliationGate("reconciliation_qty", required, DatabaseGain::qtySumGained,
                RepeatFacts.Claim::qtySum, "the database gained Σ quantity %d beyond the %d claimed",
                "the database gained Σ quantity %d short of the %d claimed",
                "Σ quantity the database gained == Σ quantity sent in 2xx answers that passed their checks, and not "
                    + "0 rows gained for 0 events claimed");
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
        if (facts.gained().rowsWritten() == 0 && facts.claim().events() == 0) {
            return new GateResult(name, false, value, limit, NOTHING);
        }
        if (value > limit) {
            String reason = String.format(Locale.ROOT, beyond, value - limit, limit);
            long beyondRows = facts.gained().rowsWritten() - facts.claim().events();
            String explained = beyondRows > 0 && name.equals("reconciliation_rows") ? facts.claim().explain(beyondRows) : null;
            return new GateResult(name, false, value, limit, explained == null ? reason : reason + "; " + explained);
        }
        if (value < limit) {
            return new GateResult(name, false, value, limit, String.format(Locale.ROOT, fewer, limit - value, limit));
        }
        return new GateResult(name, true, value, limit);
    }
}
