package io.rigscope.analyzer.decision;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.VerdictFacts;
import java.util.Objects;

/**
 * A repeat stopped early because a threshold with k6's {@code abortOnFail} failed while it ran ({@code repeat.RepeatJudge.AbortOnFail}):
 * what was measured when the analyzer decided it. The analyzer decides it live; the runner stops the generator,
 * which writes these facts (the ABORT verdict's body) into the repeat's REPEAT_END marker ({@code stopped}), so a
 * replay reads the same
 * stop from the marker and reports what the live run reported.
 *
 * @param threshold the threshold's gate name, e.g. {@code http_req_duration: p(99)<500}
 * @param value what it measured over the seconds closed by then, rounded to 4 decimals
 * @param limit the expression's number
 * @param atMs how far into the repeat's schedule the last of those seconds ended, ms
 * @param delayMs its {@code delayAbortEval}, ms (0 when not given)
 * @param scheduledMs the repeat's scheduled duration, ms (0 when unknown)
 * @param secondsClosed the seconds of the repeat closed by then (a second closed in several scenarios counts once)
 */
@WireView
@JsonPropertyOrder({"by", "threshold", "value", "limit", "at_ms", "delay_ms", "scheduled_ms", "seconds_closed"})
public record Abort(@JsonProperty("threshold") String threshold, @JsonProperty("value") double value,
                    @JsonProperty("limit") double limit, @JsonProperty("at_ms") long atMs,
                    @JsonProperty("delay_ms") long delayMs, @JsonProperty("scheduled_ms") long scheduledMs,
                    @JsonProperty("seconds_closed") long secondsClosed) {

    /** What stopped the repeat, as the marker and the report name it. */
    public static final String BY = "abortOnFail";

    public Abort {
        Objects.requireNonNull(threshold, "threshold");
    }

    /** {@value #BY}: the only reason the analyzer stops a repeat. */
    @JsonProperty("by")
    public String by() {
        return BY;
    }

    /**
     * Reads a REPEAT_END marker's {@code stopped} object ({@link RepeatEnd#stop()}): this record's JSON view, as
     * {@link io.rigscope.analyzer.decision.DecisionCodec#body} writes it for the {@code ABORT} verdict.
     *
     * @throws IllegalArgumentException naming the field that is missing or of the wrong type
     */
    public static Abort of(VerdictFacts.Abort stop) {
        if (!BY.equals(stop.by())) {
            throw new IllegalArgumentException("REPEAT_END stopped.by is " + stop.by() + ", expected " + BY);
        }
        if (stop.threshold() == null || stop.threshold().isBlank()) {
            throw new IllegalArgumentException("REPEAT_END stopped.threshold is missing or not a string");
        }
        return new Abort(stop.threshold(), present("value", stop.value()), present("limit", stop.limit()),
                present("at_ms", stop.atMs()), present("delay_ms", stop.delayMs()),
                present("scheduled_ms", stop.scheduledMs()), present("seconds_closed", stop.secondsClosed()));
    }

    private static <T extends Number> T present(String field, T value) {
        if (value == null) {
            throw new IllegalArgumentException("REPEAT_END stopped." + field + " is missing or not a number");
        }
        return value;
    }

    /** These facts as the wire reads them back: the ABORT verdict's body, a REPEAT_END's {@code stopped}. */
    public VerdictFacts.Abort facts() {
        return new VerdictFacts.Abort(BY, threshold, value, limit, atMs, delayMs, scheduledMs, secondsClosed);
    }

    /** One sentence: what failed, when, over what. */
    public String describe() {
        String into = scheduledMs > 0 ? seconds(atMs) + " into its " + seconds(scheduledMs) + " schedule"
                : seconds(atMs) + " into its schedule";
        return "aborted " + into + ": `" + threshold + "` measured " + number(value) + " over the "
                + secondsClosed + " second(s) closed by then (abortOnFail"
                + (delayMs > 0 ? ", delayAbortEval " + seconds(delayMs) : "") + ")";
    }

    /** A threshold's number as its expression writes it (a whole number without decimals), as {@code Threshold} does. */
    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
    }

    private static String seconds(long ms) {
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms / 1000.0 + " s";
    }

}
