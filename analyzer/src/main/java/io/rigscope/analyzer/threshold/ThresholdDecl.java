package io.rigscope.analyzer.threshold;

import io.rigscope.analyzer.threshold.ThresholdParser.K6Duration;
import io.rigscope.analyzer.threshold.ThresholdParser.ThresholdSyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One threshold as k6 declares it, not yet parsed: an entry of k6's {@code thresholds} option, a string or an
 * object {@code {"threshold": "p(95)<200", "abortOnFail": true, "delayAbortEval": "10s"}} (other fields are
 * ignored). This is the one decoder of that object, for rigscope's series files, k6 options files, rescan
 * manifests and k6's Metric lines alike.
 *
 * @param expression the expression as written, e.g. {@code p(95)<200} ({@link ThresholdExpression})
 * @param abortOnFail k6's {@code abortOnFail}
 * @param delayAbortEval k6's {@code delayAbortEval} as written (e.g. {@code 10s}, {@link K6Duration}), or null
 */
public record ThresholdDecl(String expression, boolean abortOnFail, String delayAbortEval) {

    public ThresholdDecl {
        Objects.requireNonNull(expression, "expression");
    }

    /**
     * Decodes k6's whole {@code thresholds} object: metric key (e.g. {@code http_req_duration{scenario:x}}) -> a
     * list of entries, or one entry alone. The map's order is kept.
     *
     * @param thresholds as read from JSON or YAML (strings, booleans, lists and maps)
     * @throws ThresholdSyntaxException naming the metric key and the entry that is neither form
     */
    public static Map<String, List<ThresholdDecl>> decodeAll(Map<String, ?> thresholds) {
        Map<String, List<ThresholdDecl>> out = new LinkedHashMap<>();
        thresholds.forEach((key, value) -> {
            List<ThresholdDecl> list = new ArrayList<>();
            for (Object entry : value instanceof List<?> l ? l : List.of(value == null ? "" : value)) {
                list.add(decode(key, entry));
            }
            out.put(key, list);
        });
        return out;
    }

    /**
     * Decodes one entry: a string, or an object with a {@code threshold} string, an optional boolean
     * {@code abortOnFail} and an optional duration string {@code delayAbortEval}.
     *
     * @param metricKey the key the entry is under, for messages
     * @param entry a {@link String} or a {@link Map}
     * @throws ThresholdSyntaxException naming the metric key, the expression and what is wrong
     */
    public static ThresholdDecl decode(String metricKey, Object entry) {
        if (entry instanceof String text) {
            return new ThresholdDecl(text, false, null);
        }
        if (!(entry instanceof Map<?, ?> object) || !(object.get("threshold") instanceof String text)) {
            throw new ThresholdSyntaxException("threshold on " + metricKey
                    + " is not a string nor an object with a \"threshold\" string: " + entry);
        }
        Object abort = object.get("abortOnFail");
        Object delay = object.get("delayAbortEval");
        String where = "threshold '" + text + "' on " + metricKey;
        if (abort != null && !(abort instanceof Boolean)) {
            throw new ThresholdSyntaxException(where + ": abortOnFail must be true or false, not " + abort);
        }
        if (delay != null && !(delay instanceof String)) {
            throw new ThresholdSyntaxException(where
                    + ": delayAbortEval must be a duration string such as \"10s\", not " + delay);
        }
        return new ThresholdDecl(text, Boolean.TRUE.equals(abort), (String) delay);
    }
}
