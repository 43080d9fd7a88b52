package io.rigscope.importers.k6;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.rigscope.analyzer.threshold.ThresholdDecl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The thresholds of a k6 options JSON file: the options object as {@code k6 inspect} prints it (thresholds at its
 * top level or under {@code "options"}), or just {@code {"thresholds": {...}}}. It is the only way to give
 * thresholds on submetrics ({@code http_req_duration{scenario:ingest}}): k6's JSON output does not carry them.
 */
public final class K6Options {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** k6's thresholds object as plain values, in the file's order, for {@link ThresholdDecl#decodeAll}. */
    private static final TypeReference<LinkedHashMap<String, Object>> THRESHOLDS = new TypeReference<>() {
    };

    private K6Options() {
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
    public static Map<String, List<ThresholdDecl>> thresholds(Path file) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readAllBytes(file));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("--options " + file + " is not JSON: " + e.getOriginalMessage());
        }
        JsonNode t = thresholdsObject(root);
        if (t == null) {
            throw new IllegalArgumentException("--options " + file + " has no \"thresholds\" object (expected k6's "
                    + "options JSON, e.g. {\"thresholds\": {\"http_req_duration\": [\"p(95)<200\"]}})");
        }
        try {
            return ThresholdDecl.decodeAll(JSON.convertValue(t, THRESHOLDS));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--options " + file + ": " + e.getMessage(), e);
        }
    }
}
