package io.rigscope.awsstandin.rds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rigscope.model.wire.OsMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * The {@code RDSOSMetrics} log stream of one instance, as {@link RdsStandIn} serves it to the real
 * {@code EnhancedMonitoringCollector}: each of this host's device readings (the local os collector's
 * {@link OsMetrics} of the cluster's data device, 1 s apart) re-shaped as one Enhanced Monitoring document at
 * 1-s granularity (EM's finest) and readable through CloudWatch Logs' GetLogEvents only
 * {@link #INGESTION_DELAY} after its timestamp.
 *
 * <p>The document has EM's identity fields ({@code engine POSTGRES}, {@code instanceID},
 * {@code instanceResourceID}, a whole-second ISO {@code timestamp}, {@code numVCPUs}) and the sections the
 * collector reads, with EM's names and units: {@code cpuUtilization} (percent), {@code loadAverageMinute},
 * {@code memory} (KB) and {@code diskIO} with one device, {@code rdsdev} (the data volume): {@code readIOsPS},
 * {@code writeIOsPS}, {@code tps}, {@code readKbPS}, {@code writeKbPS}, {@code readKb}/{@code writeKb} (KB in the
 * interval), {@code avgReqSz} (KB), {@code avgQueueLen}, {@code await} (ms), {@code util} (percent). The host's
 * whole disk is not published as {@code physicalDeviceIO}: it carries other processes' IO, which an instance's EM
 * never shows. {@code processList}, {@code tasks}, {@code swap}, {@code network} and {@code fileSys} are left out:
 * the collector ignores them.
 *
 * <p>Thread-safe: the feeder adds, the stand-in's server thread reads.
 */
final class EmStream {

    /**
     * How long after its timestamp a document becomes readable. An assumption (EM's agent ships to CloudWatch
     * Logs in batches; its latency was not measured here), kept short so the stand-in does not flatter the
     * analyzer's tolerance; the collector's own 5-s poll comes on top.
     */
    static final Duration INGESTION_DELAY = Duration.ofSeconds(3);
    /** GetLogEvents returns at most this many events a call. */
    static final int MAX_EVENTS = 10_000;
    /** The device name RDS gives the data volume in {@code diskIO}. */
    static final String DATA_DEVICE = "rdsdev";

    private record Event(long timestampMs, String message, long ingestionMs) {
    }

    private final ObjectMapper json = new ObjectMapper();
    private final String instanceId;
    private final String dbiResourceId;
    private final int vcpus;
    private final Instant startedAt;
    private final Deque<Event> pending = new ArrayDeque<>();
    private final List<Event> ingested = new ArrayList<>();
    private long lastSecond = Long.MIN_VALUE;

    EmStream(String instanceId, String dbiResourceId, Instant startedAt) {
        this.instanceId = Objects.requireNonNull(instanceId, "instanceId");
        this.dbiResourceId = Objects.requireNonNull(dbiResourceId, "dbiResourceId");
        this.startedAt = Objects.requireNonNull(startedAt, "startedAt");
        this.vcpus = Runtime.getRuntime().availableProcessors();
    }

    /**
     * Adds one local reading (its first device is the data directory's) as an EM document. A reading without a
     * device, or a second reading in a second that already has a document (timer jitter), is skipped: EM
     * publishes one document per granularity step.
     */
    synchronized void add(OsMetrics local) {
        if (local.diskIO().isEmpty()) {
            return;
        }
        long second = Math.floorDiv(local.ts(), 1_000_000L);
        if (second <= lastSecond) {
            return;
        }
        lastSecond = second;
        long tsMs = second * 1000;
        pending.add(new Event(tsMs, document(local, second), tsMs + INGESTION_DELAY.toMillis()));
    }

    /** The EM document of one local reading, stamped with {@code second}. */
    String document(OsMetrics local, long second) {
        ObjectNode doc = json.createObjectNode();
        doc.put("engine", "POSTGRES").put("instanceID", instanceId).put("instanceResourceID", dbiResourceId)
                .put("timestamp", Instant.ofEpochSecond(second).toString()).put("version", 1.00)
                .put("uptime", uptime(second)).put("numVCPUs", vcpus);
        OsMetrics.Cpu c = local.cpuUtilization();
        doc.putObject("cpuUtilization").put("guest", r(c.guest())).put("irq", r(c.irq())).put("system", r(c.system()))
                .put("wait", r(c.ioWait())).put("idle", r(c.idle())).put("user", r(c.user())).put("total", r(c.total()))
                .put("steal", r(c.steal())).put("nice", r(c.nice()));
        OsMetrics.LoadAverage l = local.loadAverageMinute();
        doc.putObject("loadAverageMinute").put("one", l.one()).put("five", l.five()).put("fifteen", l.fifteen());
        OsMetrics.Memory m = local.memory();
        doc.putObject("memory").put("writeback", m.writeback()).put("cached", m.cached()).put("free", m.free())
                .put("inactive", m.inactive()).put("dirty", m.dirty()).put("active", m.active()).put("total", m.total())
                .put("buffers", m.buffers());
        OsMetrics.DiskIO d = local.diskIO().get(0);
        ArrayNode disks = doc.putArray("diskIO");
        disks.addObject().put("writeKbPS", r(d.writeKbPS())).put("readIOsPS", r(d.readIOsPS())).put("await", r(d.await()))
                .put("readKbPS", r(d.readKbPS())).put("rrqmPS", 0.0).put("util", r(d.util()))
                .put("avgQueueLen", r(d.avgQueueLen())).put("tps", r(d.readIOsPS() + d.writeIOsPS()))
                .put("readKb", Math.round(d.readKbPS())).put("device", DATA_DEVICE)
                .put("writeKb", Math.round(d.writeKbPS())).put("avgReqSz", r(d.avgReqSz())).put("wrqmPS", 0.0)
                .put("writeIOsPS", r(d.writeIOsPS()));
        return doc.toString();
    }

    private String uptime(long second) {
        long sec = Math.max(0, second - startedAt.getEpochSecond());
        return String.format(java.util.Locale.ROOT, "%d:%02d:%02d", sec / 3600, sec / 60 % 60, sec % 60);
    }

    /** EM writes two decimals. */
    private static double r(double v) {
        return Math.round(v * 100) / 100.0;
    }

    /**
     * Answers GetLogEvents (CloudWatch Logs API: logGroupName, logStreamName, startTime, nextToken, startFromHead,
     * limit; events with timestamp, message, ingestionTime; nextForwardToken, nextBackwardToken). A forward token
     * is a position in the stream as ingested ({@code f/<n>}); at the stream's end it comes back unchanged, as
     * CloudWatch's does.
     *
     * @return the JSON body, or null when the group or stream is not this instance's (ResourceNotFoundException)
     */
    synchronized String getLogEvents(JsonNode request, long nowMs) {
        if (!"RDSOSMetrics".equals(request.path("logGroupName").asText())
                || !dbiResourceId.equals(request.path("logStreamName").asText())) {
            return null;
        }
        while (!pending.isEmpty() && pending.peek().ingestionMs() <= nowMs) {
            ingested.add(pending.poll());
        }
        int from;
        String token = request.path("nextToken").asText("");
        if (token.startsWith("f/")) {
            from = Math.min(ingested.size(), Integer.parseInt(token.substring(2)));
        } else {
            long startMs = request.path("startTime").asLong(0);
            from = 0;
            while (from < ingested.size() && ingested.get(from).timestampMs() < startMs) {
                from++;
            }
        }
        int limit = request.has("limit") ? Math.min(MAX_EVENTS, request.get("limit").asInt()) : MAX_EVENTS;
        int to = Math.min(ingested.size(), from + limit);
        ObjectNode resp = json.createObjectNode();
        ArrayNode events = resp.putArray("events");
        for (Event e : ingested.subList(from, to)) {
            events.addObject().put("timestamp", e.timestampMs()).put("message", e.message())
                    .put("ingestionTime", e.ingestionMs());
        }
        resp.put("nextForwardToken", "f/" + to).put("nextBackwardToken", "b/" + from);
        return resp.toString();
    }
}
