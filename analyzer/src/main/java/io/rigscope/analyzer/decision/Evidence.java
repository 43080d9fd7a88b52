package io.rigscope.analyzer.decision;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * One fact an attribution used, from one stream, typed: where, when, what, how much, in which unit, and the
 * fact in words (with the join tolerance when one applied).
 *
 * @param stream where it came from, e.g. {@code rig.samples}, {@code rig.health}, {@code rig.waits}
 * @param tsUs when, epoch µs (the record's own time), or null for a fact over a span
 * @param what the quantity's name, e.g. {@code wal_fpi}, {@code Lock:transactionid share}, or null
 * @param value the quantity, or null
 * @param unit its unit, e.g. {@code ms}, {@code sessions}, {@code fraction}, or null
 * @param fact what was seen, in words with units, e.g. {@code 3 freeze-seconds, worst 812.3 ms}
 */
@WireView
@JsonPropertyOrder({"stream", "ts", "what", "value", "unit", "fact"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Evidence(@JsonProperty("stream") String stream, @JsonProperty("ts") Long tsUs,
                       @JsonProperty("what") String what, @JsonProperty("value") Double value,
                       @JsonProperty("unit") String unit, @JsonProperty("fact") String fact) {
    public Evidence {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(fact, "fact");
    }

    /** A fact in words only. */
    public Evidence(String stream, String fact) {
        this(stream, null, null, null, null, fact);
    }

    /** A measured quantity at a time. */
    public static Evidence measured(String stream, long tsUs, String what, double value, String unit, String fact) {
        return new Evidence(stream, tsUs, what, value, unit, fact);
    }

    /** {@code stream: fact}. */
    public String text() {
        return stream + ": " + fact;
    }
}
