package io.rigscope.model.wire;

import java.util.Map;

/**
 * {@link Marker.Kind#GAP}: a collector's lost span (docs/collectors.md); the analyzer counts the stream as missing
 * for any episode the span overlaps.
 *
 * @param startUs the span's start, epoch µs, or null when the marker lacks it
 * @param endUs the span's end, epoch µs, or null when the marker lacks it
 * @param reason why, in words, or null
 * @param source the collector's producer id, or null
 * @param topic the stream's topic name, or null
 * @param attempt failed attempts so far (0 on the closing gap, after recovery), or null
 * @param other keys this record does not know, kept in order (see {@link MarkerBody})
 */
public record Gap(Long startUs, Long endUs, String reason, String source, String topic, Integer attempt,
                  Map<String, Object> other) implements MarkerBody {

    public Gap {
        other = BodyFields.copy(other);
    }

    public Gap(long startUs, long endUs, String reason, String source, String topic, int attempt) {
        this(Long.valueOf(startUs), Long.valueOf(endUs), reason, source, topic, Integer.valueOf(attempt), null);
    }

    @Override
    public Marker.Kind kind() {
        return Marker.Kind.GAP;
    }

    static Gap read(BodyFields f) {
        return new Gap(f.whole("start"), f.whole("end"), f.string("reason"), f.string("source"), f.string("topic"),
                f.integer("attempt"), f.rest());
    }

    @Override
    public Map<String, Object> toData() {
        return BodyFields.out().put("start", startUs).put("end", endUs).put("reason", reason).put("source", source)
                .put("topic", topic).put("attempt", attempt).putAll(other).done();
    }
}
