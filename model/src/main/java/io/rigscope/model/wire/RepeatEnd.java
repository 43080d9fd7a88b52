package io.rigscope.model.wire;

import java.util.List;
import java.util.Map;

/**
 * {@link Marker.Kind#REPEAT_END}. The analyzer reads {@code stopped} (in the generator's {@link ScheduleEnd}: {@link #stop()}),
 * {@code k6_thresholds} and, from a time-closed source, {@code samples_by_scenario}.
 *
 * @param schedule a generator's schedule facts, or null (an importer's end)
 * @param samplesByScenario a time-closed source's samples published in the repeat, by scenario; or null
 * @param endedBy why a followed k6 run ended ({@code idle}, {@code duration}, {@code stopped}, {@code failed}), or
 *     null
 * @param cutShort true when the k6 output ended mid-line (a killed run); null otherwise
 * @param unreadableLines k6 output lines skipped, or null when none
 * @param k6Thresholds the k6 thresholds as the importer judged them ({@link K6Threshold}), or null
 * @param other keys this record does not know, kept in order (see {@link MarkerBody})
 */
public record RepeatEnd(ScheduleEnd schedule, Map<String, Long> samplesByScenario, String endedBy, Boolean cutShort,
                        Long unreadableLines, List<K6Threshold> k6Thresholds, Map<String, Object> other)
        implements MarkerBody {

    /** Data key of {@link #samplesByScenario}, for messages. */
    public static final String SAMPLES_BY_SCENARIO = "samples_by_scenario";
    static final String ENDED_BY = "ended_by";
    static final String CUT_SHORT = "cut_short";
    static final String UNREADABLE_LINES = "unreadable_lines";
    static final String K6_THRESHOLDS = "k6_thresholds";

    /** An end with nothing to say. */
    public static final RepeatEnd EMPTY = new RepeatEnd(null, null, null, null, null, null, null);

    public RepeatEnd {
        samplesByScenario = samplesByScenario == null ? null : java.util.Collections.unmodifiableMap(
                new java.util.LinkedHashMap<>(samplesByScenario));
        k6Thresholds = k6Thresholds == null ? null : List.copyOf(k6Thresholds);
        other = BodyFields.copy(other);
    }

    /** An importer's end; any argument may be null (a false {@code cutShort} or 0 lines are not written). */
    public static RepeatEnd imported(Map<String, Long> samplesByScenario, String endedBy, boolean cutShort,
                                     long unreadableLines, List<K6Threshold> k6Thresholds) {
        return new RepeatEnd(null, samplesByScenario, endedBy, cutShort ? Boolean.TRUE : null,
                unreadableLines > 0 ? unreadableLines : null,
                k6Thresholds == null || k6Thresholds.isEmpty() ? null : k6Thresholds, null);
    }

    /** An end that states only the stop which ended the schedule early (an ABORT verdict's facts). */
    public static RepeatEnd ofStop(VerdictFacts.Abort stop) {
        return new RepeatEnd(new ScheduleEnd(null, null, null, null, null, null, null, null, stop),
                null, null, null, null, null, null);
    }

    /**
     * The samples a time-closed source published in the repeat, by scenario, or null when the marker states none.
     *
     * @throws IllegalArgumentException naming the key when the marker has it but not as scenario -> count >= 0
     */
    public Map<String, Long> samplesPublished() {
        Object unread = other.get(SAMPLES_BY_SCENARIO);
        if (samplesByScenario == null && unread != null) {
            throw new IllegalArgumentException(SAMPLES_BY_SCENARIO + " must be an object of scenario -> count, was "
                    + unread);
        }
        if (samplesByScenario != null) {
            for (var e : samplesByScenario.entrySet()) {
                if (e.getValue() < 0) {
                    throw new IllegalArgumentException(SAMPLES_BY_SCENARIO + "." + e.getKey()
                            + " must be a count >= 0, was " + e.getValue());
                }
            }
        }
        return samplesByScenario;
    }

    /**
     * The stop that ended the generator's schedule early (the facts of the ABORT verdict it received), or null when
     * none did.
     *
     * @throws IllegalArgumentException when the marker has a {@code stopped} object that is not such a verdict's
     *     body as rigscope writes it (it is kept as it came, under {@link #other})
     */
    public VerdictFacts.Abort stop() {
        if (schedule != null && schedule.stopped() != null) {
            return schedule.stopped();
        }
        Object unread = other.get(ScheduleEnd.STOPPED);
        if (unread != null) {
            throw new IllegalArgumentException("REPEAT_END stopped is not an ABORT verdict's body as rigscope writes "
                    + "it (by, threshold, value, limit, at_ms, delay_ms, scheduled_ms, seconds_closed, in that order, "
                    + "value and limit as decimals), was " + unread);
        }
        return null;
    }

    @Override
    public Marker.Kind kind() {
        return Marker.Kind.REPEAT_END;
    }

    static RepeatEnd read(BodyFields f) {
        ScheduleEnd schedule = ScheduleEnd.read(f);
        return new RepeatEnd(schedule, f.counts(SAMPLES_BY_SCENARIO), f.string(ENDED_BY), f.bool(CUT_SHORT),
                f.whole(UNREADABLE_LINES), f.objects(K6_THRESHOLDS, K6Threshold::read), f.rest());
    }

    @Override
    public Map<String, Object> toData() {
        BodyFields.Writer w = BodyFields.out();
        if (schedule != null) {
            schedule.write(w);
        }
        return w.put(SAMPLES_BY_SCENARIO, samplesByScenario).put(ENDED_BY, endedBy).put(CUT_SHORT, cutShort)
                .put(UNREADABLE_LINES, unreadableLines)
                .put(K6_THRESHOLDS, k6Thresholds == null ? null
                        : k6Thresholds.stream().map(K6Threshold::toData).toList())
                .putAll(other).done();
    }
}
