package io.rigscope.analyzer.gate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One gate's outcome for one repeat.
 *
 * @param name the gate's name, e.g. {@code dropped} or {@code http_req_duration: p(99)<500}
 * @param pass whether it held
 * @param value what was measured (a number, or text for a config error), or null when nothing could be measured
 * @param limit the bound it was held against, or null
 */
public record GateResult(String name, boolean pass, Object value, Object limit) {

    public GateResult {
        Objects.requireNonNull(name, "name");
    }

    /** {@code {pass, value, limit}}, the report's form. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pass", pass);
        m.put("value", value);
        m.put("limit", limit);
        return m;
    }
}
