package io.rigscope.importers.k6;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * k6's end-of-test summary export ({@code k6 run --summary-export FILE}): k6's own verdict on each threshold and
 * the test's duration. In that file a threshold's boolean is true when the threshold <em>failed</em> (k6's
 * documented quirk of the export); this class turns it into pass/fail.
 */
public final class K6Summary {

    private final Map<String, Boolean> passByKey;
    private final Double testRunDurationSec;

    private K6Summary(Map<String, Boolean> passByKey, Double testRunDurationSec) {
        this.passByKey = Map.copyOf(passByKey);
        this.testRunDurationSec = testRunDurationSec;
    }

    /**
     * Reads a summary export.
     *
     * @throws IOException when it cannot be read
     * @throws IllegalArgumentException naming the file when it is not a k6 summary export (no {@code metrics} object)
     */
    public static K6Summary read(Path file) throws IOException {
        JsonNode root;
        try {
            root = JsonMapper.builder().build().readTree(Files.readAllBytes(file));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("--summary " + file + " is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.path("metrics").isObject()) {
            throw new IllegalArgumentException("--summary " + file + " is not a k6 summary export (no \"metrics\" "
                    + "object; write one with k6 run --summary-export FILE)");
        }
        Map<String, Boolean> pass = new HashMap<>();
        root.path("metrics").fields().forEachRemaining(metric -> {
            JsonNode thresholds = metric.getValue().path("thresholds");
            thresholds.fields().forEachRemaining(t -> {
                if (t.getValue().isBoolean()) {
                    pass.put(key(metric.getKey(), t.getKey()), !t.getValue().asBoolean());
                } else if (t.getValue().isObject() && t.getValue().has("ok")) {
                    pass.put(key(metric.getKey(), t.getKey()), t.getValue().path("ok").asBoolean());
                }
            });
        });
        JsonNode ms = root.path("state").path("testRunDurationMs");
        return new K6Summary(pass, ms.isNumber() ? ms.asDouble() / 1000.0 : null);
    }

    /** k6's verdict on {@code expression} over {@code metricKey} (both as written), or null when absent. */
    public Boolean passed(String metricKey, String expression) {
        return passByKey.get(key(metricKey, expression));
    }

    /** The test's duration, seconds ({@code state.testRunDurationMs}), or null when the export lacks it. */
    public Double testRunDurationSec() {
        return testRunDurationSec;
    }

    /** How many thresholds the export judged. */
    public int size() {
        return passByKey.size();
    }

    private static String key(String metricKey, String expression) {
        return metricKey.replace(" ", "") + " " + expression.replace(" ", "");
    }
}
