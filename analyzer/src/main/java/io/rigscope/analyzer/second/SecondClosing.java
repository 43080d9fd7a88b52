package io.rigscope.analyzer.second;

import io.rigscope.model.wire.Marker;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a sample source's seconds close, as the source declares it on its {@code REPEAT_START} marker (the
 * marker's {@code src} is the samples' {@code src}). Closed set:
 * <ul>
 *   <li>{@link ByLedger} (the default, and every rigscope generator): second S is final once the source's ledger
 *       for S and the samples it counts arrived ({@link ScenarioSeconds});</li>
 *   <li>{@link ByTime}: the source counts nothing per second (k6 followed live): second S closes once the source's
 *       stream of samples moved {@code lateness} past S's end, by the samples' own end times ({@link TimeWatermark}).
 *       A sample of a second the watermark already passed is late: counted and reported, never merged into the
 *       closed second.</li>
 * </ul>
 *
 * <p>Marker keys (docs/wire-format.md): REPEAT_START {@value #KEY} ({@code "ledger"} or {@code "time"}) and
 * {@value #LATENESS_KEY}; REPEAT_END {@value #SAMPLES_KEY}, the samples the source published per scenario, so
 * the analyzer knows when the last of them arrived.
 */
public sealed interface SecondClosing permits SecondClosing.ByLedger, SecondClosing.ByTime {

    /** REPEAT_START key: {@code "ledger"} or {@code "time"}. */
    String KEY = "seconds_closed_by";
    /** REPEAT_START key with {@code time}: the lateness, ms (a non-negative number). */
    String LATENESS_KEY = "lateness_ms";
    /** REPEAT_END key of a time-closed source: scenario -> samples published in the repeat. */
    String SAMPLES_KEY = "samples_by_scenario";

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
     * The mode a REPEAT_START marker declares for its {@code src}, or null when it declares none.
     *
     * @throws IllegalArgumentException naming the key whose value is wrong
     */
    static SecondClosing declaredBy(Marker repeatStart) {
        Object mode = repeatStart.data().get(KEY);
        if (mode == null) {
            return null;
        }
        if ("ledger".equals(mode)) {
            return new ByLedger();
        }
        if (!"time".equals(mode)) {
            throw new IllegalArgumentException("REPEAT_START of " + repeatStart.src() + ": " + KEY + " must be "
                    + "\"ledger\" or \"time\", was " + mode);
        }
        if (!(repeatStart.data().get(LATENESS_KEY) instanceof Number ms) || ms.doubleValue() < 0) {
            throw new IllegalArgumentException("REPEAT_START of " + repeatStart.src() + ": " + KEY + " \"time\" needs "
                    + LATENESS_KEY + ", a number >= 0, was " + repeatStart.data().get(LATENESS_KEY));
        }
        return new ByTime(Math.round(ms.doubleValue() * 1000.0));
    }

    /**
     * The per-scenario sample counts a time-closed source's REPEAT_END states, or null when it states none.
     *
     * @throws IllegalArgumentException when the key holds anything but scenario -> count
     */
    static Map<String, Long> publishedBy(Marker repeatEnd) {
        Object value = repeatEnd.data().get(SAMPLES_KEY);
        if (value == null) {
            return null;
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("REPEAT_END of " + repeatEnd.src() + ": " + SAMPLES_KEY
                    + " must be an object of scenario -> count");
        }
        Map<String, Long> out = new LinkedHashMap<>();
        for (var e : map.entrySet()) {
            if (!(e.getValue() instanceof Number n) || n.longValue() < 0) {
                throw new IllegalArgumentException("REPEAT_END of " + repeatEnd.src() + ": " + SAMPLES_KEY + "."
                        + e.getKey() + " must be a count >= 0, was " + e.getValue());
            }
            out.put(String.valueOf(e.getKey()), n.longValue());
        }
        return out;
    }
}
