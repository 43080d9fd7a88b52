package io.rigscope.analyzer.gate;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.rigscope.analyzer.api.WireView;
import java.util.Objects;

/**
 * One gate's outcome for one repeat. JSON: {@code {"pass", "value", "limit"}} (the name is the key it sits under).
 *
 * @param name the gate's name, e.g. {@code dropped} or {@code http_req_duration: p(99)<500}
 * @param pass whether it held
 * @param value what was measured (a number, or text for a config error), or null when nothing could be measured
 * @param limit the bound it was held against, or null
 */
@WireView
@JsonPropertyOrder({"pass", "value", "limit"})
public record GateResult(String name, @JsonProperty("pass") boolean pass, @JsonProperty("value") Object value,
                         @JsonProperty("limit") Object limit) {

    public GateResult {
        Objects.requireNonNull(name, "name");
    }

    /** {@code name (value vs limit)}: how a console names a failed gate. */
    public String describe() {
        return name + " (" + value + " vs " + limit + ")";
    }
}
