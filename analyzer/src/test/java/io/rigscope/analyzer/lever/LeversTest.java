package io.rigscope.analyzer.lever;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.attribution.EpisodeScene;
import io.rigscope.analyzer.config.AttributionSettings;
import io.rigscope.analyzer.episode.Cause;
import io.rigscope.analyzer.episode.Confidence;
import io.rigscope.analyzer.episode.Episode;
import io.rigscope.analyzer.episode.Evidence;
import io.rigscope.analyzer.episode.Lever;
import io.rigscope.analyzer.freeze.Cadence;
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
    void storageNeedsTheQueueServedAtTheDevicesOwnAwaitBeforeTheEpisode() {
        for (long sec = S - 10; sec < S; sec++) {
            os(sec, 800, 0.9, 0.2, 4_000, 4_000_000);
        }
        os(S, 877, 47.1, 41.3, 8.0, 4_000_000);
        os(S + 1, 900, 30.0, 20.0, 8.0, 4_000_000);
        Lever l = lever(Cause.STORAGE, Map.of());
        // 41.3 queued / 0.0009 s each = 45,889 IO/s; x 8 KB = 358.5 MB/s
        assertThat(l.setting()).isNull();
        assertThat(l.value()).isEqualTo("45,889 IOPS");
        assertThat(l.action()).isEqualTo("provision the volume for at least 45,889 IOPS and 358.5 MB/s (it delivered "
                + "877 IO/s at queue 41.3)");
        assertThat(l.why()).contains("await before the episode 0.90 ms (median of 9 record(s))",
                "needed = queue / await before = 41.3 / 0.00090 s = 45,889 IO/s");
    }

    @Test
    void storageWithoutTheDevicesViewBeforeTheEpisodeIsNotComputed() {
        os(S, 877, 47.1, 41.3, 8.0, 4_000_000);
        Lever l = lever(Cause.STORAGE, Map.of());
        assertThat(l.computed()).isFalse();
        assertThat(l.why()).contains("the device's await before the episode was not measured");
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
        assertThat(Levers.attach(e, scene(e), new LeverContext(Map.of(), S - 10, S + 10)).lever()).isNull();
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
        return Levers.attach(e, scene(e), new LeverContext(environment, S - 10, S + 10)).lever();
    }

    private static Episode episode(Cause cause) {
        return new Episode(1, S, S + 2, 2, 0, 900.0, cause, cause == Cause.UNATTRIBUTED ? Confidence.UNATTRIBUTED
                : Confidence.ATTRIBUTED, List.of(new Evidence("rig.samples", "2 freeze-seconds")), List.of(), null);
    }

    private EpisodeScene scene(Episode e) {
        return new EpisodeScene(e, List.of(), 2_000, new TreeMap<>(), index, Cadence.of(List.of()),
                AttributionSettings.defaults());
    }

    private void os(long sec, double writeIops, double awaitMs, double queue, double reqKb, long cachedKb) {
        os(sec, writeIops, awaitMs, queue, reqKb, cachedKb, 0);
    }

    private void os(long sec, double writeIops, double awaitMs, double queue, double reqKb, long cachedKb,
                    double readKbPerSec) {
        index.accept(new OsMetrics("s", 1, "os@local", sec * 1_000_000L + 500_000, "LOCAL", null,
                new OsMetrics.Memory(8L * 1024 * 1024, 1024 * 1024, cachedKb, 0, 0, 0, 0, 0), null,
                List.of(new OsMetrics.DiskIO("vda", 0, writeIops, readKbPerSec, writeIops * reqKb, reqKb, queue,
                        awaitMs, 50)), List.of()));
    }
}
