package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.GateResult;

/**
 * One gate of a repeat: a named rule over the repeat's {@link RepeatFacts}. A repeat passes only when every gate
 * that applies to it holds. Each implementation owns its setting, its evaluation and the sentence docs/gates.md
 * prints for it ({@link #rule()}). Implementations are immutable and pure.
 */
interface Gate {

    /** The gate's name: its key in the report's {@code gates}. */
    String name();

    /** The rule in one sentence, with its setting's value. */
    String rule();

    /** False when the gate has nothing to judge in this repeat (it is then absent from the report). */
    default boolean appliesTo(RepeatFacts facts) {
        return true;
    }

    /** Judges the repeat. */
    GateResult evaluate(RepeatFacts facts);

    /** Rounds a ratio for the report (the limit it is compared with is exact). */
    static double round(double v, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.round(v * f) / f;
    }
}
