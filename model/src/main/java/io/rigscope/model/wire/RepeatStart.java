package io.rigscope.model.wire;

import java.util.List;
import java.util.Map;

/**
 * {@link Marker.Kind#REPEAT_START}. The analyzer reads {@code duration_ms}, {@code start_epoch_us},
 * {@code generators} and how the marker's {@code src} closes its seconds.
 *
 * @param source the importer that framed the repeat ({@code k6}, {@code rescan}), or null
 * @param follow what {@code collect k6} follows, or null
 * @param file the file {@code import k6} reads, or null
 * @param mode the generator's loop, {@code open-loop} or {@code closed-loop}, or null
 * @param startEpochUs the schedule's start, epoch µs, or null
 * @param durationSec the scheduled duration in seconds (the synthetic series of the benchmarks), or null
 * @param durationMs the scheduled duration, ms (a ceiling's rates are taken over it), or null
 * @param offeredRatePerSec the offered rate, requests/s (an evidence manifest's), or null
 * @param batch events per request (an evidence manifest's), or null
 * @param scenarios the scenario names, or null
 * @param share the generator's share of a shared schedule ({@code K/N}), or null
 * @param generators how many generators share the schedule: the analyzer waits for all of them; or null (one)
 * @param secondsClosedBy {@code ledger} (the default) or {@code time}: how the samples of the marker's {@code src}
 *     close their seconds; any other value is kept for the reader to refuse; or null
 * @param latenessMs with {@code time}, how late a sample may be, ms; or null
 * @param other keys this record does not know, kept in order (see {@link MarkerBody})
 */
public record RepeatStart(String source, String follow, String file, String mode, Long startEpochUs,
                          Integer durationSec, Long durationMs, Double offeredRatePerSec, Integer batch,
                          List<String> scenarios, String share, Integer generators, String secondsClosedBy,
                          Long latenessMs, Map<String, Object> other) implements MarkerBody {

    static final String SOURCE = "source";
    static final String FOLLOW = "follow";
    static final String FILE = "file";
    static final String DURATION_S = "duration_s";
    static final String OFFERED_RATE_PER_S = "offered_rate_per_s";
    static final String BATCH = "batch";
    /** Data key of {@link #secondsClosedBy}, for messages. */
    public static final String SECONDS_CLOSED_BY = "seconds_closed_by";
    /** Data key of {@link #latenessMs}, for messages. */
    public static final String LATENESS_MS = "lateness_ms";
    /** {@link #secondsClosedBy}: closed by the generators' ledgers. */
    public static final String BY_LEDGER = "ledger";
    /** {@link #secondsClosedBy}: closed by the time watermark. */
    public static final String BY_TIME = "time";

    /** A start with nothing to say. */
    public static final RepeatStart EMPTY = new RepeatStart(null, null, null, null, null, null, null, null, null,
            null, null, null, null, null, null);

    public RepeatStart {
        scenarios = scenarios == null ? null : List.copyOf(scenarios);
        other = BodyFields.copy(other);
    }

    /** A start that states only the scheduled duration. */
    public static RepeatStart ofDurationMs(long durationMs) {
        return new RepeatStart(null, null, null, null, null, null, durationMs, null, null, null, null, null, null,
                null, null);
    }

    /** The synthetic series' start: its duration in seconds and, when more than one, its generators. */
    public static RepeatStart ofDurationSec(int durationSec, Integer generators) {
        return new RepeatStart(null, null, null, null, null, durationSec, null, null, null, null, null, generators,
                null, null, null);
    }

    /** An importer's start: its name, and what it follows or reads (either may be null). */
    public static RepeatStart imported(String source, String follow, String file) {
        return new RepeatStart(source, follow, file, null, null, null, null, null, null, null, null, null, null,
                null, null);
    }

    /** An evidence manifest's repeat: its length and, where the manifest has them, rate, batch and scenarios. */
    public static RepeatStart rescanned(String source, long durationMs, Double offeredRatePerSec, Integer batch,
                                        List<String> scenarios) {
        return new RepeatStart(source, null, null, null, null, null, durationMs, offeredRatePerSec, batch,
                scenarios == null || scenarios.isEmpty() ? null : scenarios, null, null, null, null, null);
    }

    /** This start with the marker's source closing its seconds by time, {@code latenessMs} late at most. */
    public RepeatStart closedByTime(long latenessMs) {
        return new RepeatStart(source, follow, file, mode, startEpochUs, durationSec, durationMs, offeredRatePerSec,
                batch, scenarios, share, generators, BY_TIME, latenessMs, other);
    }

    @Override
    public Marker.Kind kind() {
        return Marker.Kind.REPEAT_START;
    }

    static RepeatStart read(BodyFields f) {
        return new RepeatStart(f.string(SOURCE), f.string(FOLLOW), f.string(FILE), f.string(ScheduleStart.MODE),
                f.whole(ScheduleStart.START_EPOCH_US), f.integer(DURATION_S), f.whole(ScheduleStart.DURATION_MS),
                f.decimal(OFFERED_RATE_PER_S), f.integer(BATCH), f.strings(ScheduleStart.SCENARIOS),
                f.string(ScheduleStart.SHARE), f.integer(ScheduleStart.GENERATORS), f.string(SECONDS_CLOSED_BY),
                f.whole(LATENESS_MS), f.rest());
    }

    @Override
    public Map<String, Object> toData() {
        return BodyFields.out().put(SOURCE, source).put(FOLLOW, follow).put(FILE, file)
                .put(ScheduleStart.MODE, mode).put(ScheduleStart.START_EPOCH_US, startEpochUs)
                .put(DURATION_S, durationSec).put(ScheduleStart.DURATION_MS, durationMs)
                .put(OFFERED_RATE_PER_S, offeredRatePerSec).put(BATCH, batch).put(ScheduleStart.SCENARIOS, scenarios)
                .put(ScheduleStart.SHARE, share).put(ScheduleStart.GENERATORS, generators)
                .put(SECONDS_CLOSED_BY, secondsClosedBy).put(LATENESS_MS, latenessMs).putAll(other).done();
    }
}
