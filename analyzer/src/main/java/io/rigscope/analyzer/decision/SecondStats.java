package io.rigscope.analyzer.decision;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.rigscope.model.wire.LatencySettings;

/**
 * One scenario's second, cut by the requests' end ({@code t2}), with the ledger's counts for it.
 *
 * @param sec the second, epoch seconds
 * @param count requests that ended in it
 * @param failed of those, failed requests
 * @param slowCount of those, requests whose service time exceeded the slow threshold in force
 * @param maxServiceUs the worst service time, exact
 * @param p50ServiceUs median service time
 * @param p99ServiceUs 99th percentile service time
 * @param p99ResponseUs 99th percentile response time ({@code t2 - t0})
 * @param freeze whether the second is a freeze-second ({@link io.rigscope.analyzer.freeze.FreezeRule}, decided
 *     once, when the second's figures are taken)
 * @param exact true when the ledger watermark closed it; false when it was closed at the end of input or is
 *     shown before it closed
 * @param ledger the generators' ledger for this second (summed), {@link SecondLedger#NONE} when none arrived
 */
@WireView
@JsonPropertyOrder({"sec", "count", "failed", "slow", "max_ms", "p50_ms", "p99_ms", "response_p99_ms", "freeze",
    "final", "scheduled", "sent", "dropped", "in_flight"})
public record SecondStats(@JsonProperty("sec") long sec, @JsonProperty("count") long count,
                          @JsonProperty("failed") long failed, @JsonProperty("slow") long slowCount, long maxServiceUs,
                          long p50ServiceUs, long p99ServiceUs, long p99ResponseUs,
                          @JsonProperty("freeze") boolean freeze, @JsonProperty("final") boolean exact,
                          SecondLedger ledger) {

    public SecondStats {
        ledger = ledger == null ? SecondLedger.NONE : ledger;
    }

    @JsonProperty("max_ms")
    double maxMs() {
        return maxServiceUs / LatencySettings.US_PER_MS;
    }

    @JsonProperty("p50_ms")
    double p50Ms() {
        return p50ServiceUs / LatencySettings.US_PER_MS;
    }

    @JsonProperty("p99_ms")
    double p99Ms() {
        return p99ServiceUs / LatencySettings.US_PER_MS;
    }

    @JsonProperty("response_p99_ms")
    double responseP99Ms() {
        return p99ResponseUs / LatencySettings.US_PER_MS;
    }

    /** Requests due in this second (by intended start), every generator: the offered load. */
    @JsonProperty("scheduled")
    long scheduled() {
        return ledger.scheduled();
    }

    @JsonProperty("sent")
    long sent() {
        return ledger.sent();
    }

    @JsonProperty("dropped")
    long dropped() {
        return ledger.dropped();
    }

    /** Requests sent but not yet ended at the end of this second (cumulative sent - cumulative completed). */
    @JsonProperty("in_flight")
    long inFlight() {
        return ledger.inFlight();
    }

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
}
