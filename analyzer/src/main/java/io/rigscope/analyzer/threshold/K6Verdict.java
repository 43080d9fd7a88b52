package io.rigscope.analyzer.threshold;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One k6 threshold judged over an imported run, as k6 judges it.
 *
 * @param key the gate's name, {@code metric{filter}: expression} as written (a {@code scenario} filter renamed by
 *            the scenario map), e.g. {@code http_req_duration{scenario:ingest}: p(95)<200}
 * @param value the aggregated value, or null when nothing could be judged
 * @param pass whether the threshold held; false whenever it could not be judged
 * @param reason why it could not be judged, or null when it was
 * @param points how many points the threshold covered
 * @param abortOnFail k6's {@code abortOnFail} on it
 * @param delayAbortEval k6's {@code delayAbortEval}, as written, or null
 * @param k6Pass k6's own verdict from its summary export, or null without one (or when the summary lacks it)
 */
public record K6Verdict(String key, Double value, boolean pass, String reason, long points, boolean abortOnFail,
                        String delayAbortEval, Boolean k6Pass) {

    public K6Verdict {
        Objects.requireNonNull(key, "key");
    }

    /** True when k6's summary gave a verdict and it differs from rigscope's. */
    public boolean disagrees() {
        return k6Pass != null && k6Pass != pass;
    }

    /** This verdict with k6's own beside it. */
    public K6Verdict withK6(Boolean k6) {
        return new K6Verdict(key, value, pass, reason, points, abortOnFail, delayAbortEval, k6);
    }

    /** As carried on the REPEAT_END marker ({@code k6_thresholds}). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("threshold", key);
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

    /** Reads {@link #toMap()}'s form back. */
    public static K6Verdict fromMap(Map<?, ?> m) {
        Object v = m.get("value");
        Object k6 = m.get("k6_pass");
        Object points = m.get("points");
        return new K6Verdict(String.valueOf(m.get("threshold")), v instanceof Number n ? n.doubleValue() : null,
                Boolean.TRUE.equals(m.get("pass")), m.get("reason") == null ? null : String.valueOf(m.get("reason")),
                points instanceof Number n ? n.longValue() : 0, Boolean.TRUE.equals(m.get("abort_on_fail")),
                m.get("delay_abort_eval") == null ? null : String.valueOf(m.get("delay_abort_eval")),
                k6 instanceof Boolean b ? b : null);
    }
}
