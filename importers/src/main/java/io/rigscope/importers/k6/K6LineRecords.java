package io.rigscope.importers.k6;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.rigscope.analyzer.threshold.K6Verdict;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One line of k6's JSON output at a time, converted exactly as {@code rigscope import k6} converts it
 * ({@link K6Import}'s per-line conversion: the same sample, scenario renaming, failure and drop rules, the same
 * CONFIG data for the thresholds of {@code Metric} lines). For readers that see the lines as k6 writes them:
 * {@code rigscope collect k6} following a file or a topic. This class is the one place such a reader reaches the
 * k6 conversion.
 *
 * <p>Also reads xk6-output-kafka's JSON messages: the same envelope with the metric's type ({@code trend},
 * {@code counter}, {@code rate}, {@code gauge}) in place of {@code "Point"}.
 *
 * <p>Not thread-safe: one reader. Memory is bounded by the run's seconds (the conversion's per-second counts).
 */
public final class K6LineRecords {

    /** What one line is. */
    public sealed interface K6Line permits Request, Dropped, Thresholds, Other, Unreadable {
    }

    /** An {@code http_req_duration} point: one request. */
    public record Request(Sample sample) implements K6Line {
    }

    /** A {@code dropped_iterations} point: {@code count} iterations of {@code scenario} dropped in {@code sec}. */
    public record Dropped(String scenario, long sec, long count) implements K6Line {
    }

    /**
     * A {@code Metric} line that declared thresholds: the series' CONFIG data with every threshold declared so far,
     * and the thresholds rigscope cannot judge (left out of the data, as {@code import k6} leaves them).
     */
    public record Thresholds(Map<String, Object> config, List<String> notJudged) implements K6Line {
        public Thresholds {
            config = Map.copyOf(config);
            notJudged = List.copyOf(notJudged);
        }
    }

    /** A readable line that carries nothing published: another metric's point, a Metric line without thresholds. */
    public record Other() implements K6Line {
    }

    /** A line that cannot be read, and why. */
    public record Unreadable(String reason) implements K6Line {
    }

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final List<String> METRIC_TYPES = List.of("trend", "counter", "rate", "gauge");

    private final K6Import.State state;
    private final K6LineReader reader = new K6LineReader();
    private final List<Sample> converted = new ArrayList<>(1);
    private final List<Dropped> drops = new ArrayList<>(1);
    private final java.util.Set<String> reported = new java.util.HashSet<>();
    private Map<String, Object> config;

    /**
     * @param source what the lines come from (a file or {@code topic:T}), as the conversion names it
     * @param options the series, repeat, generator, scenario map and reconciliation flag, as {@code import k6}
     *                takes them (batch size and series markers are not used)
     */
    public K6LineRecords(String source, K6Import.Options options) {
        Objects.requireNonNull(source, "source");
        K6Import.Options one = new K6Import.Options(options.series(), options.rep(), options.generator(),
                options.scenarioMap(), options.reconciliationRequired(), false, 1, false);
        state = new K6Import.State(Path.of(source), one, record -> {
            if (record instanceof SampleBatch batch) {
                converted.addAll(batch.samples());
            } else if (record instanceof Marker m && m.kind() == Marker.Kind.CONFIG) {
                config = m.data();
            }
        });
        state.drops = (scenario, sec, count) -> drops.add(new Dropped(scenario, sec, count));
        state.configMarker(1);
    }

    /**
     * Every threshold declared so far (Metric lines), judged as {@code import k6} judges it over the points
     * converted so far ({@link K6Thresholds}); what the REPEAT_END marker carries as {@code k6_thresholds}.
     */
    public List<K6Verdict> verdicts() {
        return state.verdicts();
    }

    /** The series' CONFIG data before any threshold was seen (k6 judges every scenario together). */
    public Map<String, Object> config() {
        return config;
    }

    /** Converts one line (without its line end). */
    public K6Line convert(String line) {
        if (line.isBlank()) {
            return new Other();
        }
        String text = pointOfKafkaEnvelope(line);
        converted.clear();
        drops.clear();
        io.rigscope.importers.k6.K6Line parsed;
        try {
            parsed = reader.parse(text);
        } catch (K6LineReader.BadLineException e) {
            return new Unreadable(e.getMessage());
        }
        int before = state.declaredThresholds();
        state.lastUnusable = null;
        state.line(parsed);
        if (state.lastUnusable != null) {
            return new Unreadable(state.lastUnusable);
        }
        if (!converted.isEmpty()) {
            return new Request(converted.get(0));
        }
        if (!drops.isEmpty()) {
            return drops.get(0);
        }
        if (state.declaredThresholds() > before) {
            state.notInConfig.clear();
            state.configMarker(1); // every threshold so far, judged again: its problems are the new ones too
            List<String> notJudged = new ArrayList<>();
            for (String p : state.notInConfig) {
                if (reported.add(p)) {
                    notJudged.add(p);
                }
            }
            return new Thresholds(config, notJudged);
        }
        return new Other();
    }

    /** xk6-output-kafka's envelope names the metric's type where k6's JSON output says "Point": make it a Point. */
    private static String pointOfKafkaEnvelope(String line) {
        if (line.contains("\"Point\"") || line.contains("\"Metric\"")) {
            return line;
        }
        for (String type : METRIC_TYPES) {
            if (line.contains("\"" + type + "\"")) {
                try {
                    JsonNode node = JSON.readTree(line);
                    if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode o
                            && type.equals(o.path("type").asText()) && o.has("metric")) {
                        o.put("type", "Point");
                        return JSON.writeValueAsString(o);
                    }
                } catch (IOException e) {
                    return line; // the conversion names what is wrong
                }
            }
        }
        return line;
    }
}
