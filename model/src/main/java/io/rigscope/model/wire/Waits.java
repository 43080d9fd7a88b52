package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Active sessions by wait event on {@code rig.waits}, shaped like Performance Insights' {@code db.load.avg}
 * grouped by {@code db.wait_event}.
 *
 * @param periodSec the interval the load averages over, seconds
 * @param load average active sessions per {@code wait_event_type:wait_event} (exact case, e.g.
 *             {@code Lock:transactionid}, {@code IO:WALInitWrite}); active with no wait is {@code CPU}
 */
public record Waits(String run, int rep, String src, long ts, int periodSec, Map<String, Double> load)
        implements WireRecord {

    public Waits {
        Checks.header(run, rep, src, ts);
        if (periodSec <= 0) {
            throw new IllegalArgumentException("periodSec must be > 0, was " + periodSec);
        }
        load = load == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(load));
    }

    /** Total average active sessions. */
    public double totalActive() {
        double sum = 0;
        for (double v : load.values()) {
            sum += v;
        }
        return sum;
    }

    @Override
    public Topic topic() {
        return Topic.WAITS;
    }
}
