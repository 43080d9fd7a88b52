package io.rigscope.analyzer.second;

/**
 * The ledger's side of one second of one scenario, summed over its generators: what was due, sent and dropped
 * in it (by intended start), what ended in it, and what was still in flight at its end.
 *
 * @param scheduled requests due in the second
 * @param sent requests sent in it
 * @param dropped requests that could not start (concurrency cap)
 * @param completed requests that ended in it
 * @param inFlight requests sent up to its end and not ended by then (cumulative sent - cumulative completed)
 */
public record SecondLedger(long scheduled, long sent, long dropped, long completed, long inFlight) {

    /** No ledger arrived for the second (yet). */
    public static final SecondLedger NONE = new SecondLedger(0, 0, 0, 0, 0);
}
