package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.api.Decision;
import io.rigscope.analyzer.episode.Cause;
import io.rigscope.analyzer.episode.Confidence;
import io.rigscope.analyzer.episode.Episode;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.repeat.RepeatSummary;
import io.rigscope.analyzer.series.SeriesReport;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules on evidence captured from real provocations on this project's VM (`rigscope calibrate --out-dir`,
 * src/test/resources/provoked/README.md): each case's provoked episode names its cause; with a defining stream
 * removed from the same recording it degrades, never stays attributed. The recordings also hold the host noise of
 * a machine shared with other builds; the tests look at the provoked repeat's dominant episode.
 */
class ProvokedCausesTest {

    @TempDir
    Path dir;

    @Test
    void theHotRowWallIsLockContention() throws IOException {
        Episode e = dominant(replay("hot-row", "cal-hot-row-20261130-193347", Set.of()));
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.freezeSeconds()).isGreaterThanOrEqualTo(10);
        assertThat(e.evidence()).anyMatch(ev -> "lock_share".equals(ev.what()) && ev.value() >= 0.5);
    }

    @Test
    void withoutTheWaitsTheHotRowCannotBeNamed() throws IOException {
        Episode e = dominant(replay("hot-row", "cal-hot-row-20261130-193347", Set.of(Topic.WAITS)));
        assertThat(e.cause()).isNotEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isNotEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.missing()).contains("rig.waits");
    }

    @Test
    void segmentCreationIsTheWalPool() throws IOException {
        SeriesReport report = replay("wal-pool", "cal-wal-pool-20261130-193420", Set.of());
        RepeatSummary provoked = report.repeats().get(report.repeats().size() - 1);
        assertThat(provoked.freezeSecondsByCause()).containsKey("wal_pool");
        assertThat(provoked.episodes()).anySatisfy(e -> {
            assertThat(e.cause()).isEqualTo(Cause.WAL_POOL);
            assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
            assertThat(e.evidence()).anyMatch(ev -> "wal_init_sessions".equals(ev.what()));
            assertThat(e.evidence()).anyMatch(ev -> "wal_files".equals(ev.what()));
        });
        assertThat(provoked.episodes()).noneMatch(e -> e.cause() == Cause.VACUUM_STORM);
    }

    @Test
    void withoutTheDbSamplerTheWalPoolIsNeverAttributed() throws IOException {
        SeriesReport report = replay("wal-pool", "cal-wal-pool-20261130-193420", Set.of(Topic.DB));
        assertThat(report.episodes()).noneMatch(e -> e.cause() == Cause.WAL_POOL
                && e.confidence() == Confidence.ATTRIBUTED);
        assertThat(report.episodes()).anyMatch(e -> e.cause() == Cause.WAL_POOL
                && e.confidence() == Confidence.MOST_LIKELY);
    }

    @Test
    void anAutovacuumWritingAGigabyteOfFullPageImagesIsAVacuumStorm() throws IOException {
        SeriesReport report = replay("vacuum-storm", "cal-vacuum-storm-20261130-193946", Set.of());
        assertThat(report.episodes()).anySatisfy(e -> {
            assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
            assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        });
        // the vacuum, in progress (rig.db) and completed (rig.pglog: 158,706 full-page images, 1,214 MB of WAL)
        assertThat(report.episodes().stream().flatMap(e -> e.evidence().stream()))
                .anyMatch(ev -> "vacuum_heap_blks_scanned".equals(ev.what()))
                .anyMatch(ev -> ev.fact().contains("158706 full-page images"))
                .as("the local disk's view (rig.os) over the episode").anyMatch(ev -> "rig.os".equals(ev.stream())
                        && "write_iops".equals(ev.what()));
    }

    @Test
    void theAutovacuumOnAGp3CappedVolumeIsAVacuumStormAndTheHostsCanaryStaysClean() throws IOException {
        SeriesReport report = replay("vacuum-storm-gp3", "cal-vacuum-storm-20261130-224418", Set.of());
        assertThat(report.episodes()).anySatisfy(e -> {
            assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
            assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
            assertThat(e.freezeSeconds()).isGreaterThanOrEqualTo(5);
            // the canary writes on the host's disk, not on the capped volume: no host_io beside the storm
            assertThat(e.secondary()).isNotEqualTo(Cause.HOST_IO);
        });
        // without the log and the sampler the same storm is never attributed
        SeriesReport blind = replay("vacuum-storm-gp3", "cal-vacuum-storm-20261130-224418",
                Set.of(Topic.PGLOG, Topic.DB));
        assertThat(blind.episodes()).noneMatch(e -> e.cause() == Cause.VACUUM_STORM
                && e.confidence() == Confidence.ATTRIBUTED);
    }

    @Test
    void withoutTheDisksViewTheVacuumStormIsOnlyMostLikely() throws IOException {
        SeriesReport report = replay("vacuum-storm", "cal-vacuum-storm-20261130-193946", Set.of(Topic.OS));
        // most likely now, so the generator's pauses in the same seconds rank first and the vacuum is named beside
        assertThat(report.episodes()).anySatisfy(e -> {
            assertThat(e.secondary()).isEqualTo(Cause.VACUUM_STORM);
            assertThat(e.missing()).contains("rig.os");
        });
        assertThat(report.episodes()).noneMatch(e -> e.cause() == Cause.VACUUM_STORM
                && e.confidence() == Confidence.ATTRIBUTED);
    }

    @Test
    void withoutTheLogAndTheSamplerTheVacuumStormIsNeverAttributed() throws IOException {
        SeriesReport report = replay("vacuum-storm", "cal-vacuum-storm-20261130-193946",
                Set.of(Topic.PGLOG, Topic.DB));
        assertThat(report.episodes()).noneMatch(e -> e.cause() == Cause.VACUUM_STORM
                && e.confidence() == Confidence.ATTRIBUTED);
    }

    @Test
    void parkedGeneratorLoopsAreTheGenerator() throws IOException {
        SeriesReport report = replay("generator-pause", "cal-generator-pause-20261130-194447", Set.of());
        RepeatSummary provoked = report.repeats().get(report.repeats().size() - 1);
        Episode e = dominant(provoked.episodes());
        assertThat(e.cause()).isEqualTo(Cause.GENERATOR);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "loop_lag_ms".equals(ev.what()) && ev.value() >= 900);
    }

    @Test
    void withoutTheGeneratorsHealthTheParkedLoopsAreNeverBlamedOnTheServer() throws IOException {
        SeriesReport report = replay("generator-pause", "cal-generator-pause-20261130-194447", Set.of(Topic.HEALTH));
        RepeatSummary provoked = report.repeats().get(report.repeats().size() - 1);
        Episode e = dominant(provoked.episodes());
        assertThat(e.confidence()).isNotEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.missing()).contains("rig.health");
    }

    @Test
    void aFrozenSecondStraddlingABucketEdgeIsFoundPerSecond() throws IOException {
        SeriesReport report = replay("edge-second", "cal-edge-second-20261130-193744", Set.of());
        RepeatSummary provoked = report.repeats().get(report.repeats().size() - 1);
        assertThat(provoked.freezeSeconds()).hasSize(1);
        assertThat(provoked.windows()).isEmpty();
    }

    @Test
    void explore() throws IOException {
        String[][] cases = {{"wal-pool", "cal-wal-pool-20261130-193420"}, {"vacuum-storm", "cal-vacuum-storm-20261130-193946"},
            {"vacuum-storm-gp3", "cal-vacuum-storm-20261130-224418"}, {"hot-row", "cal-hot-row-20261130-193347"},
            {"generator-pause", "cal-generator-pause-20261130-194447"}, {"clean", "cal-clean-20261130-193235"}};
        for (String[] c : cases) {
            for (Episode e : replay(c[0], c[1], Set.of(Topic.HEALTH, Topic.CANARY)).episodes()) {
                System.out.println("XX " + c[0] + " rep" + e.rep() + " " + e.startSec() + "+" + (e.endSec() - e.startSec()) + " fs=" + e.freezeSeconds() + " " + e.cause().code() + " " + e.confidence().code() + " 2nd=" + e.secondary() + " :: " + e.evidenceLine());
            }
        }
    }

    private static Episode dominant(SeriesReport report) {
        return dominant(report.episodes());
    }

    private static Episode dominant(List<Episode> episodes) {
        return episodes.stream().max(Comparator.comparingInt(Episode::freezeSeconds)).orElseThrow();
    }

    /** The recorded case replayed through the analyzer, without the records of {@code removed} topics. */
    private SeriesReport replay(String name, String series, Set<Topic> removed) throws IOException {
        Path file = dir.resolve(name + ".jsonl.gz");
        try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream("/provoked/" + name + ".jsonl.gz"),
                name)) {
            Files.copy(in, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Decision last = Analyzer.forSeries(series)
                .replay(AnalyzerInput.fromWireFile(file, new WireCodec(), f -> {
                    throw new AssertionError("dead letter in the recording: " + f.deadLetter().reason());
                }).map(batch -> batch.stream().filter(r -> !removed.contains(r.topic())).toList()))
                .blockLast(Duration.ofSeconds(60));
        assertThat(last).isInstanceOf(Decision.Series.class);
        return ((Decision.Series) last).report();
    }
}
