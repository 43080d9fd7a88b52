package io.rigscope.analyzer.decision;

import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.RepeatStart;
import java.util.Map;

/**
 * How a sample source's seconds close, as the source declares it on its {@code REPEAT_START} marker (the
 * marker's {@code src} is the samples' {@code src}). Closed set:
 * <ul>
 *   <li>{@link ByLedger} (the default, and every rigscope generator): second S is final once the source's ledger
 *       for S and the samples it counts arrived ({@code second.ScenarioSeconds});</li>
 *   <li>{@link ByTime}: the source counts nothing per second (k6 followed live): second S closes once the source's
 *       stream of samples moved {@code lateness} past S's end, by the samples' own end times ({@link TimeWatermark}).
 *       A sample of a second the watermark already passed is late: counted and reported, never merged into the
 *       closed second.</li>
 * </ul>
 *
 * <p>Marker fields (docs/wire-format.md): {@link RepeatStart#secondsClosedBy()} ({@code "ledger"} or
 * {@code "time"}) and {@link RepeatStart#latenessMs()}; {@link RepeatEnd#samplesPublished()}, the samples the
 * source published per scenario, so the analyzer knows when the last of them arrived.
 */
public sealed interface SecondClosing permits SecondClosing.ByLedger, SecondClosing.ByTime {

    /** As reports write it: {@code ledger} or {@code time}. */
    String code();

    /** Closed by the source's ledger (the count): the default. */
    record ByLedger() implements SecondClosing {
        @Override
        public String code() {
            return "ledger";
        }
    }

    /**
     * Closed by the time watermark.
     *
     * @param latenessUs how far past a second's end the stream must be before the second closes, µs
     */
    record ByTime(long latenessUs) implements SecondClosing {
        public ByTime {
            if (latenessUs < 0) {
                throw new IllegalArgumentException("lateness must be >= 0, was " + latenessUs + " µs");
            }
        }

        @Override
        public String code() {
            return "time";
        }

        /** The lateness, ms. */
        public double latenessMs() {
            return latenessUs / 1000.0;
        }
    }

    /**
     * The mode a REPEAT_START marker of {@code src} declares for it, or null when it declares none.
     *
     * @throws IllegalArgumentException naming the key whose value is wrong
     */
    static SecondClosing declaredBy(String src, RepeatStart repeatStart) {
        String mode = repeatStart.secondsClosedBy();
        if (mode == null) {
            return null;
        }
        if (RepeatStart.BY_LEDGER.equals(mode)) {
            return new ByLedger();
        }
        if (!RepeatStart.BY_TIME.equals(mode)) {
            throw new IllegalArgumentException("REPEAT_START of " + src + ": " + RepeatStart.SECONDS_CLOSED_BY
                    + " must be \"ledger\" or \"time\", was " + mode);
        }
        Long ms = repeatStart.latenessMs();
        if (ms == null || ms < 0) {
            throw new IllegalArgumentException("REPEAT_START of " + src + ": " + RepeatStart.SECONDS_CLOSED_BY
                    + " \"time\" needs " + RepeatStart.LATENESS_MS + ", a whole number >= 0, was " + ms);
        }
        return new ByTime(ms * 1000L);
    }

    /**
     * The per-scenario sample counts a time-closed source's REPEAT_END states, or null when it states none.
     *
     * @throws IllegalArgumentException when they are there but not scenario -> count >= 0
     */
    static Map<String, Long> publishedBy(String src, RepeatEnd repeatEnd) {
        try {
            return repeatEnd.samplesPublished();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("REPEAT_END of " + src + ": " + e.getMessage(), e);
        }
    }

}
