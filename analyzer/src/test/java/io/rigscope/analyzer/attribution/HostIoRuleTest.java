package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.config.AnalyzerSettings.AttributionSettings;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.decision.SecondStats.SecondLedger;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import io.rigscope.analyzer.testing.ProvokedRecordings;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.codec.WireLine;
import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.WireRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code host_io} is judged on the disk's share of the canary's write+fsync (its own run-queue wait taken out),
 * and a saturated CPU caps it. The episode: two freeze-seconds with a 640 ms worst request, the generator healthy.
 */
class HostIoRuleTest {

    private static final String RUN = "cpu-1";
    private static final long S = 1_796_032_800L;
    private static final long START = S + 20;
    private static final long END = S + 22;

    private final List<WireRecord> telemetry = new ArrayList<>();
    private final NavigableMap<Long, double[]> health = new TreeMap<>();

    @Test
    void aBusyCpuWithAHealthyDiskIsNotHostIo() {
        // the report from the field: a 2-core host at vmstat r 10, canary write+fsync ~340 ms of which the disk 20
        measuredCanary(START, 340_000, 322_000, 21_000);
        vmstat(10, 0);

        assertThat(new HostIoRule().examine(scene())).isEmpty();
        Episode e = attribute();
        assertThat(e.cause()).isNotEqualTo(Cause.HOST_IO);
        assertThat(e.secondary()).isNotEqualTo(Cause.HOST_IO);
    }

