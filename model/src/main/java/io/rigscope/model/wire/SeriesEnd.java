package io.rigscope.model.wire;

import java.util.Map;

/**
 * {@link Marker.Kind#SERIES_END}: a live analysis ends once it and every repeat's data are in.
 *
 * @param schedule a generator's schedule facts when its plan is a whole series, or null
 * @param repeats how many repeats the orchestrator ran, or null
 * @param other keys this record does not know, kept in order (see {@link MarkerBody})
 */
public record SeriesEnd(ScheduleEnd schedule, Long repeats, Map<String, Object> other) implements MarkerBody {

    static final String REPEATS = "repeats";

    /** An end with nothing to say. */
    public static final SeriesEnd EMPTY = new SeriesEnd(null, null, null);

    public SeriesEnd {
        other = BodyFields.copy(other);
    }

    /** The orchestrator's end: how many repeats ran. */
    public static SeriesEnd ofRepeats(long repeats) {
        return new SeriesEnd(null, repeats, null);
    }

    @Override
    public Marker.Kind kind() {
        return Marker.Kind.SERIES_END;
    }

    static SeriesEnd read(BodyFields f) {
        ScheduleEnd schedule = ScheduleEnd.read(f);
        return new SeriesEnd(schedule, f.whole(REPEATS), f.rest());
    }

    @Override
    public Map<String, Object> toData() {
        BodyFields.Writer w = BodyFields.out();
        if (schedule != null) {
            schedule.write(w);
        }
        return w.put(REPEATS, repeats).putAll(other).done();
    }
}
