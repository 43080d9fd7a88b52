package io.rigscope.importers.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Performance Insights GetResourceMetrics responses to {@code rig.waits}: the {@code db.load.avg} series grouped
 * by {@code db.wait_event} become, per data point's {@code Timestamp}, one {@link Waits} whose keys are
 * {@code db.wait_event.type:db.wait_event.name} (CPU is {@code CPU}); the ungrouped total is not repeated, but
 * a second it has a value for and no group does becomes a record with an empty load (0 active sessions).
 * Timestamps as the AWS CLI prints them: ISO 8601 with an offset, or epoch seconds. The period is the smallest
 * gap between data points (1 s when a response holds one).
 */
final class PerformanceInsightsFile implements EvidenceReader {

    private final String series;

    PerformanceInsightsFile(String series) {
        this.series = series;
    }

    @Override
    public void read(Path file, Tally tally, Consumer<WireRecord> out) throws IOException {
        EvidenceText.values(file, tally, response -> {
            if (!response.path("MetricList").isArray()) {
                tally.bad(tally.lines, "not a GetResourceMetrics response (no MetricList)");
                return;
            }
            String src = "waits@" + response.path("Identifier").asText("pi");
            TreeMap<Long, Map<String, Double>> bySecond = new TreeMap<>();
            for (JsonNode series : response.path("MetricList")) {
                String metric = series.path("Key").path("Metric").asText("");
                JsonNode dims = series.path("Key").path("Dimensions");
                if (metric.startsWith("db.load") && (dims.isMissingNode() || dims.isEmpty())) {
                    // the ungrouped total: a second it has a value for was sampled, even with no session active
                    for (JsonNode p : series.path("DataPoints")) {
                        Long us = timestampUs(p.path("Timestamp"));
                        if (us != null && p.path("Value").isNumber()) {
                            bySecond.computeIfAbsent(us, t -> new TreeMap<>());
                        }
                    }
                    continue;
                }
                if (!metric.startsWith("db.load") || !dims.has("db.wait_event.name")) {
                    continue;
                }
                String name = dims.path("db.wait_event.name").asText();
                String type = dims.path("db.wait_event.type").asText("");
                String key = name.equals("CPU") || type.isEmpty() ? name : type + ":" + name;
                for (JsonNode p : series.path("DataPoints")) {
                    Long us = timestampUs(p.path("Timestamp"));
                    if (us == null) {
                        tally.bad(tally.lines, "data point without a readable Timestamp: " + p.path("Timestamp"));
                        continue;
                    }
                    if (!p.path("Value").isNumber()) {
                        continue; // PI leaves Value out where it has no data
                    }
                    bySecond.computeIfAbsent(us, t -> new TreeMap<>()).merge(key, p.path("Value").asDouble(),
                            Double::sum);
                }
            }
            int periodSec = periodSec(bySecond);
            bySecond.forEach((us, load) -> {
                out.accept(new Waits(this.series, 0, src, us, periodSec, load));
                tally.records++;
            });
        });
    }

    private static int periodSec(TreeMap<Long, ?> times) {
        long gap = Long.MAX_VALUE;
        Long prev = null;
        for (long t : times.keySet()) {
            if (prev != null) {
                gap = Math.min(gap, t - prev);
            }
            prev = t;
        }
        return gap == Long.MAX_VALUE ? 1 : (int) Math.max(1, gap / 1_000_000L);
    }

    /** An AWS CLI timestamp (ISO 8601 with offset, or epoch seconds), epoch µs; null when neither. */
    static Long timestampUs(JsonNode t) {
        if (t.isNumber()) {
            return Math.round(t.asDouble() * 1_000_000.0);
        }
        try {
            var odt = OffsetDateTime.parse(t.asText());
            return odt.toEpochSecond() * 1_000_000L + odt.getNano() / 1_000;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
