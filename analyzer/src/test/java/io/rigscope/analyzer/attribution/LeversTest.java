package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.config.AnalyzerSettings.AttributionSettings;
import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.Lever;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import io.rigscope.model.wire.OsMetrics;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The levers with no provoked recording of their cause (storage, cache_ram), on records built with round numbers so
 * the arithmetic of docs/attribution.md can be followed by hand.
 */
class LeversTest {

    private static final long S = 1_796_032_800L;
    private final TelemetryIndex index = new TelemetryIndex();

    @Test
    void storageNeedsWhatTheDeviceDeliveredPlusTheRequestsItLeftWaiting() {
        for (long sec = S - 10; sec < S; sec++) {
            os(sec, 800, 0.9, 0.2, 4_000, 4_000_000);
        }
        os(S, 877, 47.1, 41.3, 8.0, 4_000_000);
        os(S + 1, 900, 30.0, 20.0, 8.0, 4_000_000);
        Lever l = lever(Cause.STORAGE, Map.of());
        // 877 delivered + (41.3 - 0.2) waiting = 918 IO/s; x 8 KB = 7.2 MB/s
        assertThat(l.setting()).isNull();
        assertThat(l.value()).isEqualTo("918 IOPS");
        assertThat(l.action()).isEqualTo("provision the volume for at least 918 IOPS and 7.2 MB/s (it delivered "
                + "877 IO/s, 6.9 MB/s, at queue 41.3)");
        assertThat(l.why()).contains("queue before the episode 0.20 (median of 9 record(s))",
                "needed = delivered + the requests left waiting (queue above its depth before) = 877 + (41.3 - 0.20) "
                        + "= 918 IO/s");
    }

    /**
     * The evidence that made the old rule (queue / the await before) print "312,586 IOPS and 491,483.8 MB/s": the
     * wal-pool experiment's arm A2 (2026-12-02 10:15 UTC), vda at 1 s: before, about 1,000 IO/s of 61 KB at queue
     * 0.35 and await 0.19 ms; then one second of a 1 GB WAL segment's zero-fill, 659.76 IO/s of 1,610.05 KB (1 GB/s),
     * queue 59.21, await 88.97 ms, busy 67 %. The await of 61-KB requests says nothing of 1,610-KB ones: 59.2 /
     * 0.00019 s asked for 312,586 IO/s of 1.6 MB.
     */
    @Test
    void storageOnAWalSegmentsZeroFillBurstAsksForWhatTheBurstNeededNotHundredsOfThousandsOfIops() {
        for (long sec = S - 10; sec < S; sec++) {
            os(sec, 1_030, 0.19, 0.35, 61.0, 4_000_000, 0, 20);
        }
        os(S, 659.76, 88.97, 59.21, 1_610.05, 4_000_000, 0, 67.18);
        os(S + 1, 928.27, 0.75, 1.06, 112.06, 4_000_000, 0, 40.01);
        Lever l = lever(Cause.STORAGE, Map.of());
        // 659.76 + (59.21 - 0.35) = 718.62 IO/s; x 1,610.05 KB = 1,129.9 MB/s
        assertThat(l.value()).isEqualTo("719 IOPS");
        assertThat(l.action()).startsWith("provision the volume for at least 719 IOPS and 1,129.9 MB/s (it delivered "
                + "660 IO/s, 1,037.");
        assertThat(l.why()).contains("busy 67 %", "queue before the episode 0.35 (median of 9 record(s))",
                "the queue came as a burst");
        assertThat(l.action()).doesNotContain("312,586");
    }

    @Test
    void storageWithoutTheDevicesViewBeforeTheEpisodeIsNotComputed() {
        os(S, 877, 47.1, 41.3, 8.0, 4_000_000);
        Lever l = lever(Cause.STORAGE, Map.of());
        assertThat(l.computed()).isFalse();
        assertThat(l.why()).contains("the device's queue before the episode was not measured");
    }

    @Test
    void cacheRamAddsTheEpisodesReadsToTheCachesAndTheMemoryInOtherUse() {
        // RAM 8 GB, page cache 5 GB, free 1 GB: 2 GB in other use; 2 records of 512 MB/s read; shared_buffers 1GB
        os(S, 100, 1.0, 1.0, 8.0, 5L * 1024 * 1024, 512 * 1024);
        os(S + 1, 100, 1.0, 1.0, 8.0, 5L * 1024 * 1024, 512 * 1024);
        Lever l = lever(Cause.CACHE_RAM, Map.of("pg_settings", Map.of("shared_buffers", "1GB")));
        // working set >= 5 + 1 + 1 = 7 GB; needed 2 + 7 = 9 GB
        assertThat(l.value()).isEqualTo("9 GB");
        assertThat(l.action()).startsWith("give the database host at least 9 GB of RAM (it has 8.0 GB)");
    }

    @Test
    void anUnattributedEpisodeGetsNoLever() {
        Episode e = episode(Cause.UNATTRIBUTED);
        assertThat(Attribution.withLever(e, scene(e), new LeverContext(Map.of(), S - 10, S + 10)).lever()).isNull();
    }

    @Test
    void twoSignificantDigitsRoundDown() {
        assertThat(Levers.twoDigitsDown(0.05034)).isEqualTo("0.05");
        assertThat(Levers.twoDigitsDown(0.1749)).isEqualTo("0.17");
        assertThat(LeverContext.pgSize(63L * 256 * 1_048_576)).isEqualTo("16128MB");
        assertThat(LeverContext.pgSize(64L * 256 * 1_048_576)).isEqualTo("16GB");
        assertThat(LeverContext.bytes("80MB")).hasValue(80L * 1_048_576);
        assertThat(LeverContext.seconds("5min")).hasValue(300.0);
        assertThat(LeverContext.seconds("2ms")).hasValue(0.002);
    }

    private Lever lever(Cause cause, Map<String, Object> environment) {
        Episode e = episode(cause);
        return Attribution.withLever(e, scene(e), new LeverContext(environment, S - 10, S + 10)).lever();
    }

    private static Episode episode(Cause cause) {
        return new Episode(1, S, S + 2, 2, 0, 900.0, cause, cause == Cause.UNATTRIBUTED ? Confidence.UNATTRIBUTED
                : Confidence.ATTRIBUTED, List.of(new Evidence("rig.samples", "2 freeze-seconds")), List.of(), null);
    }

    private EpisodeScene scene(Episode e) {
        return new EpisodeScene(e, List.of(), 2_000, new TreeMap<>(), index, FreezeRule.cadence(List.of()),
                AttributionSettings.defaults());
    }

    private void os(long sec, double writeIops, double awaitMs, double queue, double reqKb, long cachedKb) {
        os(sec, writeIops, awaitMs, queue, reqKb, cachedKb, 0);
    }

    private void os(long sec, double writeIops, double awaitMs, double queue, double reqKb, long cachedKb,
                    double readKbPerSec) {
        os(sec, writeIops, awaitMs, queue, reqKb, cachedKb, readKbPerSec, 50);
    }

    private void os(long sec, double writeIops, double awaitMs, double queue, double reqKb, long cachedKb,
                    double readKbPerSec, double util) {
        index.accept(new OsMetrics("s", 1, "os@local", sec * 1_000_000L + 500_000, "LOCAL", null,
                new OsMetrics.Memory(8L * 1024 * 1024, 1024 * 1024, cachedKb, 0, 0, 0, 0, 0), null,
                List.of(new OsMetrics.DiskIO("vda", 0, writeIops, readKbPerSec, writeIops * reqKb, reqKb, queue,
                        awaitMs, util)), List.of()));
    }
}
