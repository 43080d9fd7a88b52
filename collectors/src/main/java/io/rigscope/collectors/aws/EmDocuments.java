package io.rigscope.collectors.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.model.wire.OsMetrics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an RDS Enhanced Monitoring document (one CloudWatch Logs event of the {@code RDSOSMetrics} group; fields
 * as listed in the Amazon RDS User Guide, "OS metrics in Enhanced Monitoring") into {@link OsMetrics}.
 *
 * <p>Lenient on purpose, as the document varies by engine and agent version: every field is optional (a missing
 * number is 0); {@code diskIO} devices keep their names ({@code rdsdev}, {@code filesystem}, ...), and entries
 * that report {@code readThroughput}/{@code writeThroughput} (bytes/s), {@code diskQueueDepth} or
 * {@code readLatency}/{@code writeLatency} (ms) instead of iostat's names are mapped onto KB/s, queue length and
 * await; {@code physicalDeviceIO} is read the same way; {@code processList} (whose {@code vmlimit} is
 * {@code "unlimited"} or 0) and other sections are ignored. Stateless, thread-safe.
 */
public final class EmDocuments {

    private final ObjectMapper json = new ObjectMapper();

    /**
     * @throws IllegalArgumentException naming what is wrong when the text is not a JSON object with a timestamp
     */
    public OsMetrics parse(String text, CollectorContext ctx, String src) {
        JsonNode doc;
        try {
            doc = json.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException("Enhanced Monitoring document is not JSON: " + e.getMessage(), e);
        }
        if (doc == null || !doc.isObject()) {
            throw new IllegalArgumentException("Enhanced Monitoring document is not a JSON object");
        }
        String ts = doc.path("timestamp").asText("");
        long tsUs;
        try {
            Instant t = Instant.parse(ts);
            tsUs = t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Enhanced Monitoring document has no ISO-8601 \"timestamp\" (got '" + ts + "')");
        }
        JsonNode cpu = doc.path("cpuUtilization");
        JsonNode mem = doc.path("memory");
        JsonNode load = doc.path("loadAverageMinute");
        return new OsMetrics(ctx.run(), ctx.rep(), src, tsUs, doc.path("engine").asText("POSTGRES"),
                new OsMetrics.Cpu(d(cpu, "user"), d(cpu, "system"), d(cpu, "wait"), d(cpu, "irq"), d(cpu, "nice"),
                        d(cpu, "steal"), d(cpu, "guest"), d(cpu, "idle"), d(cpu, "total")),
                new OsMetrics.Memory(l(mem, "total"), l(mem, "free"), l(mem, "cached"), l(mem, "buffers"),
                        l(mem, "dirty"), l(mem, "writeback"), l(mem, "active"), l(mem, "inactive")),
                new OsMetrics.LoadAverage(d(load, "one"), d(load, "five"), d(load, "fifteen")),
                devices(doc.path("diskIO")), devices(doc.path("physicalDeviceIO")));
    }

    private static List<OsMetrics.DiskIO> devices(JsonNode list) {
        List<OsMetrics.DiskIO> out = new ArrayList<>();
        if (!list.isArray()) {
            return out;
        }
        for (JsonNode n : list) {
            double readKbPS = n.has("readKbPS") ? d(n, "readKbPS") : d(n, "readThroughput") / 1024;
            double writeKbPS = n.has("writeKbPS") ? d(n, "writeKbPS") : d(n, "writeThroughput") / 1024;
            double readIOs = d(n, "readIOsPS");
            double writeIOs = d(n, "writeIOsPS");
            double avgReqSz = n.has("avgReqSz") ? d(n, "avgReqSz")
                    : readIOs + writeIOs == 0 ? 0 : (readKbPS + writeKbPS) / (readIOs + writeIOs);
            double queue = n.has("avgQueueLen") ? d(n, "avgQueueLen") : d(n, "diskQueueDepth");
            double await = n.has("await") ? d(n, "await") : readIOs + writeIOs == 0 ? 0
                    : (d(n, "readLatency") * readIOs + d(n, "writeLatency") * writeIOs) / (readIOs + writeIOs);
            out.add(new OsMetrics.DiskIO(n.path("device").asText("unknown"), readIOs, writeIOs, readKbPS, writeKbPS,
                    avgReqSz, queue, await, d(n, "util")));
        }
        return out;
    }

    private static double d(JsonNode n, String field) {
        JsonNode v = n.path(field);
        return v.isNumber() ? v.asDouble() : v.isTextual() ? parse(v.asText()) : 0;
    }

    private static long l(JsonNode n, String field) {
        return (long) d(n, field);
    }

    private static double parse(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
