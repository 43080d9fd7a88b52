package io.rigscope.analyzer.telemetry;

import io.rigscope.model.wire.WireRecord;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which telemetry arrived when, for one series: per stream, the count of records per second of their own
 * timestamp ({@code ts}). State grows with the series' seconds, never with its records. Not thread-safe: the
 * analysis thread owns it.
 */
public final class TelemetryIndex {

    private final Map<TelemetryStream, TreeMap<Long, Integer>> bySecond = new EnumMap<>(TelemetryStream.class);

    /** Accounts a record when its topic carries telemetry; returns false (and ignores it) otherwise. */
    public boolean accept(WireRecord record) {
        var stream = TelemetryStream.of(record.topic());
        if (stream.isEmpty()) {
            return false;
        }
        long sec = Math.floorDiv(record.ts(), 1_000_000L);
        bySecond.computeIfAbsent(stream.get(), s -> new TreeMap<>()).merge(sec, 1, Integer::sum);
        return true;
    }

    /** Records of the stream with a timestamp in {@code [fromSec, toSec)}. */
    public int records(TelemetryStream stream, long fromSec, long toSec) {
        TreeMap<Long, Integer> secs = bySecond.get(stream);
        if (secs == null || toSec <= fromSec) {
            return 0;
        }
        int n = 0;
        for (int c : secs.subMap(fromSec, true, toSec, false).values()) {
            n += c;
        }
        return n;
    }

    /**
     * True when the stream covered {@code [startSec, endSec)}: a periodic stream has a record within its
     * tolerance of the span; an event stream delivered any record in the series.
     */
    public boolean covered(TelemetryStream stream, long startSec, long endSec) {
        TreeMap<Long, Integer> secs = bySecond.get(stream);
        if (secs == null || secs.isEmpty()) {
            return false;
        }
        if (stream.events()) {
            return true;
        }
        return records(stream, startSec - stream.toleranceSec(), endSec + stream.toleranceSec()) > 0;
    }

    /** The topics of the streams that did not cover {@code [startSec, endSec)}, in {@link TelemetryStream} order. */
    public List<String> lacking(long startSec, long endSec) {
        List<String> out = new ArrayList<>();
        for (TelemetryStream s : TelemetryStream.values()) {
            if (!covered(s, startSec, endSec)) {
                out.add(s.topic().topicName());
            }
        }
        return out;
    }
}
