package io.rigscope.analyzer.decision;

/** A series' verdict. */
public enum SeriesVerdict {
    /** Every repeat passed every gate. */
    PASS,
    /** At least one repeat failed a gate (or there was no repeat). */
    FAIL,
    /** Sent and stored could not be reconciled: no figures are published. */
    UNRECONCILED
}
