package io.rigscope.awsstandin.rds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rigscope.model.wire.Waits;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Performance Insights' {@code db.load} of one instance, as {@link RdsStandIn} serves it to the real
 * {@code PerformanceInsightsCollector}: this host's pg_stat_activity samples (the local waits collector, one a
 * second, active sessions by {@code type:event}) re-shaped as PI keeps them: per 1-s period, {@code db.load.avg}
 * is the mean of the samples taken in that second (a second with none has no data point), grouped by the
 * {@code db.wait_event} dimension group ({@code db.wait_event.type}, {@code db.wait_event.name}; an active
 * session with no wait event is PI's {@code CPU}, type {@code CPU}).
 *
 * <p>GetResourceMetrics answers as PI does: the ungrouped total series first, then the {@code Limit} (at most 25)
 * groups with the most load over the window, each with a data point for every second in {@code [StartTime,
 * EndTime)} that was sampled (0 when the group had no session then). PI's own delay before a second is readable
 * is the collector's {@code lag} (5 s); the stand-in serves a second as soon as it was sampled.
 *
 * <p>Thread-safe: the feeder adds, the stand-in's server thread reads.
 */
final class PiSamples {

    /** PI's most groups a query returns. */
    static final int MAX_GROUPS = 25;

    private final ObjectMapper json = new ObjectMapper();
    private final String dbiResourceId;
    /** epoch second -> type:event -> sessions summed over the second's samples */
    private final NavigableMap<Long, Map<String, Double>> sums = new TreeMap<>();
    /** epoch second -> samples taken in it */
    private final Map<Long, Integer> samples = new TreeMap<>();

    PiSamples(String dbiResourceId) {
        this.dbiResourceId = Objects.requireNonNull(dbiResourceId, "dbiResourceId");
    }

    /** Adds one local sample to its second. */
    synchronized void add(Waits sample) {
        long second = Math.floorDiv(sample.ts(), 1_000_000L);
        Map<String, Double> sum = sums.computeIfAbsent(second, s -> new LinkedHashMap<>());
        sample.load().forEach((k, v) -> sum.merge(k, v, Double::sum));
        samples.merge(second, 1, Integer::sum);
    }

    /**
     * Answers GetResourceMetrics (Performance Insights API: ServiceType, Identifier, MetricQueries with Metric
     * {@code db.load.avg} and GroupBy {@code db.wait_event}, StartTime, EndTime in epoch seconds, PeriodInSeconds
     * 1; AlignedStartTime, AlignedEndTime, Identifier, MetricList of Key and DataPoints).
     *
     * @return the JSON body, or null when the identifier is not this instance's or the query is not one PI
     *         answers at 1 s (InvalidArgumentException)
     */
    synchronized String getResourceMetrics(JsonNode request) {
        if (!dbiResourceId.equals(request.path("Identifier").asText())
                || request.path("PeriodInSeconds").asInt(1) != 1) {
            return null;
        }
        long from = (long) Math.ceil(request.path("StartTime").asDouble());
        long to = (long) Math.floor(request.path("EndTime").asDouble());
        JsonNode query = request.path("MetricQueries").path(0);
        int limit = Math.min(MAX_GROUPS, query.path("GroupBy").path("Limit").asInt(10));
        NavigableMap<Long, Map<String, Double>> window = sums.subMap(from, true, to, false);
        Map<String, Double> byEvent = new LinkedHashMap<>();
        window.forEach((sec, sum) -> sum.forEach((k, v) -> byEvent.merge(k, v / samples.get(sec), Double::sum)));
        List<String> top = byEvent.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()))
                .limit(limit).map(Map.Entry::getKey).toList();
        ObjectNode resp = json.createObjectNode();
        resp.put("AlignedStartTime", from).put("AlignedEndTime", to).put("Identifier", dbiResourceId);
        ArrayNode metrics = resp.putArray("MetricList");
        ObjectNode total = metrics.addObject();
        total.putObject("Key").put("Metric", "db.load.avg");
        ArrayNode totalPoints = total.putArray("DataPoints");
        window.forEach((sec, sum) -> totalPoints.addObject().put("Timestamp", sec)
                .put("Value", sum.values().stream().mapToDouble(Double::doubleValue).sum() / samples.get(sec)));
        if (query.path("GroupBy").path("Group").asText("").equals("db.wait_event")) {
            for (String event : top) {
                ObjectNode series = metrics.addObject();
                ObjectNode key = series.putObject("Key");
                key.put("Metric", "db.load.avg");
                int colon = event.indexOf(':');
                key.putObject("Dimensions")
                        .put("db.wait_event.name", colon < 0 ? event : event.substring(colon + 1))
                        .put("db.wait_event.type", colon < 0 ? event : event.substring(0, colon));
                ArrayNode points = series.putArray("DataPoints");
                window.forEach((sec, sum) -> points.addObject().put("Timestamp", sec)
                        .put("Value", sum.getOrDefault(event, 0.0) / samples.get(sec)));
            }
        }
        return resp.toString();
    }
}
