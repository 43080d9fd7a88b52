package io.rigscope.model.wire;

import java.util.Map;

/**
 * {@link Marker.Kind#PHASE_START}: not read by the analyzer.
 *
 * @param schedule a generator's schedule when its plan is a phase, or null (the orchestrator's denominator phase)
 * @param other keys this record does not know, kept in order (see {@link MarkerBody})
 */
public record PhaseStart(ScheduleStart schedule, Map<String, Object> other) implements MarkerBody {

    /** A start with nothing to say. */
    public static final PhaseStart EMPTY = new PhaseStart(null, null);

    public PhaseStart {
        other = BodyFields.copy(other);
    }

    @Override
    public Marker.Kind kind() {
        return Marker.Kind.PHASE_START;
    }

    static PhaseStart read(BodyFields f) {
        return new PhaseStart(ScheduleStart.read(f), f.rest());
    }

    @Override
    public Map<String, Object> toData() {
        BodyFields.Writer w = BodyFields.out();
        if (schedule != null) {
            schedule.write(w);
        }
        return w.putAll(other).done();
    }
}
