package io.rigscope.generator;

import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.ScheduleEnd;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One scenario's run as its schedule saw it: what was due, sent, dropped and ended, how the ends failed, and how
 * late the sends were. No latency figures and no claims (events and quantity in 2xx answers): the analyzer is the
 * only source of those ({@code rigscope analyze --series ID}), from the samples the run published.
 *
 * @param name scenario name
 * @param scheduled requests due by the schedule (closed loop: started)
 * @param sent requests sent
 * @param dropped requests not sent because max in-flight was reached (never retried)
 * @param completed requests that ended (any outcome)
 * @param failed requests that ended with an error kind other than none
 * @param errors failed requests by error kind
 * @param lagP50Ms median send lag {@code t1 - t0}: the schedule's own adherence
 * @param lagP99Ms p99 send lag
 * @param lagMaxMs largest send lag
 * @param firstSendEpochUs first actual send (0 when none)
 * @param lastSendEpochUs last actual send (0 when none)
 * @param inFlightMax open loop: the most requests out at once (over every lane, each lane's most added); it reaches
 *                    {@code max_in_flight} exactly when requests were dropped
 */
public record ScenarioSummary(String name, long scheduled, long sent, long dropped, long completed, long failed,
                              Map<ErrorKind, Long> errors, double lagP50Ms, double lagP99Ms, double lagMaxMs,
                              long firstSendEpochUs, long lastSendEpochUs, int inFlightMax) {

    public ScenarioSummary {
        Objects.requireNonNull(name, "name");
        errors = Map.copyOf(errors);
    }

    /** As an end marker carries it: every component, errors keyed by their wire code. */
    public ScheduleEnd.ScenarioFacts toFacts() {
        Map<String, Long> byKind = new LinkedHashMap<>();
        errors.forEach((k, v) -> byKind.put(k.code(), v));
        return new ScheduleEnd.ScenarioFacts(name, scheduled, sent, dropped, completed, failed, byKind, lagP50Ms,
                lagP99Ms, lagMaxMs, firstSendEpochUs, lastSendEpochUs, null);
    }

    /** Plain data for JSON output: every component, errors keyed by their wire code. */
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
        m.put("lag_p50_ms", lagP50Ms);
        m.put("lag_p99_ms", lagP99Ms);
        m.put("lag_max_ms", lagMaxMs);
        m.put("first_send_epoch_us", firstSendEpochUs);
        m.put("last_send_epoch_us", lastSendEpochUs);
        m.put("in_flight_max", inFlightMax);
        return m;
    }
}
