package io.rigscope.importers.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.aws.EmDocuments;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * RDS Enhanced Monitoring documents to {@code rig.os}: one document a line, bare or as a CloudWatch Logs event
 * ({@code {"timestamp": ..., "message": "<document>"}}), or {@code aws logs get-log-events} output
 * ({@code {"events": [...]}}). Each document's own {@code timestamp} (UTC) places it.
 */
final class EnhancedMonitoringFile implements EvidenceReader {

    private final CollectorContext ctx;
    private final EmDocuments documents = new EmDocuments();

    EnhancedMonitoringFile(String series) {
        this.ctx = new CollectorContext(series, () -> 0, "rds", null);
    }

    /** The Enhanced Monitoring document a JSON value is or carries as its {@code message}; null otherwise. */
    static JsonNode document(JsonNode n) {
        if (n.isObject() && n.has("timestamp") && (n.has("diskIO") || n.has("cpuUtilization")
                || n.has("instanceResourceID"))) {
            return n;
        }
        if (n.isObject() && n.path("message").isTextual()) {
            try {
                JsonNode inner = EvidenceText.JSON.readTree(n.path("message").asText());
                return inner != null && inner.isObject() && inner.has("timestamp") ? inner : null;
            } catch (IOException e) {
                return null;
            }
        }
        return null;
    }

    @Override
    public void read(Path file, Tally tally, Consumer<WireRecord> out) throws IOException {
        EvidenceText.values(file, tally, n -> {
            if (n.path("events").isArray()) {
                n.path("events").forEach(e -> one(e, tally, out));
            } else {
                one(n, tally, out);
            }
        });
    }

    private void one(JsonNode n, Tally tally, Consumer<WireRecord> out) {
        JsonNode doc = document(n);
        if (doc == null) {
            tally.bad(tally.lines, "not an Enhanced Monitoring document");
            return;
        }
        String instance = doc.path("instanceID").asText("");
        try {
            OsMetrics os = documents.parse(doc.toString(), ctx, "em@" + (instance.isBlank() ? "rds" : instance));
            out.accept(os);
            tally.records++;
        } catch (IllegalArgumentException e) {
            tally.bad(tally.lines, e.getMessage());
        }
    }
}
