package io.rigscope.rig.collect;

import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.CloudWatchPoint;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.Gap;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * What {@code rigscope collect} prints once a second: records per collector so far and, per collector, the
 * gist of its latest record. Thread-safe: collectors record from their threads, the printer reads.
 */
final class LiveLine {

    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> byTopic = new ConcurrentHashMap<>();
    private final Map<String, String> latest = new ConcurrentHashMap<>();
    private final AtomicLong gaps = new AtomicLong();
    private final AtomicLong rawLogLines = new AtomicLong();

    /** Shows these collectors from the first line on, with 0 records until their first one. */
    void expect(java.util.List<String> collectors) {
        for (String c : collectors) {
            counts.computeIfAbsent(c, k -> new AtomicLong());
            latest.putIfAbsent(c, "-");
        }
    }

    void record(String collector, WireRecord r) {
        counts.computeIfAbsent(collector, k -> new AtomicLong()).incrementAndGet();
        byTopic.computeIfAbsent(r.topic().topicName(), k -> new AtomicLong()).incrementAndGet();
        if (r instanceof Marker m && m.body() instanceof Gap gap) {
            gaps.incrementAndGet();
            String reason = String.valueOf(gap.reason());
            latest.put(collector, "GAP " + (reason.length() > 100 ? reason.substring(0, 97) + "..." : reason));
        } else {
            if (r instanceof PgLogEvent e && e.kind() == PgLogEvent.Kind.RAW) {
                rawLogLines.incrementAndGet();
            }
            latest.put(collector, gist(r));
        }
    }

    /** One line: elapsed seconds, then per collector its count and latest gist. */
    String render(long elapsedSec) {
        String parts = new TreeMap<>(latest).entrySet().stream()
                .map(e -> e.getKey() + "=" + counts.get(e.getKey()) + " [" + e.getValue() + "]")
                .collect(Collectors.joining("  "));
        return String.format("%4ds  %s%s%s", elapsedSec, parts.isEmpty() ? "(waiting for the first records)" : parts,
                gaps.get() > 0 ? "  gaps=" + gaps.get() : "",
                rawLogLines.get() > 0 ? "  unparsed-log-lines=" + rawLogLines.get() : "");
    }

    /** Gap markers so far. */
    long gaps() {
        return gaps.get();
    }

    /** Log lines kept as RAW events so far. */
    long rawLogLines() {
        return rawLogLines.get();
    }

    /** Records per topic so far. */
    Map<String, Long> perTopic() {
        Map<String, Long> out = new TreeMap<>();
        byTopic.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    static String gist(WireRecord r) {
        if (r instanceof Vmstat v) {
            return "r=" + v.r() + " b=" + v.b() + " us=" + v.us() + " sy=" + v.sy() + " wa=" + v.wa() + " bo=" + v.bo();
        }
        if (r instanceof OsMetrics o) {
            String disk = o.diskIO().isEmpty() ? "no disk" : String.format("%s w=%.0f/s %.0fKB/s q=%.1f await=%.1fms",
                    o.diskIO().get(0).device(), o.diskIO().get(0).writeIOsPS(), o.diskIO().get(0).writeKbPS(),
                    o.diskIO().get(0).avgQueueLen(), o.diskIO().get(0).await());
            return String.format("cpu=%.0f%% %s", o.cpuUtilization().total(), disk);
        }
        if (r instanceof Waits w) {
            return w.load().isEmpty() ? "idle" : w.load().entrySet().stream()
                    .map(e -> e.getKey() + ":" + fmt(e.getValue())).collect(Collectors.joining(","));
        }
        if (r instanceof DbSample d) {
            return "wal=" + (d.wal() == null ? "-" : d.wal().bytes() + "B") + " walfiles="
                    + (d.walDir() == null ? "-" : d.walDir().files()) + " commits="
                    + (d.database() == null ? "-" : d.database().commits()) + " vacuums=" + d.vacuums().size();
        }
        if (r instanceof PgLogEvent e) {
            return e.kind() + (e.table() == null ? "" : " " + e.table());
        }
        if (r instanceof Canary c) {
            return "fsyncs=" + c.fsyncs() + " max=" + c.fsyncMaxUs() + "us p99=" + c.fsyncP99Us() + "us stalled="
                    + c.stalledIntervals();
        }
        if (r instanceof io.rigscope.model.wire.ProcessMetrics m) {
            return "pid=" + m.pid() + " cpu=" + fmt(m.cpuPct()) + "% rss=" + (m.rssBytes() >> 20) + "MB threads="
                    + m.threads() + " runq=" + fmt(m.runqWaitMs()) + "ms stopped=" + fmt(m.stoppedMs()) + "ms"
                    + (m.safepointMs() == null ? "" : " safepoint=" + fmt(m.safepointMs()) + "ms");
        }
        if (r instanceof CloudWatchPoint p) {
            return p.metric() + "=" + fmt(p.value());
        }
        return r.getClass().getSimpleName();
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format("%.2f", v);
    }
}
