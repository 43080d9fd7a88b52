package io.rigscope.importers.k6;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The thresholds of a k6 options JSON file: the options object as {@code k6 inspect} prints it (thresholds at its
 * top level or under {@code "options"}), or just {@code {"thresholds": {...}}}. It is the only way to give
 * thresholds on submetrics ({@code http_req_duration{scenario:ingest}}): k6's JSON output does not carry them.
 */
public final class K6Options {

    private K6Options() {
    }

    /**
     * k6's thresholds object already read (e.g. a rescan manifest's {@code thresholds}): metric key -> a list of
     * strings or {@code {"threshold", "abortOnFail", "delayAbortEval"}} objects (a single string is one).
     *
     * @throws IllegalArgumentException naming the metric whose entry is neither
     */
    public static Map<String, List<K6Line.ThresholdDecl>> fromMap(Map<String, ?> thresholds) {
        Map<String, List<K6Line.ThresholdDecl>> out = new LinkedHashMap<>();
        thresholds.forEach((key, value) -> {
            List<K6Line.ThresholdDecl> list = new ArrayList<>();
            for (Object x : value instanceof List<?> l ? l : List.of(value == null ? "" : value)) {
                if (x instanceof String text) {
                    list.add(new K6Line.ThresholdDecl(text, false, null));
                } else if (x instanceof Map<?, ?> m && m.get("threshold") instanceof String text) {
                    list.add(new K6Line.ThresholdDecl(text, Boolean.TRUE.equals(m.get("abortOnFail")),
                            m.get("delayAbortEval") instanceof String d ? d : null));
                } else {
                    throw new IllegalArgumentException("threshold on " + key + " is neither a string nor an object "
                            + "with a \"threshold\" string: " + x);
                }
            }
            out.put(key, list);
        });
        return out;
    }

    /**
     * Where a k6 options document keeps its thresholds: {@code thresholds} at its top level, or under
     * {@code options} (as {@code k6 inspect} prints them); null when neither is an object.
     */
    public static JsonNode thresholdsObject(JsonNode root) {
        if (root == null) {
            return null;
        }
        JsonNode t = root.path("thresholds");
        if (t.isMissingNode()) {
            t = root.path("options").path("thresholds");
        }
        return t.isObject() ? t : null;
    }

    /**
     * The file's thresholds: metric key as written -> its thresholds, in order.
     *
     * @throws IOException when it cannot be read
     * @throws IllegalArgumentException naming the file and what is wrong
     */
    public static Map<String, List<K6Line.ThresholdDecl>> thresholds(Path file) throws IOException {
        JsonNode root;
        try {
            root = JsonMapper.builder().build().readTree(Files.readAllBytes(file));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("--options " + file + " is not JSON: " + e.getOriginalMessage());
        }
        JsonNode t = thresholdsObject(root);
        if (t == null) {
            throw new IllegalArgumentException("--options " + file + " has no \"thresholds\" object (expected k6's "
                    + "options JSON, e.g. {\"thresholds\": {\"http_req_duration\": [\"p(95)<200\"]}})");
        }
        Map<String, List<K6Line.ThresholdDecl>> out = new LinkedHashMap<>();
        var fields = t.fields();
        while (fields.hasNext()) {
            var e = fields.next();
            List<K6Line.ThresholdDecl> list = new ArrayList<>();
            JsonNode v = e.getValue();
            for (JsonNode x : v.isArray() ? v : List.of(v)) {
                if (x.isTextual()) {
                    list.add(new K6Line.ThresholdDecl(x.asText(), false, null));
                } else if (x.isObject() && x.path("threshold").isTextual()) {
                    JsonNode delay = x.path("delayAbortEval");
                    list.add(new K6Line.ThresholdDecl(x.path("threshold").asText(),
                            x.path("abortOnFail").asBoolean(false), delay.isTextual() ? delay.asText() : null));
                } else {
                    throw new IllegalArgumentException("--options " + file + ": threshold on " + e.getKey()
                            + " is neither a string nor an object with a \"threshold\" string: " + x);
                }
            }
            out.put(e.getKey(), list);
        }
        return out;
    }
}
