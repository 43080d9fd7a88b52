package io.rigscope.importers.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An evidence directory's {@code manifest.json} (docs/rescan.md): the repeats, what the database gained in each,
 * the series' settings and environment facts. Every key is optional; the file itself is optional.
 *
 * @param series the series id, or null
 * @param reconciliationRequired whether repeats need what the database gained (default true)
 * @param thresholds k6's thresholds object, or empty (then the k6 files' own thresholds apply)
 * @param analyzer analyzer settings (docs/gates.md), copied into the CONFIG marker
 * @param pglogPrefix the Postgres log's log_line_prefix, or null (then the default or RDS prefix, as the log fits)
 * @param scenarioMap k6 scenario name to rigscope scenario name
 * @param repeats the repeats, in order
 * @param environment facts for the ENVIRONMENT marker (instance, settings, cost), or empty
 */
record Manifest(String series, boolean reconciliationRequired, Map<String, Object> thresholds,
                       Map<String, Object> analyzer, String pglogPrefix, Map<String, String> scenarioMap,
                       List<Repeat> repeats, Map<String, Object> environment) {

    /** The name the manifest is found by. */
    public static final String FILE_NAME = "manifest.json";

    public Manifest {
        thresholds = Map.copyOf(thresholds);
        analyzer = Map.copyOf(analyzer);
        scenarioMap = Map.copyOf(scenarioMap);
        repeats = List.copyOf(repeats);
        environment = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        for (int i = 1; i < repeats.size(); i++) {
            if (repeats.get(i).start().isBefore(repeats.get(i - 1).end())) {
                throw new IllegalArgumentException("manifest: repeat " + repeats.get(i).rep()
                        + " starts before repeat " + repeats.get(i - 1).rep() + " ends");
            }
        }
    }

    /** No manifest: each k6 file is one repeat, nothing reconciles. */
    public static Manifest none() {
        return new Manifest(null, true, Map.of(), Map.of(), null, Map.of(), List.of(), Map.of());
    }

    /**
     * One repeat.
     *
     * @param rep its number, 1 or more
     * @param start when its load started (inclusive)
     * @param end when it ended (exclusive; a request that ended later belongs to no repeat)
     * @param kind {@code sustained}, {@code ladder} or {@code ceiling}
     * @param offeredRatePerSec the offered rate, requests/s, or null
     * @param batch events per request, or null
     * @param scenarios the scenarios it ran
     * @param gained what the database gained, or null when not counted
     */
    public record Repeat(int rep, Instant start, Instant end, String kind, Double offeredRatePerSec, Integer batch,
                         List<String> scenarios, Gain gained) {
        public Repeat {
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(end, "end");
            if (rep < 1) {
                throw new IllegalArgumentException("manifest: rep must be >= 1, was " + rep);
            }
            if (!end.isAfter(start)) {
                throw new IllegalArgumentException("manifest: repeat " + rep + " ends (" + end
                        + ") before it starts (" + start + ")");
            }
            if (!List.of("sustained", "ladder", "ceiling").contains(kind)) {
                throw new IllegalArgumentException("manifest: repeat " + rep + " kind '" + kind
                        + "' is not one of sustained, ladder, ceiling");
            }
            scenarios = List.copyOf(scenarios);
        }

        /** True when an instant (a request's end) falls in this repeat. */
        public boolean contains(long epochUs) {
            return epochUs >= micros(start) && epochUs < micros(end);
        }
    }

    /**
     * What the database gained in a repeat (the typed content of a RECONCILIATION marker).
     *
     * @param rowsWritten rows stored
     * @param qtySumGained Σ quantity of those rows
     */
    public record Gain(long rowsWritten, long qtySumGained) {
    }

    static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }

    /**
     * Reads a manifest file.
     *
     * @throws IllegalArgumentException naming the key that is wrong
     */
    public static Manifest read(Path file) throws IOException {
        JsonNode root;
        try {
            root = EvidenceText.JSON.readTree(Files.readString(file));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(file + " is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(file + " is not a JSON object");
        }
        List<Repeat> repeats = new ArrayList<>();
        for (JsonNode r : root.path("repeats")) {
            int rep = r.path("rep").asInt(repeats.size() + 1);
            JsonNode gain = r.path("database_gained");
            Gain gained = null;
            if (gain.isObject()) {
                gained = new Gain(whole(gain, "rows_written", rep), whole(gain, "qty_sum_gained", rep));
            }
            List<String> scenarios = new ArrayList<>();
            r.path("scenarios").forEach(s -> scenarios.add(s.asText()));
            repeats.add(new Repeat(rep, instant(r, "start", rep), instant(r, "end", rep),
                    r.path("kind").asText("sustained"),
                    r.path("offered_rate_per_s").isNumber() ? r.path("offered_rate_per_s").asDouble() : null,
                    r.path("batch").isInt() ? r.path("batch").asInt() : null, scenarios, gained));
        }
        Map<String, String> scenarioMap = new LinkedHashMap<>();
        root.path("scenario_map").fields().forEachRemaining(e -> scenarioMap.put(e.getKey(), e.getValue().asText()));
        return new Manifest(root.path("series").isTextual() ? root.path("series").asText() : null,
                root.path("reconciliation_required").asBoolean(true), object(root, "thresholds"),
                object(root, "analyzer"), root.path("pglog_prefix").isTextual() ? root.path("pglog_prefix").asText()
                        : null, scenarioMap, repeats, object(root, "environment"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(JsonNode root, String key) {
        JsonNode n = root.path(key);
        if (n.isMissingNode() || n.isNull()) {
            return Map.of();
        }
        if (!n.isObject()) {
            throw new IllegalArgumentException("manifest: '" + key + "' must be an object");
        }
        return EvidenceText.JSON.convertValue(n, LinkedHashMap.class);
    }

    private static long whole(JsonNode gain, String key, int rep) {
        JsonNode v = gain.path(key);
        if (!v.canConvertToExactIntegral() || v.asLong() < 0) {
            throw new IllegalArgumentException("manifest: repeat " + rep + " database_gained." + key
                    + " must be a whole number >= 0, was " + (v.isMissingNode() ? "missing" : v.toString()));
        }
        return v.asLong();
    }

    private static Instant instant(JsonNode r, String key, int rep) {
        String text = r.path(key).asText("");
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("manifest: repeat " + rep + " '" + key + "' must be an RFC 3339 "
                    + "time with its offset (e.g. 2024-03-05T10:00:00Z), was '" + text + "'");
        }
    }
}
