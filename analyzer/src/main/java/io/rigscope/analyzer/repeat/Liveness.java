package io.rigscope.analyzer.repeat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.rigscope.analyzer.json.WireView;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
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

    /**
     * Why a repeat ended before its schedule without an end marker: one of its generators fell silent
     * ({@link Liveness}). Immutable; a report's {@code repeats[].silence}, beside {@code ended_by: generator_silent}.
     *
     * @param generator the silent generator's id (the first to fall silent; ties by name)
     * @param sinceSec the first second it was not heard in: the one after its last record of the repeat, epoch s
     * @param lastLedgerSec the last second its ledger covered, epoch s; -1 when it published no ledger
     * @param scheduledSec the repeat's scheduled duration (its REPEAT_START's {@code duration_ms}), s, rounded
     * @param neverOfferedSec seconds of the schedule after the last second its ledger covered: load never offered
     * @param ledgerCoveredToSec every generator of the repeat -> the last second its ledger covered (epoch s, -1: none);
     *                           samples completed after that second may be missing
     */
    @WireView
    @JsonPropertyOrder({"generator", "since_sec", "last_ledger_sec", "scheduled_s", "never_offered_s",
        "ledger_covered_to_sec", "note"})
    public record Silence(@JsonProperty("generator") String generator, @JsonProperty("since_sec") long sinceSec,
                          @JsonProperty("last_ledger_sec") long lastLedgerSec, @JsonProperty("scheduled_s") long scheduledSec,
                          @JsonProperty("never_offered_s") long neverOfferedSec,
                          @JsonProperty("ledger_covered_to_sec") Map<String, Long> ledgerCoveredToSec) {

        /** The {@code ended_by} code of a repeat a silent generator ended. */
        public static final String ENDED_BY = "generator_silent";

        private static final DateTimeFormatter HH_MM_SS = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

        public Silence {
            Objects.requireNonNull(generator, "generator");
            ledgerCoveredToSec = Collections.unmodifiableMap(new TreeMap<>(ledgerCoveredToSec));
        }

        /** What may be lost, in words (the report's {@code note}). */
        @JsonProperty("note")
        public String note() {
            return "samples completed after a generator's last ledger second may be missing";
        }

        /**
         * {@code generator gen-1 silent since 19:59:20: 20 of 30 s of the schedule never offered} (UTC).
         */
        public String describe() {
            return String.format(Locale.ROOT, "generator %s silent since %s: %d of %d s of the schedule never offered",
                    generator, HH_MM_SS.format(Instant.ofEpochSecond(sinceSec)), neverOfferedSec, scheduledSec);
        }

        /** Each generator's last ledger second, and what that means for the samples after it. */
        public String lossLine() {
            StringBuilder b = new StringBuilder("ledger covered up to ");
            String sep = "";
            for (var e : ledgerCoveredToSec.entrySet()) {
                b.append(sep).append(e.getKey()).append(' ')
                        .append(e.getValue() < 0 ? "no second" : HH_MM_SS.format(Instant.ofEpochSecond(e.getValue())));
                sep = ", ";
            }
            return b.append(": samples completed after it may be missing").toString();
        }
    }
}
