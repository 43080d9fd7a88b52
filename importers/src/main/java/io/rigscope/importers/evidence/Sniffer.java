package io.rigscope.importers.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import io.rigscope.collectors.pglog.LogLinePrefix;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Tells an evidence file's format from its first lines, never from its name (gzip is opened first).
 * Stateless apart from the log prefixes it tries.
 */
final class Sniffer {

    private static final int HEAD_LINES = 20;

    /**
     * @param kind the format, or null
     * @param pglogPrefix for {@link EvidenceKind#PGLOG}, the prefix that matched
     * @param what for an unknown file, what it starts with
     */
    record Sniffed(EvidenceKind kind, String pglogPrefix, String what) {
    }

    private final List<String> prefixes = new ArrayList<>();

    /** @param pglogPrefix a log_line_prefix to try first, or null */
    Sniffer(String pglogPrefix) {
        if (pglogPrefix != null) {
            prefixes.add(pglogPrefix);
        }
        prefixes.add(LogLinePrefix.DEFAULT);
        prefixes.add(LogLinePrefix.RDS);
    }

    Sniffed sniff(Path file) throws IOException {
        List<String> head = new ArrayList<>();
        try (BufferedReader r = EvidenceText.open(file)) {
            String line;
            while (head.size() < HEAD_LINES && (line = r.readLine()) != null) {
                if (!line.isBlank()) {
                    head.add(line);
                }
            }
        } catch (IOException e) {
            return new Sniffed(null, null, "unreadable: " + e.getMessage());
        }
        if (head.isEmpty()) {
            return new Sniffed(null, null, "empty");
        }
        String first = head.get(0).strip();
        if (first.startsWith("{") || first.startsWith("[")) {
            JsonNode node = firstJson(file);
            EvidenceKind kind = node == null ? null : json(node.isArray() && node.size() > 0 ? node.get(0) : node);
            return new Sniffed(kind, null, kind == null ? "JSON of no known shape: " + cut(first) : null);
        }
        if (first.startsWith("metric_name,timestamp,metric_value")) {
            return new Sniffed(EvidenceKind.K6_CSV, null, null);
        }
        for (String line : head) {
            String s = line.strip();
            if (s.startsWith("procs ") || s.matches("r\\s+b\\s+swpd\\s+free\\b.*")) {
                return new Sniffed(EvidenceKind.VMSTAT, null, null);
            }
        }
        for (String prefix : prefixes) {
            LogLinePrefix p = LogLinePrefix.of(prefix, ZoneOffset.UTC);
            for (String line : head) {
                if (p.match(line).filter(h -> h.tsUs() != null).isPresent()) {
                    return new Sniffed(EvidenceKind.PGLOG, prefix, null);
                }
            }
        }
        return new Sniffed(null, null, "text of no known format: " + cut(first));
    }

    private static JsonNode firstJson(Path file) throws IOException {
        Tally ignored = new Tally(file, null);
        JsonNode[] first = new JsonNode[1];
        try {
            EvidenceText.values(file, ignored, n -> {
                if (first[0] == null) {
                    first[0] = n;
                    throw new FoundIt();
                }
            });
        } catch (FoundIt found) {
            // the first value is all a sniff needs
        }
        return first[0];
    }

    /** Stops reading a file once its first JSON value is in. */
    private static final class FoundIt extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FoundIt() {
            super(null, null, false, false);
        }
    }

    private static EvidenceKind json(JsonNode n) {
        if (!n.isObject()) {
            return null;
        }
        if (n.has("type") && n.has("metric") && (n.path("type").asText().equals("Point")
                || n.path("type").asText().equals("Metric"))) {
            return EvidenceKind.K6_JSON;
        }
        if (n.has("topic") && n.has("value")) {
            return EvidenceKind.WIRE;
        }
        if (n.has("MetricList")) {
            return EvidenceKind.PERFORMANCE_INSIGHTS;
        }
        if (n.has("MetricDataResults")) {
            return EvidenceKind.CLOUDWATCH;
        }
        if (EnhancedMonitoringFile.document(n) != null || n.has("events") && n.path("events").isArray()) {
            return EvidenceKind.ENHANCED_MONITORING;
        }
        if (n.has("ts") && (n.has("walDir") || n.has("wal") || n.has("serverVersionNum") || n.has("checkpoints"))) {
            return EvidenceKind.DB_SAMPLER;
        }
        return null;
    }

    private static String cut(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
