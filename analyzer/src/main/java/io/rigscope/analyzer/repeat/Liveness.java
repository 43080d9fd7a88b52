package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.RepeatSummary.Silence;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which of a repeat's generators are still heard from. A generator takes part once it published a REPEAT_START
 * with a schedule ({@code start_epoch_us}, {@code duration_ms}: a rigscope generator); every record it publishes
 * for the repeat (samples, ledger, health, markers) marks the second of its timestamp as heard. Its REPEAT_END ends
 * its part.
 *
 * <p><b>The rule</b> ({@code generator_silence_s}, G below): a generator is silent when, while its repeat is open,
 * it was not heard for more than G seconds: two heard seconds {@code a < b} with nothing between and
 * {@code b - a > G}, or no end marker after its last heard second {@code a}. It is silent since {@code a + 1}.
 * <ul>
 *   <li>{@link #atFinish} applies it to everything read (a replay, and every report): pure, whatever order the
 *       records came in.</li>
 *   <li>{@link #live} is how a live analysis sees it as it happens: at an analyzer tick reading {@code nowUs}, a
 *       participant with no end is silent when {@code nowUs >= (a + 1 + G) s} and none of its records arrived in
 *       the last G seconds of ticks (so a backlog being caught up, whose timestamps are old, is not silence; ticks
 *       more than 2.5 s apart, the input unreadable between them, start that count again). It
 *       names the same generator and second {@code a + 1} that {@link #atFinish} names once nothing more comes
 *       from it, so the live verdict and the replay's agree.</li>
 * </ul>
 *
 * <p>State is bounded by the repeat's seconds. Not thread-safe: one owner.
 */
public final class Liveness {

    private final TreeMap<String, Heard> generators = new TreeMap<>();
    private long scheduleStartUs;
    private long scheduledMs;
    private long lastTickUs = Long.MIN_VALUE;
    /** Ticks further apart than this mean the live input was not being read between them. */
    private static final long PAUSED_TICKS_US = 2_500_000L;

    private static final class Heard {
        final TreeSet<Long> seconds = new TreeSet<>();
        boolean started;
        boolean ended;
        long lastLedgerSec = -1;
        long records;
        long recordsAtLastTick = -1;
        long lastArrivalTickUs = Long.MIN_VALUE;
    }

    /** A REPEAT_START of {@code src} with its schedule: it takes part. */
    public void started(String src, long tsUs, long startEpochUs, long durationMs) {
        Heard h = heard(src);
        h.started = true;
        h.seconds.add(Math.floorDiv(tsUs, 1_000_000L));
        if (startEpochUs > 0 && (scheduleStartUs == 0 || startEpochUs < scheduleStartUs)) {
            scheduleStartUs = startEpochUs;
        }
        scheduledMs = Math.max(scheduledMs, durationMs);
    }

    /** Any record of the repeat from {@code src}, stamped {@code tsUs} (epoch µs). */
    public void heard(String src, long tsUs) {
        Heard h = heard(src);
        h.seconds.add(Math.floorDiv(tsUs, 1_000_000L));
        h.records++;
    }

    /** A ledger record of {@code src} for second {@code sec}. */
    public void ledger(String src, long sec) {
        Heard h = heard(src);
        h.lastLedgerSec = Math.max(h.lastLedgerSec, sec);
    }

    /** The REPEAT_END of {@code src}. */
    public void ended(String src) {
        heard(src).ended = true;
    }

    /** True when some generator took part and every one of them published its end. */
    public boolean allEnded() {
        boolean any = false;
        for (Heard h : generators.values()) {
            if (h.started) {
                any = true;
                if (!h.ended) {
                    return false;
                }
            }
        }
        return any;
    }

    /**
     * Live: the analyzer's clock reads {@code nowUs} (epoch µs). Returns the silence it sees, or null.
     *
     * @param graceSec {@code generator_silence_s}
     */
    public Silence live(long nowUs, int graceSec) {
        // ticks that stopped coming (the input could not be read: a broker outage) restart every count
        boolean resumed = lastTickUs != Long.MIN_VALUE && nowUs - lastTickUs > PAUSED_TICKS_US;
        lastTickUs = nowUs;
        String who = null;
        long since = Long.MAX_VALUE;
        for (var e : generators.entrySet()) {
            Heard h = e.getValue();
            if (resumed) {
                h.lastArrivalTickUs = nowUs;
            }
            if (h.records != h.recordsAtLastTick) {
                h.recordsAtLastTick = h.records;
                h.lastArrivalTickUs = nowUs;
            }
            if (!h.started || h.ended || h.seconds.isEmpty()) {
                continue;
            }
            long last = h.seconds.last();
            boolean quiet = nowUs - h.lastArrivalTickUs >= graceSec * 1_000_000L;
            if (quiet && nowUs >= (last + 1 + graceSec) * 1_000_000L && last + 1 < since) {
                who = e.getKey();
                since = last + 1;
            }
        }
        return who == null ? null : silence(who, since);
    }

    /**
     * Everything read: the earliest silence of any participant (a gap over the grace, or no end after its last
     * heard second), or null when every one was heard throughout and ended.
     *
     * @param graceSec {@code generator_silence_s}
     */
    public Silence atFinish(int graceSec) {
        String who = null;
        long since = Long.MAX_VALUE;
        for (var e : generators.entrySet()) {
            Heard h = e.getValue();
            if (!h.started || h.seconds.isEmpty()) {
                continue;
            }
            long found = Long.MAX_VALUE;
            Long previous = null;
            for (long sec : h.seconds) {
                if (previous != null && sec - previous > graceSec) {
                    found = previous + 1;
                    break;
                }
                previous = sec;
            }
            if (found == Long.MAX_VALUE && !h.ended) {
                found = h.seconds.last() + 1;
            }
            if (found < since) {
                who = e.getKey();
                since = found;
            }
        }
        return who == null ? null : silence(who, since);
    }

    private Silence silence(String who, long sinceSec) {
        Map<String, Long> covered = new TreeMap<>();
        generators.forEach((g, h) -> {
            if (h.started) {
                covered.put(g, h.lastLedgerSec);
            }
        });
        Heard h = generators.get(who);
        // the ledger up to the silence: a generator that came back later is judged by what it had covered then
        long lastLedger = h.lastLedgerSec < sinceSec ? h.lastLedgerSec : sinceSec - 1;
        long scheduledSec = Math.round(scheduledMs / 1000.0);
        long endUs = scheduleStartUs + scheduledMs * 1000L;
        long offeredToUs = lastLedger < 0 ? scheduleStartUs : Math.max(scheduleStartUs, (lastLedger + 1) * 1_000_000L);
        long neverOffered = Math.max(0, Math.min(scheduledSec, Math.round((endUs - offeredToUs) / 1e6)));
        return new Silence(who, sinceSec, lastLedger, scheduledSec, neverOffered, covered);
    }

    private Heard heard(String src) {
        return generators.computeIfAbsent(src, s -> new Heard());
    }

}
