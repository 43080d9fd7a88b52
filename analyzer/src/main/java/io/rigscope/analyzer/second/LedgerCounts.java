package io.rigscope.analyzer.second;

import io.rigscope.model.wire.Ledger;

/**
 * A generator ledger's four counts, summed: requests due, sent, dropped (could not start) and completed.
 *
 * @param scheduled requests due
 * @param sent requests sent
 * @param dropped requests that could not start (the concurrency cap)
 * @param completed requests that ended
 */
record LedgerCounts(long scheduled, long sent, long dropped, long completed) {

    /** Nothing counted. */
    public static final LedgerCounts ZERO = new LedgerCounts(0, 0, 0, 0);

    /** These counts with one ledger record's added. */
    public LedgerCounts plus(Ledger l) {
        return new LedgerCounts(scheduled + l.scheduled(), sent + l.sent(), dropped + l.dropped(),
                completed + l.completed());
    }

    /** These counts with {@code other}'s added. */
    public LedgerCounts plus(LedgerCounts other) {
        return new LedgerCounts(scheduled + other.scheduled, sent + other.sent, dropped + other.dropped,
                completed + other.completed);
    }
}
