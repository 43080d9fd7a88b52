package io.rigscope.analyzer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.WireExamples;
import io.rigscope.model.wire.WireRecord;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TelemetryIndexTest {

    private static final long SEC = 1_800_000_000L;

    /** The documented canary example moved to second {@code sec}. */
    private static WireRecord canaryAt(long sec) {
        Canary c = (Canary) WireExamples.all().stream().filter(r -> r instanceof Canary).findFirst().orElseThrow();
        return new Canary(c.run(), c.rep(), c.src(), sec * 1_000_000L, c.path(), c.fsyncs(), c.fsyncMaxUs(),
                c.fsyncP99Us(), c.stalledIntervals());
    }

    private static Marker gap(String topic, long fromSec, long toSec) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("start", fromSec * 1_000_000L);
        data.put("end", toSec * 1_000_000L);
        data.put("reason", "Connection refused");
        data.put("source", "canary@h");
        data.put("topic", topic);
        data.put("attempt", 1L);
        return new Marker("s", 1, "canary@h", toSec * 1_000_000L, Marker.Kind.GAP, null, data);
    }

    @Test
    void aStreamWithRecordsAroundAGapIsMissingForASpanTheGapOverlaps() {
        TelemetryIndex index = new TelemetryIndex();
        for (long s = SEC; s < SEC + 30; s++) {
            if (s < SEC + 10 || s > SEC + 12) {
                index.accept(canaryAt(s));
            }
        }
        assertThat(index.lacking(SEC + 10, SEC + 12)).doesNotContain("rig.canary");

        assertThat(index.acceptGap(gap("rig.canary", SEC + 9, SEC + 13))).isTrue();

        assertThat(index.lacking(SEC + 10, SEC + 12)).contains("rig.canary");
        assertThat(index.lacking(SEC + 20, SEC + 25)).doesNotContain("rig.canary");
    }

    @Test
    void aGapMarkerWithoutATelemetryTopicIsIgnored() {
        TelemetryIndex index = new TelemetryIndex();
        assertThat(index.acceptGap(gap("rig.samples", SEC, SEC + 3))).isFalse();
        Marker noTopic = new Marker("s", 1, "x@h", SEC * 1_000_000L, Marker.Kind.GAP, null,
                Map.of("start", SEC * 1_000_000L, "end", (SEC + 3) * 1_000_000L));
        assertThat(index.acceptGap(noTopic)).isFalse();
    }
}
