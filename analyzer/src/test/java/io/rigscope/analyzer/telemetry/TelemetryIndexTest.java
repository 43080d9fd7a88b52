package io.rigscope.analyzer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.Gap;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.WireExamples;
import io.rigscope.model.wire.WireRecord;
import java.util.List;
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
        return new Marker("s", 1, "canary@h", toSec * 1_000_000L, null,
                new Gap(fromSec * 1_000_000L, toSec * 1_000_000L, "Connection refused", "canary@h", topic, 1));
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
    void aStreamThatStoppedPublishingIsSilentSinceTheSecondAfterItsLastRecord() {
        TelemetryIndex index = new TelemetryIndex();
        for (long s = SEC; s <= SEC + 10; s++) {
            index.accept(canaryAt(s)); // the canary collector died after second SEC+10
        }
        // an episode at SEC+20..SEC+23 lacks the canary, which fell silent at SEC+11
        assertThat(index.lacking(SEC + 20, SEC + 23)).contains("rig.canary");
        assertThat(index.silentSince(List.of("rig.canary", "rig.waits"), SEC + 23))
                .containsExactly(Map.entry("rig.canary", SEC + 11));
        // over the series: silent more than its tolerance plus the grace before the last second of load
        assertThat(index.silentBefore(SEC + 30, 5)).containsExactly(Map.entry("rig.canary", SEC + 11));
        assertThat(index.silentBefore(SEC + 12, 5)).as("it stopped with the load").isEmpty();
    }

    @Test
    void aGapMarkerWithoutATelemetryTopicIsIgnored() {
        TelemetryIndex index = new TelemetryIndex();
        assertThat(index.acceptGap(gap("rig.samples", SEC, SEC + 3))).isFalse();
        Marker noTopic = new Marker("s", 1, "x@h", SEC * 1_000_000L, null,
                new Gap(SEC * 1_000_000L, (SEC + 3) * 1_000_000L, null, null, null, null, null));
        assertThat(index.acceptGap(noTopic)).isFalse();
    }

    private static WireRecord waitsAt(long sec) {
        return new io.rigscope.model.wire.Waits("s", 1, "pi@db-1", sec * 1_000_000L, 1, Map.of("CPU", 1.0));
    }

    @Test
    void aStreamThatStopsPartWayThroughALongSpanDoesNotCoverIt() {
        TelemetryIndex index = new TelemetryIndex();
        for (long s = SEC; s < SEC + 4; s++) {
            index.accept(waitsAt(s));
        }
        index.accept(waitsAt(SEC + 40));
        // records in the first seconds of [SEC, SEC + 20) and none after: not covered (it was, within ±2 s, before)
        assertThat(index.covered(TelemetryStream.WAITS, SEC, SEC + 20)).isFalse();
        assertThat(index.covered(TelemetryStream.WAITS, SEC, SEC + 4)).isTrue();
        // a hole of 36 s inside the span
        assertThat(index.covered(TelemetryStream.WAITS, SEC + 2, SEC + 41)).isFalse();
    }

    @Test
    void aStreamThatArrivesLateIsWaitedForByItsOwnLatenessBeforeItCountsAsSilent() {
        TelemetryIndex index = new TelemetryIndex();
        // the canary at real time to SEC + 20; PI delivers SEC..SEC+9 when the canary is at SEC + 20: 20 s late
        for (long s = SEC; s <= SEC + 20; s++) {
            index.accept(canaryAt(s));
        }
        for (long s = SEC; s < SEC + 10; s++) {
            index.accept(waitsAt(s));
        }
        assertThat(index.lateUs(TelemetryStream.WAITS)).isEqualTo(20_000_000L);
        assertThat(index.lateUs(TelemetryStream.CANARY)).isZero();
        // a repeat ending at SEC + 12: PI's due is SEC + 14; the canary passes due + grace 5 s at SEC + 19,
        // but PI has come 20 s late: it is waited for until SEC + 39
        for (long s = SEC + 21; s < SEC + 39; s++) {
            index.accept(canaryAt(s));
            assertThat(index.settled(SEC + 12, 5)).as("at %d", s - SEC).isFalse();
        }
        index.accept(canaryAt(SEC + 39));
        assertThat(index.settled(SEC + 12, 5)).isTrue();
        // and once PI delivers past the repeat's end it is settled at once
        TelemetryIndex delivered = new TelemetryIndex();
        for (long s = SEC; s <= SEC + 20; s++) {
            delivered.accept(canaryAt(s));
        }
        for (long s = SEC; s <= SEC + 16; s++) {
            delivered.accept(waitsAt(s));
        }
        assertThat(delivered.settled(SEC + 12, 5)).isTrue();
    }

    @Test
    void latenessIsCappedSoAStreamThatFellSilentForGoodIsNotWaitedForForever() {
        TelemetryIndex index = new TelemetryIndex();
        index.accept(canaryAt(SEC + 500));
        index.accept(waitsAt(SEC));
        assertThat(index.lateUs(TelemetryStream.WAITS)).isEqualTo(TelemetryIndex.LATE_CAP_SEC * 1_000_000L);
    }
}
