package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.second.ScenarioSeconds;
import io.rigscope.analyzer.threshold.Threshold;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code abortOnFail} rule: while a sustained repeat runs, each threshold that carries k6's {@code abortOnFail}
 * is measured as its gate measures it ({@link ThresholdGate#value}) over the seconds closed so far, once the last
 * of them ends at least its {@code delayAbortEval} into the repeat's schedule (event time: the REPEAT_START's
 * {@code start_epoch_us}); the first that fails, with something measured, stops the repeat. Decided once per repeat,
 * live only: a replay reads the stop from the REPEAT_END marker ({@link Abort}), so it reports what the live run
 * reported whatever order the records come in.
 *
 * <p>Like k6, which checks its thresholds every few seconds on what it has aggregated so far, the figure is the one
 * at that moment; the report's gate keeps the figure over the whole repeat.
 */
public final class AbortOnFail {

    private AbortOnFail() {
    }

    /**
     * The stop this repeat's closed seconds call for, or null: none of its thresholds carries abortOnFail, it is
     * not a sustained repeat, its end arrived, a stop was already decided, it is too early for every such
     * threshold, or each holds (or measures nothing yet).
     */
    public static Abort check(RepeatTrack track, AnalyzerSettings settings) {
        if (!track.startSeen() || track.endSeen() || track.abortDecided() || track.kind() != RepeatTrack.Kind.SUSTAINED) {
            return null;
        }
        List<Threshold> aborting = settings.thresholds().stream().filter(Threshold::abortOnFail).toList();
        if (aborting.isEmpty()) {
            return null;
        }
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long closed = 0;
        for (ScenarioSeconds s : track.scenarios().values()) {
            if (s.closed().size() > 0) {
                first = Math.min(first, s.closed().first());
                last = Math.max(last, s.closed().last());
                closed += s.closed().size();
            }
        }
        if (closed == 0) {
            return null;
        }
        long scheduleStartUs = track.startEpochUs();
        long startUs = scheduleStartUs > 0 ? scheduleStartUs : first * 1_000_000L;
        long atMs = Math.max(0, ((last + 1) * 1_000_000L - startUs) / 1000);
        String primaryName = RepeatJudge.primaryScenario(track, settings);
        ScenarioSeconds primary = primaryName == null ? null : track.scenarios().get(primaryName);
        long spanSec = primary == null || primary.closed().size() == 0 ? 0
                : primary.closed().last() - primary.closed().first() + 1;
        List<ScenarioSeconds> all = List.copyOf(track.scenarios().values());
        for (Threshold t : aborting) {
            if (atMs < t.delayAbortEval().toMillis()) {
                continue;
            }
            double value = new ThresholdGate(t, settings.thresholdsAllScenarios())
                    .value(primary, name -> track.scenarios().get(name), all, spanSec);
            if (!Double.isNaN(value) && !t.holds(value)) {
                track.markAbortDecided();
                return new Abort(t.name(), Gate.round(value, 4), t.limit(), atMs,
                        t.delayAbortEval().toMillis(), track.scheduledMs(), distinctSeconds(track));
            }
        }
        return null;
    }

    /** Seconds of the repeat closed so far, a second closed in several scenarios counted once. */
    private static long distinctSeconds(RepeatTrack track) {
        Set<Long> seconds = new HashSet<>();
        for (ScenarioSeconds s : track.scenarios().values()) {
            s.closed().stats().forEach(stats -> seconds.add(stats.sec()));
        }
        return seconds.size();
    }
}