    @Test
    void aRealDiskStallOnAnIdleCpuIsStillAttributed() {
        measuredCanary(START, 640_000, 900, 639_100);
        vmstat(1, 82);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.HOST_IO);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "fsync_disk_max_ms".equals(ev.what()) && ev.value() == 639.1);
        assertThat(e.evidence()).anyMatch(ev -> "fsync_max_ms".equals(ev.what()) && ev.value() == 640.0);
        assertThat(new HostIoRule().examine(scene()).orElseThrow().evidence().get(0).what())
                .as("the judged fact first: Attribution quotes it when host_io is the secondary cause")
                .isEqualTo("fsync_disk_max_ms");
    }

    @Test
    void aDiskStallOnASaturatedCpuIsNotNamedHostIo() {
        // a stalled disk cannot be told from one whose kernel threads wait for a CPU: the disk is not named
        measuredCanary(START, 640_000, 20_000, 620_000);
        vmstat(9, 12); // 9 runnable on 2 CPUs

        assertThat(new HostIoRule().examine(scene())).isEmpty();
        Episode e = attribute();
        assertThat(e.cause()).isNotEqualTo(Cause.HOST_IO);
        assertThat(e.secondary()).isNotEqualTo(Cause.HOST_IO);
    }

    @Test
    void anIdleNearZeroIsASaturatedCpuEvenWithoutTheHostsCpuCount() {
        legacyCanary(START, 640_000);
        vmstat(3, 2);

        assertThat(new HostIoRule().examine(scene())).isEmpty();
        assertThat(attribute().cause()).isNotEqualTo(Cause.HOST_IO);
    }

    @Test
    void aSlowestWriteThatWasMostlyARunQueueWaitIsNeverAttributed() {
        // 600 ms, 450 of them waiting for a CPU: the 150 ms left for the disk reach the threshold, not the cover
        measuredCanary(START, 600_000, 450_000, 150_000);
        measuredCanary(START + 1, 330_000, 2_000, 328_000); // a write whose disk share does cover
        vmstat(2, 60);

        // 450 ms on the run queue is the CPU saturated around the episode: the disk is not named at all
        assertThat(new HostIoRule().examine(scene())).isEmpty();
    }

    @Test
    void aCanaryThatWaitedLongForACpuBetweenItsWritesIsNotHostIoWithoutVmstat() {
        // calibrate's cpu-starved case: a 102 ms write+fsync with 1.5 ms on the run queue, but the canary's thread
        // waited 380 ms for a CPU in that second (waking up late between writes)
        measuredCanary(START, 640_000, 1_500, 638_500);
        telemetry.removeIf(r -> r instanceof Canary c && c.ts() / 1_000_000L == START + 1);
        telemetry.add(new Canary(RUN, 1, "canary@db-1", (START + 1) * 1_000_000L + 999_000, "/data/.canary", 70,
                4_000, 3_000, 130, Canary.RUNQ_SCHEDSTAT, 10L, 3_990L, 2_990L, 380_000L, 2));

        assertThat(new HostIoRule().examine(scene())).isEmpty();
        assertThat(attribute().cause()).isNotEqualTo(Cause.HOST_IO);
    }

    @Test
    void anOlderCanaryOnAnIdleHostIsStillAttributedAndSaysItsDelayWasNotMeasured() {
        legacyCanary(START, 640_000);
        vmstat(1, 80);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.HOST_IO);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> ev.fact().contains("did not measure its own scheduling delay"));
    }

    @Test
    void anOlderCanaryWithoutVmstatCannotRuleOutTheCpu() {
        legacyCanary(START, 640_000);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.HOST_IO);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence()).anyMatch(ev -> ev.fact().contains("control missing"));
    }

    @Test
    void vmstatOfTheCanarysOwnHostIsTheOneJudged() {
        measuredCanary(START, 640_000, 900, 639_100);
        vmstat(1, 82); // vmstat@db-1, the canary's host
        for (long sec = START - 3; sec < END + 3; sec++) {
            telemetry.add(vmstatRecord("vmstat@gen-1", sec, 14, 0)); // the generator's host is busy
        }

        assertThat(attribute().confidence()).isEqualTo(Confidence.ATTRIBUTED);
    }

    @Test
    void everyRecordedCanarySecondDecodesAndEncodesToTheSameBytes() throws IOException {
        WireCodec codec = new WireCodec();
        int seen = 0;
        for (String file : List.of("/provoked/clean.jsonl.gz", "/provoked/wal-pool.jsonl.gz",
                "/provoked/vacuum-storm-gp3.jsonl.gz", "/provoked/generator-pause.jsonl.gz",
                "/recorded/demo-quick.jsonl.gz", "/recorded/hot-row.jsonl.gz")) {
            try (InputStream raw = Objects.requireNonNull(getClass().getResourceAsStream(file), file);
                 BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(raw),
                         StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (!line.startsWith("{\"topic\":\"rig.canary\"")) {
                        continue;
                    }
                    Decoded d = WireLine.parse(codec, line, file);
                    assertThat(d).as(line).isInstanceOf(Decoded.Ok.class);
                    Canary c = (Canary) ((Decoded.Ok) d).record();
                    assertThat(c.runqSource()).isNull();
                    assertThat(WireLine.of(codec, c).render(codec)).isEqualTo(line);
                    seen++;
                }
            }
        }
        assertThat(seen).as("canary seconds in the recordings").isGreaterThan(100);
    }

    // ---- recordings of calibrate runs with the canary measuring its run-queue wait (provoked/README.md) ----

    @Test
    void theRecordedCpuStarvedRunIsNeverHostIo(@TempDir Path dir) throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "cpu-starved", "cal-cpu-starved-20261201-215726");
        RepeatSummary starved = report.repeats().get(report.repeats().size() - 1);
        assertThat(starved.freezeSeconds()).hasSizeGreaterThanOrEqualTo(10);
        assertThat(starved.episodes()).noneMatch(e -> e.cause() == Cause.HOST_IO)
                .noneMatch(e -> e.secondary() == Cause.HOST_IO);
        assertThat(report.episodes()).noneMatch(e -> e.cause() == Cause.HOST_IO
                && e.confidence() == Confidence.ATTRIBUTED);
    }

    @Test
    void aCanaryThatWaitedHalfASecondForItsCpuOnALoadedHostIsNeverHostIoAttributed(@TempDir Path dir)
            throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "clean-loaded-host", "cal-clean-20261201-220925");
        // the canary's thread waited for its CPU: host_io is named neither as the cause nor beside it
        assertThat(report.episodes()).isNotEmpty()
                .allSatisfy(e -> assertThat(e.cause()).isNotEqualTo(Cause.HOST_IO))
                .allSatisfy(e -> assertThat(e.secondary()).isNotEqualTo(Cause.HOST_IO));
    }

    // ---- the scene ----

    private Episode attribute() {
        return Attribution.standard().attribute(scene());
    }

    private EpisodeScene scene() {
        for (long sec = S; sec < S + 30; sec++) {
            health.put(sec, new double[] {1.0, 0.5, 3.0});
        }
        TelemetryIndex index = new TelemetryIndex();
        telemetry.forEach(index::accept);
        List<SecondStats> seconds = new ArrayList<>();
        for (long sec = START; sec < END; sec++) {
            seconds.add(new SecondStats(sec, 1000, 0, 120, 640_000, 2_000, 600_000, 600_000, true, true,
                    SecondLedger.NONE));
        }
        Episode joined = new Episode(1, START, END, 2, 0, 640.0, Cause.UNATTRIBUTED, Confidence.UNATTRIBUTED,
                List.of(new Evidence("rig.samples", "2 freeze-second(s), worst request 640.0 ms")), List.of(), null);
        return new EpisodeScene(joined, seconds, 2_000, health, index, FreezeRule.cadence(List.of()),
                AttributionSettings.defaults());
    }

    /** A canary measuring its run-queue wait: clean seconds around the episode and one slow second at {@code sec}. */
    private void measuredCanary(long slowSec, long totalUs, long runqUs, long diskUs) {
        if (telemetry.stream().noneMatch(r -> r instanceof Canary)) {
            for (long sec = S; sec < S + 30; sec++) {
                if (sec != slowSec) {
                    telemetry.add(new Canary(RUN, 1, "canary@db-1", sec * 1_000_000L + 999_000, "/data/.canary", 195,
                            900, 400, 0, Canary.RUNQ_SCHEDSTAT, 20L, 880L, 390L, 300L, 2));
                }
            }
        } else {
            telemetry.removeIf(r -> r instanceof Canary c && c.ts() / 1_000_000L == slowSec);
        }
        telemetry.add(new Canary(RUN, 1, "canary@db-1", slowSec * 1_000_000L + 999_000, "/data/.canary", 60, totalUs,
                totalUs, (int) (totalUs / 5_000), Canary.RUNQ_SCHEDSTAT, runqUs, diskUs, diskUs, runqUs + 5_000L, 2));
    }

    /** An older canary (totals only): clean seconds and one slow second. */
    private void legacyCanary(long slowSec, long totalUs) {
        for (long sec = S; sec < S + 30; sec++) {
            long us = sec == slowSec ? totalUs : 900;
            telemetry.add(new Canary(RUN, 1, "canary@db-1", sec * 1_000_000L + 999_000, "/data/.canary", 190, us,
                    Math.min(us, 400), us > 5_000 ? (int) (us / 5_000) : 0));
        }
    }

    /** vmstat of the canary's host, one a second around the episode, the episode's seconds at {@code r}/{@code id}. */
    private void vmstat(long r, int idle) {
        for (long sec = START - 3; sec < END + 3; sec++) {
            boolean inside = sec >= START && sec < END;
            telemetry.add(vmstatRecord("vmstat@db-1", sec, inside ? r : 1, inside ? idle : 70));
        }
    }

    private static Vmstat vmstatRecord(String src, long sec, long r, int idle) {
        return new Vmstat(RUN, 1, src, sec * 1_000_000L, r, 0, 0, 1_000_000, 10_000, 500_000, 0, 0, 0, 800, 2_000,
                4_000, 100 - idle - 2, 2, idle, 0, 0, null);
    }

}
