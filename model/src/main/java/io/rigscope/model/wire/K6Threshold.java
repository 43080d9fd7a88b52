package io.rigscope.model.wire;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One k6 threshold as an importer judged it over an imported repeat: an element of a REPEAT_END's
 * {@code k6_thresholds} ({@link RepeatEnd#k6Thresholds()}). The analyzer's threshold package judges it
 * ({@code analyzer.threshold.K6Verdict}) and gates the repeat on it; this record is its form on the wire.
 *
 * @param threshold the gate's name, {@code metric{filter}: expression} as written
 * @param value the aggregated value, or null when nothing could be judged (written as {@code null})
 * @param pass whether it held
 * @param reason why it could not be judged, or null (not written)
 * @param points how many points it covered
 * @param abortOnFail k6's {@code abortOnFail} (written only when true)
 * @param delayAbortEval k6's {@code delayAbortEval} as written, or null (written only with abortOnFail)
 * @param k6Pass k6's own verdict from its summary export, or null (not written)
 */
public record K6Threshold(String threshold, Double value, boolean pass, String reason, long points,
                          boolean abortOnFail, String delayAbortEval, Boolean k6Pass) {

    public K6Threshold {
        Objects.requireNonNull(threshold, "threshold");
    }

    /**
     * Reads one element; null when it is not exactly one as {@link #toData()} writes it (a key it does not know, a
     * value of another type, another order): then the whole list stays as it came, in the body's other keys, so a
     * marker re-encodes to the same bytes.
     */
    static K6Threshold read(BodyFields f) {
        Map<String, Object> original = new LinkedHashMap<>(f.rest());
        String threshold = f.string("threshold");
        Boolean pass = f.bool("pass");
        Long points = f.whole("points");
        if (threshold == null || pass == null || points == null || !original.containsKey("value")) {
            return null;
        }
        Boolean abort = f.bool("abort_on_fail");
        K6Threshold t = new K6Threshold(threshold, f.decimal("value"), pass, f.string("reason"), points,
                Boolean.TRUE.equals(abort), f.string("delay_abort_eval"), f.bool("k6_pass"));
        Map<String, Object> written = t.toData();
        return written.equals(original) && List.copyOf(written.keySet()).equals(List.copyOf(original.keySet()))
                ? t : null;
    }

    /** The wire's object, keys in the order the importers have always written them. */
    Map<String, Object> toData() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("threshold", threshold);
        m.put("value", value);
        m.put("pass", pass);
        if (reason != null) {
            m.put("reason", reason);
        }
        m.put("points", points);
        if (abortOnFail) {
            m.put("abort_on_fail", true);
            if (delayAbortEval != null) {
                m.put("delay_abort_eval", delayAbortEval);
            }
        }
        if (k6Pass != null) {
            m.put("k6_pass", k6Pass);
        }
        return m;
    }
}
