package io.rigscope.model.wire;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.rigscope.model.topic.Topic;
import java.util.Objects;

/**
 * A change in a series' life on {@code rig.markers}: series, repeat or phase start and end, the full
 * config snapshot, a reconciliation result, environment facts, or a gap in a telemetry stream.
 *
 * <p>Wire form: {@code {"run", "rep", "src", "ts", "kind", "phase", "data": {...}}}, {@code data} being the
 * body's ({@link MarkerBody#toData()}); {@code kind} is the body's. Read a body by pattern matching:
 * {@code if (marker.body() instanceof RepeatStart start) ...}.
 *
 * @param run series id
 * @param rep repeat number (0 for series-level markers)
 * @param src producer id
 * @param ts epoch microseconds
 * @param phase the phase name ({@code ladder}, {@code sustained}, {@code ceiling}, {@code seed}, ...), or null
 * @param body what the marker says, one record per kind; never null
 */
@JsonSerialize(using = MarkerJson.Writer.class)
@JsonDeserialize(using = MarkerJson.Reader.class)
public record Marker(String run, int rep, String src, long ts, String phase, MarkerBody body)
        implements WireRecord {

    /** The closed set of marker kinds; {@link MarkerBody} has one record per kind. */
    public enum Kind {
        SERIES_START, SERIES_END, REPEAT_START, REPEAT_END, PHASE_START, PHASE_END,
        CONFIG, RECONCILIATION, ENVIRONMENT, GAP
    }

    public Marker {
        Checks.header(run, rep, src, ts);
        Objects.requireNonNull(body, "kind is missing");
    }

    /** What changed: the body's kind. */
    public Kind kind() {
        return body.kind();
    }

    @Override
    public Topic topic() {
        return Topic.MARKERS;
    }
}
