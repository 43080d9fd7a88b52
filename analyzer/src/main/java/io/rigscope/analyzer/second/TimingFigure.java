package io.rigscope.analyzer.second;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One Server-Timing metric's figures over a span (a repeat, or one second): the median and the 99th percentile of
 * the durations the service reported for it, ms (3 decimals).
 *
 * @param p50Ms median, ms
 * @param p99Ms 99th percentile, ms
 */
@JsonPropertyOrder({"p50_ms", "p99_ms"})
public record TimingFigure(@JsonProperty("p50_ms") double p50Ms, @JsonProperty("p99_ms") double p99Ms) {
}
