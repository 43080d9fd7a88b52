package io.rigscope.model.wire;

import java.util.List;

/**
 * What a generator's start marker (SERIES_START, REPEAT_START or PHASE_START, by its plan's lifecycle) says of its
 * schedule. Not a body itself: part of {@link SeriesStart}, {@link RepeatStart} and {@link PhaseStart}.
 *
 * @param mode {@code open-loop} or {@code closed-loop}
 * @param startEpochUs the schedule's start, epoch µs
 * @param durationMs the scheduled duration, ms
 * @param scenarios the scenario names, in plan order
 * @param share the generator's share of a shared schedule ({@code K/N}), or null when it runs all of it
 * @param generators how many generators share the schedule ({@code N}), or null when one runs it
 */
public record ScheduleStart(String mode, Long startEpochUs, Long durationMs, List<String> scenarios, String share,
                            Integer generators) {

    public ScheduleStart {
        scenarios = scenarios == null ? null : List.copyOf(scenarios);
    }

    /** The body of a start marker of {@code kind} carrying this schedule. */
    public MarkerBody body(Marker.Kind kind) {
        return switch (kind) {
            case SERIES_START -> new SeriesStart(null, null, null, null, this, null);
            case REPEAT_START -> new RepeatStart(null, null, null, mode, startEpochUs, null, durationMs, null, null,
                    scenarios, share, generators, null, null, null);
            case PHASE_START -> new PhaseStart(this, null);
            default -> throw new IllegalArgumentException("not a start marker: " + kind);
        };
    }

    static final String MODE = "mode";
    static final String START_EPOCH_US = "start_epoch_us";
    static final String DURATION_MS = "duration_ms";
    static final String SCENARIOS = "scenarios";
    static final String SHARE = "share";
    static final String GENERATORS = "generators";

    /** Null when none of its keys is there. */
    static ScheduleStart read(BodyFields f) {
        if (f.noneOf(MODE, START_EPOCH_US, DURATION_MS, SCENARIOS, SHARE, GENERATORS)) {
            return null;
        }
        return new ScheduleStart(f.string(MODE), f.whole(START_EPOCH_US), f.whole(DURATION_MS), f.strings(SCENARIOS),
                f.string(SHARE), f.integer(GENERATORS));
    }

    void write(BodyFields.Writer w) {
        w.put(MODE, mode).put(START_EPOCH_US, startEpochUs).put(DURATION_MS, durationMs).put(SCENARIOS, scenarios)
                .put(SHARE, share).put(GENERATORS, generators);
    }
}
