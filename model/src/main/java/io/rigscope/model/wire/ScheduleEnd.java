package io.rigscope.model.wire;

import java.util.List;
import java.util.Map;

/**
 * What a generator's end marker (SERIES_END, REPEAT_END or PHASE_END, matching its start marker) says its schedule
 * did, and nothing the analyzer derives from the samples. Not a body itself: part of {@link SeriesEnd},
 * {@link RepeatEnd} and {@link PhaseEnd}. The analyzer reads only {@link #stopped}.
 *
 * @param mode {@code open-loop} or {@code closed-loop}
 * @param series the series id, as the marker's run
 * @param rep the repeat, as the marker's
 * @param src the generator, as the marker's
 * @param startEpochUs the schedule's start, epoch µs
 * @param elapsedMs from the start until the last request ended, ms
 * @param scenarios per scenario, in plan order
 * @param processCpuPct the generator's process CPU over the run, % of one core
 * @param stopped only when a stop the runner passed in ended the schedule early: the facts of the analyzer's ABORT
 *     verdict the generator received ({@link VerdictFacts.Abort}, written as that verdict's body); else null
 */
public record ScheduleEnd(String mode, String series, Integer rep, String src, Long startEpochUs, Long elapsedMs,
                          List<ScenarioFacts> scenarios, Double processCpuPct, VerdictFacts.Abort stopped) {

    static final String MODE = "mode";
    static final String SERIES = "series";
    static final String REP = "rep";
    static final String SRC = "src";
    static final String START_EPOCH_US = "start_epoch_us";
    static final String ELAPSED_MS = "elapsed_ms";
    static final String SCENARIOS = "scenarios";
    static final String PROCESS_CPU_PCT = "process_cpu_pct";
    static final String STOPPED = "stopped";

    public ScheduleEnd {
        scenarios = scenarios == null ? null : List.copyOf(scenarios);
    }

    /** This end with the stop that ended the schedule early. */
    public ScheduleEnd withStopped(VerdictFacts.Abort stop) {
        return new ScheduleEnd(mode, series, rep, src, startEpochUs, elapsedMs, scenarios, processCpuPct, stop);
    }

    /** The body of an end marker of {@code kind} carrying this schedule. */
    public MarkerBody body(Marker.Kind kind) {
        return switch (kind) {
            case SERIES_END -> new SeriesEnd(this, null, null);
            case REPEAT_END -> new RepeatEnd(this, null, null, null, null, null, null);
            case PHASE_END -> new PhaseEnd(this, null, null, null, null, null, null);
            default -> throw new IllegalArgumentException("not an end marker: " + kind);
        };
    }

    /** Null when none of its keys is there. */
    static ScheduleEnd read(BodyFields f) {
        if (f.noneOf(MODE, SERIES, REP, SRC, START_EPOCH_US, ELAPSED_MS, SCENARIOS, PROCESS_CPU_PCT, STOPPED)) {
            return null;
        }
        return new ScheduleEnd(f.string(MODE), f.string(SERIES), f.integer(REP), f.string(SRC),
                f.whole(START_EPOCH_US), f.whole(ELAPSED_MS), f.objects(SCENARIOS, ScenarioFacts::read),
                f.decimal(PROCESS_CPU_PCT), f.object(STOPPED, VerdictFacts.Abort::readExact));
    }

    void write(BodyFields.Writer w) {
        w.put(MODE, mode).put(SERIES, series).put(REP, rep).put(SRC, src).put(START_EPOCH_US, startEpochUs)
                .put(ELAPSED_MS, elapsedMs)
                .put(SCENARIOS, scenarios == null ? null : scenarios.stream().map(ScenarioFacts::toData).toList())
                .put(PROCESS_CPU_PCT, processCpuPct).put(STOPPED, stopped == null ? null : stopped.toData());
    }

    /**
     * One scenario's schedule facts.
     *
     * @param scenario its name
     * @param scheduled requests whose intended start fell in the run
     * @param sent requests sent
     * @param dropped requests dropped at their intended start (the concurrency cap)
     * @param completed requests that ended
     * @param failed requests that failed
     * @param errors failed requests by error kind code ({@code {"timeout": 3}})
     * @param lagP50Ms send lag {@code t1 - t0}, median, ms (NaN when nothing was sent)
     * @param lagP99Ms send lag, 99th percentile, ms
     * @param lagMaxMs send lag, largest, ms
     * @param firstSendEpochUs the first send, epoch µs (0 when nothing was sent)
     * @param lastSendEpochUs the last send, epoch µs (0 when nothing was sent)
     * @param other keys this record does not know (an older generator's own figures), kept in order
     */
    public record ScenarioFacts(String scenario, long scheduled, long sent, long dropped, long completed, long failed,
                                Map<String, Long> errors, double lagP50Ms, double lagP99Ms, double lagMaxMs,
                                long firstSendEpochUs, long lastSendEpochUs, Map<String, Object> other) {

        public ScenarioFacts {
            errors = errors == null ? Map.of() : java.util.Collections.unmodifiableMap(
                    new java.util.LinkedHashMap<>(errors));
            other = BodyFields.copy(other);
        }

        /** Null when a key is missing or of another type (then the whole list stays as it was read). */
        static ScenarioFacts read(BodyFields f) {
            String name = f.string("scenario");
            Long scheduled = f.whole("scheduled");
            Long sent = f.whole("sent");
            Long dropped = f.whole("dropped");
            Long completed = f.whole("completed");
            Long failed = f.whole("failed");
            Map<String, Long> errors = f.counts("errors");
            Double p50 = f.decimal("lag_p50_ms");
            Double p99 = f.decimal("lag_p99_ms");
            Double max = f.decimal("lag_max_ms");
            Long first = f.whole("first_send_epoch_us");
            Long last = f.whole("last_send_epoch_us");
            if (name == null || scheduled == null || sent == null || dropped == null || completed == null
                    || failed == null || errors == null || p50 == null || p99 == null || max == null || first == null
                    || last == null) {
                return null;
            }
            return new ScenarioFacts(name, scheduled, sent, dropped, completed, failed, errors, p50, p99, max, first,
                    last, f.rest());
        }

        Map<String, Object> toData() {
            return BodyFields.out().put("scenario", scenario).put("scheduled", scheduled).put("sent", sent)
                    .put("dropped", dropped).put("completed", completed).put("failed", failed).put("errors", errors)
                    .put("lag_p50_ms", lagP50Ms).put("lag_p99_ms", lagP99Ms).put("lag_max_ms", lagMaxMs)
                    .put("first_send_epoch_us", firstSendEpochUs).put("last_send_epoch_us", lastSendEpochUs)
                    .putAll(other).done();
        }
    }
}
