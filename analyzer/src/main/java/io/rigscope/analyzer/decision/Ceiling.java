package io.rigscope.analyzer.decision;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The closed-loop ceiling: the most the system delivered with a fixed number of workers and no schedule. A
 * maximum, never a service level: it has no latency figure and no gate. Beside it, when the series ran one,
 * the database's own ceiling for the same rows (pgbench) and the ratio of the two.
 *
 * <p>Rule: {@code requests_per_s} = requests of the primary scenario that did not fail / the run's scheduled
 * duration (its REPEAT_START marker's {@code duration_ms}; without one, from the first intended start to the
 * last end); {@code events_per_s} = events in 2xx answers that passed their checks / the same duration;
 * {@code ratio} = {@code events_per_s / denominator_rows_per_s}.
 *
 * @param rep the repeat number the ceiling ran as
 * @param scenario the primary scenario
 * @param durationSec the duration the rates are taken over, seconds
 * @param requestsPerSec delivered requests per second
 * @param eventsPerSec events in 2xx answers that passed their checks, per second
 * @param failed failed requests
 * @param denominatorRowsPerSec the database alone (pgbench, same insert and batch), rows/s, or null
 */
@WireView
@JsonPropertyOrder({"rep", "scenario", "duration_s", "requests_per_s", "events_per_s", "failed",
    "denominator_rows_per_s", "ratio"})
public record Ceiling(@JsonProperty("rep") int rep, @JsonProperty("scenario") String scenario, double durationSec,
                      double requestsPerSec, double eventsPerSec, @JsonProperty("failed") long failed,
                      @JsonProperty("denominator_rows_per_s") @JsonInclude(JsonInclude.Include.NON_NULL)
                      Double denominatorRowsPerSec) {

    /** This ceiling beside the database's own (rows/s), or null. */
    public Ceiling withDenominator(Double rowsPerSec) {
        return new Ceiling(rep, scenario, durationSec, requestsPerSec, eventsPerSec, failed, rowsPerSec);
    }

    /** events/s over the database's rows/s, 2 decimals; null without a denominator. */
    public Double ratio() {
        return denominatorRowsPerSec == null || denominatorRowsPerSec <= 0 ? null
                : Math.round(eventsPerSec / denominatorRowsPerSec * 100.0) / 100.0;
    }

    @JsonProperty("duration_s")
    double wireDuration() {
        return round1(durationSec);
    }

    @JsonProperty("requests_per_s")
    double wireRequests() {
        return round1(requestsPerSec);
    }

    @JsonProperty("events_per_s")
    double wireEvents() {
        return round1(eventsPerSec);
    }

    @JsonProperty("ratio")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    Double wireRatio() {
        return ratio();
    }

    private static double round1(double v) {
        return Math.round(v * 10.0) / 10.0;
    }
}
