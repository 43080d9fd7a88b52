package io.rigscope.analyzer.decision;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * One gate's outcome for one repeat. JSON: {@code {"pass", "value", "limit"}} and, when the gate says why in
 * words, {@code "reason"} (the name is the key it sits under).
 *
 * @param name the gate's name, e.g. {@code dropped} or {@code http_req_duration: p(99)<500}
 * @param pass whether it held
 * @param value what was measured (a number, or text for a config error), or null when nothing could be measured
 * @param limit the bound it was held against, or null
 * @param reason why it failed, in one sentence, when the figures alone do not say it (e.g. {@code nothing was
 *               written, nothing was measured}); for a gate that held with its value beyond its limit, why it held
 *               (a drift within chance); null otherwise
 */
@WireView
@JsonPropertyOrder({"pass", "value", "limit", "reason"})
public record GateResult(String name, @JsonProperty("pass") boolean pass, @JsonProperty("value") Object value,
                         @JsonProperty("limit") Object limit,
                         @JsonProperty("reason") @JsonInclude(JsonInclude.Include.NON_NULL) String reason) {

    public GateResult {
        Objects.requireNonNull(name, "name");
    }

    /** A result whose figures speak for themselves (no reason). */
    public GateResult(String name, boolean pass, Object value, Object limit) {
        this(name, pass, value, limit, null);
    }

    /** {@code name (value vs limit)}, then {@code : reason} when there is one: how a console names a failed gate. */
    public String describe() {
        return name + " (" + value + " vs " + limit + ")" + (reason == null ? "" : ": " + reason);
    }
}
