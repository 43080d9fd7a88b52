package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A change in a series' life on {@code rig.markers}: series, repeat or phase start and end, the full
 * config snapshot, a reconciliation result, environment facts, or a gap in a telemetry stream.
 *
 * @param run series id
 * @param rep repeat number (0 for series-level markers)
 * @param src producer id
 * @param ts epoch microseconds
 * @param kind what changed
 * @param phase the phase name ({@code ladder}, {@code sustained}, {@code ceiling}, {@code seed}, ...), or null
 * @param data kind-specific facts; see docs/wire-format.md for the keys each kind carries. Never null.
 */
public record Marker(String run, int rep, String src, long ts, Kind kind, String phase, Map<String, Object> data)
        implements WireRecord {

    /** The closed set of marker kinds. */
    public enum Kind {
        SERIES_START, SERIES_END, REPEAT_START, REPEAT_END, PHASE_START, PHASE_END,
        CONFIG, RECONCILIATION, ENVIRONMENT, GAP
    }

    public Marker {
        Checks.header(run, rep, src, ts);
        Objects.requireNonNull(kind, "kind is missing");
        data = data == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(data));
    }

    @Override
    public Topic topic() {
        return Topic.MARKERS;
    }
}
