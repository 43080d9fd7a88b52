package io.rigscope.analyzer.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One side of a comparison, read from a series report (the JSON of {@code --report-json}, or the report a replay of a
 * wire file or of the topics gives): its judged repeats (the sustained ones; a series with none is judged by all its
 * repeats, as the report itself does), their figures, and its environment.
 *
 * @param source where it came from, as the user named it
 * @param series the series id
 * @param verdict the series verdict (PASS, FAIL, UNRECONCILED)
 * @param headline the report's headline
 * @param repeats the judged repeats, in order
 * @param episodeLevers each episode of the judged repeats with a lever: {@code rep N cause: lever headline}
 * @param environment the ENVIRONMENT facts, empty when the report has none
 */
public record SeriesFigures(String source, String series, String verdict, String headline, List<Repeat> repeats,
                            List<String> episodeLevers, Map<String, Object> environment) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public SeriesFigures {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(series, "series");
        repeats = List.copyOf(repeats);
        episodeLevers = List.copyOf(episodeLevers);
        environment = environment == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(environment));
    }

    /**
     * One judged repeat.
     *
     * @param rep the repeat number
     * @param pass whether every gate held
     * @param p50Ms service p50, ms
     * @param p99Ms service p99, ms
     * @param freezeSeconds freeze-seconds in the repeat
     * @param freezeSecondsByCause its freeze-seconds by the cause of their episode
     * @param worst10sP99Ms its worst 10-s bucket's p99, ms, or null
     * @param dropped requests dropped
     * @param samples requests of the primary scenario (the report's {@code samples}), 0 when not recorded
     * @param timedOut of them, those that timed out (the report's {@code errors.timeout}), 0 when none
     */
    public record Repeat(int rep, boolean pass, double p50Ms, double p99Ms, int freezeSeconds,
                         Map<String, Integer> freezeSecondsByCause, Double worst10sP99Ms, long dropped, long samples,
                         long timedOut) {
        public Repeat {
            freezeSecondsByCause = Collections.unmodifiableMap(new TreeMap<>(freezeSecondsByCause));
        }

        /** A repeat whose samples and timeouts were not recorded. */
        public Repeat(int rep, boolean pass, double p50Ms, double p99Ms, int freezeSeconds,
                      Map<String, Integer> freezeSecondsByCause, Double worst10sP99Ms, long dropped) {
            this(rep, pass, p50Ms, p99Ms, freezeSeconds, freezeSecondsByCause, worst10sP99Ms, dropped, 0, 0);
        }

        /** The same repeat numbered {@code n}. */
        public Repeat renumbered(int n) {
            return new Repeat(n, pass, p50Ms, p99Ms, freezeSeconds, freezeSecondsByCause, worst10sP99Ms, dropped,
                    samples, timedOut);
        }
    }

    /**
     * The figures of a report's JSON.
     *
     * @throws IllegalArgumentException naming what is wrong when it is not a series report
     */
    public static SeriesFigures of(String source, JsonNode report) {
        if (report == null || !report.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        for (String field : new String[] {"series", "verdict", "repeats"}) {
            if (!report.hasNonNull(field)) {
                throw new IllegalArgumentException("no '" + field + "' field: not a series report (--report-json)");
            }
        }
        if (!report.get("repeats").isArray()) {
            throw new IllegalArgumentException("'repeats' is not an array");
        }
        List<JsonNode> all = new ArrayList<>();
        report.get("repeats").forEach(all::add);
        List<JsonNode> judged = all.stream().filter(r -> "sustained".equals(r.path("kind").asText())).toList();
        if (judged.isEmpty()) {
            judged = all;
        }
        List<Repeat> repeats = new ArrayList<>();
        for (JsonNode r : judged) {
            int rep = r.path("rep").asInt();
            if (!r.path("p99_ms").isNumber() || !r.path("p50_ms").isNumber()) {
                throw new IllegalArgumentException("repeat " + rep + " has no p50_ms/p99_ms");
            }
            Map<String, Integer> byCause = new TreeMap<>();
            if (r.path("freeze_seconds_by_cause").isObject()) {
                r.get("freeze_seconds_by_cause").fields().forEachRemaining(e -> byCause.put(e.getKey(),
                        e.getValue().asInt()));
            } else {
                // an older report: the freeze-seconds of the repeat's episodes by their cause
                for (JsonNode e : report.path("episodes")) {
                    if (e.path("rep").asInt() == rep && e.path("freeze_seconds").asInt() > 0) {
                        byCause.merge(e.path("cause").asText("unattributed"), e.path("freeze_seconds").asInt(),
                                Integer::sum);
                    }
                }
            }
            repeats.add(new Repeat(rep, r.path("pass").asBoolean(), r.get("p50_ms").asDouble(),
                    r.get("p99_ms").asDouble(), r.path("freeze_seconds").size(), byCause,
                    r.path("worst_10s_p99_ms").isNumber() ? r.get("worst_10s_p99_ms").asDouble() : null,
                    r.path("dropped").asLong(), r.path("samples").asLong(), r.path("errors").path("timeout").asLong()));
        }
        List<String> levers = new ArrayList<>();
        java.util.Set<Integer> judgedReps = new java.util.HashSet<>();
        repeats.forEach(r -> judgedReps.add(r.rep()));
        for (JsonNode e : report.path("episodes")) {
            JsonNode l = e.path("lever");
            if (l.isObject() && judgedReps.contains(e.path("rep").asInt())) {
                String head = l.hasNonNull("setting") ? l.get("setting").asText() + "=" + l.path("value").asText()
                        : l.hasNonNull("action") ? l.get("action").asText() : "not computed";
                levers.add("rep " + e.path("rep").asInt() + " " + e.path("cause").asText() + ": " + head);
            }
        }
        Map<String, Object> env = report.path("environment").isObject()
                ? JSON.convertValue(report.get("environment"), JSON.getTypeFactory().constructMapType(
                        LinkedHashMap.class, String.class, Object.class))
                : Map.of();
        return new SeriesFigures(source, report.get("series").asText(), report.get("verdict").asText(),
                report.path("headline").asText(""), repeats, levers, env);
    }

    /** Freeze-seconds over the judged repeats by cause. */
    public Map<String, Integer> freezeSecondsByCause() {
        Map<String, Integer> m = new TreeMap<>();
        repeats.forEach(r -> r.freezeSecondsByCause().forEach((c, n) -> m.merge(c, n, Integer::sum)));
        return m;
    }

    /** The worst 10-s p99 of the judged repeats, or null. */
    public Double worst10sP99Ms() {
        return repeats.stream().map(Repeat::worst10sP99Ms).filter(Objects::nonNull).max(Double::compare).orElse(null);
    }

    /** Requests dropped over the judged repeats. */
    public long dropped() {
        return repeats.stream().mapToLong(Repeat::dropped).sum();
    }

    /** Judged repeats that passed. */
    public long passed() {
        return repeats.stream().filter(Repeat::pass).count();
    }
}
