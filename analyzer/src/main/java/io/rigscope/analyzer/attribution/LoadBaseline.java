package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.Waits;
import java.util.Arrays;
import java.util.OptionalDouble;

/**
 * The server's usual load before an episode, taken from before its cause began: the quietest 10-s window in the
 * minute before the episode. A cause that builds up (the working set falling out of cache, reads climbing for a
 * minute before the first slow second) piles requests up as sessions long before it freezes anything; the 10 s just
 * before such an episode are already part of the cause, and an episode compared with them compares itself with
 * itself. Requests pile up (sessions rise) under every server cause, so the quietest window is the one the cause had
 * not yet touched.
 * <ul>
 *   <li>Per second, the active sessions are the mean of that second's {@code rig.waits} records, timer waits
 *       ({@code Timeout:*}) left out ({@link WaitProfile#active}).</li>
 *   <li>Only seconds of the episode's own repeat count (from its first second with requests,
 *       {@link EpisodeScene#repeatStartSec}): the cool-down before a repeat carries no load.</li>
 *   <li>Windows {@code [w, w + 10)} inside {@code [start - 61, start - 1)} (the second just before the episode left
 *       out), sliding by one second; a window counts when at least half its seconds have a record; its level is the
 *       median of those seconds. The baseline is the lowest level above 0 (a window of a previous generator stall,
 *       no load at all, is no usual level), or 0 when every window's level is 0.</li>
 *   <li>When no window has enough seconds (an episode in a repeat's first seconds), the median of the seconds of the
 *       repeat there are in {@code [start - 11, start - 1)}.</li>
 * </ul>
 * Example: sessions 4.2 through a repeat's first minute, then climbing 0.1 a second for 40 s to 8.1 before a RAM-wall
 * episode: the 10 s before have a median of 7.6, the quietest window 4.2, so 3.9 active sessions in one of the
 * episode's seconds are not "load stopped arriving". Pure.
 *
 * @param level the baseline, average active sessions
 * @param fromSec the first second with a record of the window it came from
 * @param toSec the end (exclusive) of that window
 */
record LoadBaseline(double level, long fromSec, long toSec) {

    /** How far back the quietest window is looked for, seconds. */
    static final int REACH_SEC = 60;
    /** The window's length, seconds. */
    static final int WINDOW_SEC = 10;

    /**
     * The baseline before {@code startSec} in a repeat whose load began at {@code repeatStartSec}; empty when no
     * second of it before the episode has a record.
     */
    static java.util.Optional<LoadBaseline> before(TelemetryIndex t, long repeatStartSec, long startSec) {
        long from = Math.max(startSec - 1 - REACH_SEC, Math.min(repeatStartSec, startSec - 1 - WINDOW_SEC));
        long to = startSec - 1;
        double[] perSec = new double[(int) (to - from)];
        Arrays.fill(perSec, Double.NaN);
        for (long s = from; s < to; s++) {
            OptionalDouble a = activeIn(t, s);
            if (a.isPresent()) {
                perSec[(int) (s - from)] = a.getAsDouble();
            }
        }
        LoadBaseline quietest = null;
        LoadBaseline zero = null;
        for (long w = from; w + WINDOW_SEC <= to; w++) {
            double level = median(perSec, (int) (w - from), (int) (w - from) + WINDOW_SEC, WINDOW_SEC / 2);
            if (Double.isNaN(level)) {
                continue;
            }
            long first = w;
            while (Double.isNaN(perSec[(int) (first - from)])) {
                first++;
            }
            if (level <= 0) {
                zero = zero == null ? new LoadBaseline(0, first, w + WINDOW_SEC) : zero;
            } else if (quietest == null || level < quietest.level()) {
                quietest = new LoadBaseline(level, first, w + WINDOW_SEC);
            }
        }
        if (quietest != null) {
            return java.util.Optional.of(quietest);
        }
        if (zero != null) {
            return java.util.Optional.of(zero);
        }
        int lastFrom = (int) (to - WINDOW_SEC - from);
        double level = median(perSec, lastFrom, perSec.length, 1);
        return Double.isNaN(level) ? java.util.Optional.empty()
                : java.util.Optional.of(new LoadBaseline(level, to - WINDOW_SEC, to));
    }

    /** The mean active sessions of second {@code s}'s records, timers left out; empty when it has none. */
    static OptionalDouble activeIn(TelemetryIndex t, long s) {
        return t.records(TelemetryStream.WAITS, s, s + 1, Waits.class).stream().mapToDouble(WaitProfile::active)
                .average();
    }

    /** The median of the non-NaN values of {@code v[from, to)}, NaN when fewer than {@code least}. */
    private static double median(double[] v, int from, int to, int least) {
        double[] x = Arrays.stream(v, Math.max(0, from), Math.min(v.length, to)).filter(d -> !Double.isNaN(d))
                .sorted().toArray();
        if (x.length < Math.max(1, least)) {
            return Double.NaN;
        }
        return x.length % 2 == 1 ? x[x.length / 2] : (x[x.length / 2 - 1] + x[x.length / 2]) / 2;
    }
}
