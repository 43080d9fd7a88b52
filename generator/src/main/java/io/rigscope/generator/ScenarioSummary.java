package io.rigscope.generator;

import io.rigscope.model.wire.ErrorKind;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One scenario's totals over a run. Reconciliation compares {@link #eventsClaimed} and
 * {@link #quantityClaimed} (events in requests answered 2xx, and their Σ quantity) with the database.
 *
 * @param name scenario name
 * @param scheduled requests due by the schedule (closed loop: started)
 * @param sent requests sent
 * @param dropped requests not sent because max in-flight was reached (never retried)
 * @param completed requests that ended (any outcome)
 * @param failed requests that ended with an error kind other than none
 * @param errors failed requests by error kind
 * @param eventsSent events in every sent request that ended
 * @param quantitySent Σ quantity in every sent request that ended
 * @param eventsClaimed events in requests answered 2xx
 * @param quantityClaimed Σ quantity in requests answered 2xx
 * @param serviceP50Ms median {@code t2 - t1}
 * @param serviceP99Ms p99 {@code t2 - t1}
 * @param responseP99Ms p99 {@code t2 - t0}
 * @param lagP50Ms median send lag {@code t1 - t0}
 * @param lagP99Ms p99 send lag
 * @param lagMaxMs largest send lag
 * @param firstSendEpochUs first actual send (0 when none)
 * @param lastSendEpochUs last actual send (0 when none)
 */
public record ScenarioSummary(String name, long scheduled, long sent, long dropped, long completed, long failed,
                              Map<ErrorKind, Long> errors, long eventsSent, long quantitySent, long eventsClaimed,
                              long quantityClaimed, double serviceP50Ms, double serviceP99Ms, double responseP99Ms,
                              double lagP50Ms, double lagP99Ms, double lagMaxMs, long firstSendEpochUs,
                              long lastSendEpochUs) {

    public ScenarioSummary {
        errors = Map.copyOf(errors);
    }

    /** Plain data for markers and JSON output. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenario", name);
        m.put("scheduled", scheduled);
        m.put("sent", sent);
        m.put("dropped", dropped);
        m.put("completed", completed);
        m.put("failed", failed);
        Map<String, Long> byKind = new LinkedHashMap<>();
        errors.forEach((k, v) -> byKind.put(k.code(), v));
        m.put("errors", byKind);
        m.put("events_sent", eventsSent);
        m.put("quantity_sent", quantitySent);
        m.put("events_claimed", eventsClaimed);
        m.put("quantity_claimed", quantityClaimed);
        m.put("service_p50_ms", serviceP50Ms);
        m.put("service_p99_ms", serviceP99Ms);
        m.put("response_p99_ms", responseP99Ms);
        m.put("lag_p50_ms", lagP50Ms);
        m.put("lag_p99_ms", lagP99Ms);
        m.put("lag_max_ms", lagMaxMs);
        return m;
    }
}
