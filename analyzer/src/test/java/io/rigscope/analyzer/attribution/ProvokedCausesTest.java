package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.config.AnalyzerSettings.AttributionSettings;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.decision.SecondStats.SecondLedger;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import io.rigscope.analyzer.testing.ProvokedRecordings;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
        Episode e = dominant(ProvokedRecordings.replay(dir, "hot-row", "cal-hot-row-20261130-193347", Set.of()));
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.freezeSeconds()).isGreaterThanOrEqualTo(10);
        assertThat(e.evidence()).anyMatch(ev -> "lock_share".equals(ev.what()) && ev.value() >= 0.5);
    }

    @Test
    void withoutTheWaitsTheHotRowCannotBeNamed() throws IOException {
        Episode e = dominant(ProvokedRecordings.replay(dir, "hot-row", "cal-hot-row-20261130-193347", Set.of(Topic.WAITS)));
        assertThat(e.cause()).isNotEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isNotEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.missing()).contains("rig.waits");
    }

    @Test
    void segmentCreationIsTheWalPool() throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "wal-pool", "cal-wal-pool-20261130-193420", Set.of());
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
    void withoutTheDbSamplerTheInitWaitInMostFreezesOfTheRhythmIsStillTheWalPool() throws IOException {
        // no WAL file count: a backend initialising a segment in 6 of the repeat's 8 freezes on its 4-s rhythm is the
        // mechanism itself; the refill whose own samples caught no init wait stays most likely
        for (Set<Topic> removed : List.of(Set.of(Topic.DB), Set.of(Topic.DB, Topic.CANARY, Topic.HEALTH))) {
            SeriesReport report = ProvokedRecordings.replay(dir, "wal-pool", "cal-wal-pool-20261130-193420", removed);
            RepeatSummary provoked = report.repeats().get(report.repeats().size() - 1);
            assertThat(provoked.episodes()).as(removed.toString()).allSatisfy(e -> {
                assertThat(e.cause()).isEqualTo(Cause.WAL_POOL);
                assertThat(e.evidence()).noneMatch(ev -> "wal_files".equals(ev.what()));
            });
            assertThat(provoked.episodes()).filteredOn(e -> e.confidence() == Confidence.ATTRIBUTED).hasSize(3)
                    .allSatisfy(e -> assertThat(e.evidence()).anyMatch(ev -> "wal_init_freezes".equals(ev.what())
                            && ev.fact().startsWith("sessions on IO:WALInitWrite/IO:WALInitSync in 6 of the 8 "
                                    + "freezes on the repeat's 4-s rhythm")));
            assertThat(provoked.episodes().get(0).confidence()).isEqualTo(Confidence.MOST_LIKELY);
        }
    }

    @Test
    void anAutovacuumWritingAGigabyteOfFullPageImagesIsAVacuumStorm() throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "vacuum-storm", "cal-vacuum-storm-20261130-193946", Set.of());
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
        SeriesReport report = ProvokedRecordings.replay(dir, "vacuum-storm-gp3", "cal-vacuum-storm-20261130-224418", Set.of());
        assertThat(report.episodes()).anySatisfy(e -> {
            assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
            assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
            assertThat(e.freezeSeconds()).isGreaterThanOrEqualTo(5);
            // the canary writes on the host's disk, not on the capped volume: no host_io beside the storm
            assertThat(e.secondary()).isNotEqualTo(Cause.HOST_IO);
        });
        // without the log and the sampler the same storm is never attributed
        SeriesReport blind = ProvokedRecordings.replay(dir, "vacuum-storm-gp3", "cal-vacuum-storm-20261130-224418",
                Set.of(Topic.PGLOG, Topic.DB));
        assertThat(blind.episodes()).noneMatch(e -> e.cause() == Cause.VACUUM_STORM
                && e.confidence() == Confidence.ATTRIBUTED);
    }

    @Test
    void withoutTheDisksViewTheVacuumStormIsOnlyMostLikely() throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "vacuum-storm", "cal-vacuum-storm-20261130-193946", Set.of(Topic.OS));
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
        SeriesReport report = ProvokedRecordings.replay(dir, "vacuum-storm", "cal-vacuum-storm-20261130-193946",
                Set.of(Topic.PGLOG, Topic.DB));
        assertThat(report.episodes()).noneMatch(e -> e.cause() == Cause.VACUUM_STORM
                && e.confidence() == Confidence.ATTRIBUTED);
    }

    @Test
    void parkedGeneratorLoopsAreTheGenerator() throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "generator-pause", "cal-generator-pause-20261130-194447", Set.of());
        RepeatSummary provoked = report.repeats().get(report.repeats().size() - 1);
        Episode e = dominant(provoked.episodes());
        assertThat(e.cause()).isEqualTo(Cause.GENERATOR);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "loop_lag_ms".equals(ev.what()) && ev.value() >= 900);
    }

    @Test
    void withoutTheGeneratorsHealthTheParkedLoopsAreNeverBlamedOnTheServer() throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "generator-pause", "cal-generator-pause-20261130-194447", Set.of(Topic.HEALTH));
        RepeatSummary provoked = report.repeats().get(report.repeats().size() - 1);
        Episode e = dominant(provoked.episodes());
        assertThat(e.confidence()).isNotEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.missing()).contains("rig.health");
    }

    @Test
    void aFrozenSecondStraddlingABucketEdgeIsFoundPerSecond() throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "edge-second", "cal-edge-second-20261130-193744", Set.of());
        RepeatSummary provoked = report.repeats().get(report.repeats().size() - 1);
        assertThat(provoked.freezeSeconds()).hasSize(1);
        assertThat(provoked.windows()).isEmpty();
    }

    // ---- without the canary and the generator's health, as on RDS and with k6: the controls' substitutes ----

    private static final Set<Topic> NO_CANARY_NO_HEALTH = Set.of(Topic.CANARY, Topic.HEALTH);

    @Test
    void withoutCanaryAndHealthSegmentCreationIsStillTheWalPoolFromWaitsDeviceViewAndServerLoad() throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "wal-pool", "cal-wal-pool-20261130-193420", NO_CANARY_NO_HEALTH);
        RepeatSummary provoked = report.repeats().get(report.repeats().size() - 1);
        assertThat(provoked.episodes()).allSatisfy(e -> assertThat(e.cause()).isEqualTo(Cause.WAL_POOL));
        assertThat(provoked.episodes()).filteredOn(e -> e.confidence() == Confidence.ATTRIBUTED).hasSize(4)
                .allSatisfy(e -> {
            assertThat(e.evidence()).anyMatch(ev -> "sessions_lowest".equals(ev.what()));
            assertThat(e.evidence()).anyMatch(ev -> "device_write_iops_lowest".equals(ev.what()));
        });
        // the first refill: no session sample caught IO:WALInitWrite; the file count rose between the two 1-s
        // sampler readings around its freeze-seconds, no checkpoint between them, committers on WAL then
        assertThat(provoked.episodes().get(0).evidence())
                .noneMatch(ev -> "wal_init_sessions".equals(ev.what()))
                .anyMatch(ev -> "wal_files".equals(ev.what()) && ev.fact().contains("1 -> 2 between two 1-s samples"))
                .anyMatch(ev -> "wal_wait_share".equals(ev.what()) && ev.value() >= 0.3);
        // the last refill: one 1-s session sample with no session active in it, among 4 seconds judged whose others
        // held load; one sample's noise is not a stalled generator (the recording's own health shows none), so it is
        // attributed now (it was most likely while every judged second had to reach the median before)
        assertThat(provoked.episodes().get(provoked.episodes().size() - 1).evidence())
                .anyMatch(ev -> "sessions_lowest".equals(ev.what()) && ev.value() == 0.0
                        && ev.fact().contains("3 of the 4 second(s)"));
        neverAWrongCauseAttributed(report, Cause.WAL_POOL);
    }

    @Test
    void withoutCanaryAndHealthTheAutovacuumIsStillAVacuumStorm() throws IOException {
        SeriesReport report = ProvokedRecordings.replay(dir, "vacuum-storm", "cal-vacuum-storm-20261130-193946", NO_CANARY_NO_HEALTH);
        assertThat(report.episodes()).anySatisfy(e -> {
            assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
            assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
            assertThat(e.evidence()).anyMatch(ev -> ev.fact().contains("158706 full-page images"));
            assertThat(e.evidence()).anyMatch(ev -> "sessions_lowest".equals(ev.what()));
            assertThat(e.evidence()).anyMatch(ev -> ev.fact().equals("disk control by the device view (rig.os): in "
                    + "each of its 2 record(s) over the episode with Postgres writing (WAL bytes in rig.db, sync waits "
                    + "in rig.waits) the device completed writes, at least 874.01 write IO/s"));
            assertThat(e.missing()).contains("rig.health", "rig.canary");
        });
        neverAWrongCauseAttributed(report, Cause.VACUUM_STORM);
    }

    @Test
    void withoutCanaryAndHealthTheGp3StormIsComparedWithTheLoadBeforeItBegan() throws IOException {
        // the storm began before the episode: the 10 s just before it held 7.5 sessions, already the storm's; the
        // quietest 10 s of the minute before held 0.5, and no judged second fell under half of that (the lowest 2.0).
        // Compared with the 10 s before, it was most likely; the recording's own health shows no generator stall.
        SeriesReport report = ProvokedRecordings.replay(dir, "vacuum-storm-gp3", "cal-vacuum-storm-20261130-224418", NO_CANARY_NO_HEALTH);
        Episode e = dominant(report);
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "device_write_iops_lowest".equals(ev.what()));
        assertThat(e.evidence()).anyMatch(ev -> "sessions_lowest".equals(ev.what()) && ev.value() == 2.0
                && ev.fact().contains("above 50.0 % of 0.5 (median) in the quietest 10 s of the 60 s before"));
        neverAWrongCauseAttributed(report, Cause.VACUUM_STORM);
    }

    @Test
    void withoutHealthTheHotRowIsStillLockContentionForCommitsKeptComing() throws IOException {
        Episode e = dominant(ProvokedRecordings.replay(dir, "hot-row", "cal-hot-row-20261130-193347", NO_CANARY_NO_HEALTH));
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "sessions_lowest".equals(ev.what())
                || "commits_per_s_lowest".equals(ev.what()));
    }

    @Test
    void withoutHealthTheParkedLoopsAndTheCleanRunAreNeverBlamedOnTheServer() throws IOException {
        // the parked loops' backlog is sent the moment they resume: the sampler interval that straddles the park's
        // end commits as many as ever, so only whole intervals inside the slow seconds may vouch for the load
        for (String[] c : new String[][] {{"generator-pause", "cal-generator-pause-20261130-194447"},
            {"clean", "cal-clean-20261130-193235"}}) {
            SeriesReport report = ProvokedRecordings.replay(dir, c[0], c[1], NO_CANARY_NO_HEALTH);
            assertThat(report.episodes()).as(c[0]).noneMatch(e -> e.confidence() == Confidence.ATTRIBUTED);
        }
    }

    @Test
    void theParkedGeneratorStillFailsTheInstrumentControlByServerSideLoad() throws IOException {
        // no rule's fingerprint fits the parked loops' episode, so the control is never printed in the report: it is
        // checked here on the recording's own records, without rig.health, as any server cause would be checked
        SeriesReport report = ProvokedRecordings.replay(dir, "generator-pause", "cal-generator-pause-20261130-194447",
                Set.of(Topic.HEALTH));
        RepeatSummary provoked = report.repeats().get(report.repeats().size() - 1);
        Episode e = dominant(provoked.episodes());
        TelemetryIndex index = new TelemetryIndex();
        AnalyzerInput.fromWireFile(dir.resolve("generator-pause.jsonl.gz"), new WireCodec(), f -> { })
                .flatMapIterable(batch -> batch).filter(r -> r.topic() != Topic.HEALTH).toIterable()
                .forEach(index::accept);
        List<SecondStats> seconds = new ArrayList<>();
        for (long sec = e.startSec(); sec < e.endSec(); sec++) {
            seconds.add(new SecondStats(sec, 100, 0, 20, 1_000_000, 5_000, 900_000, 900_000,
                    provoked.freezeSeconds().contains(sec), true, SecondLedger.NONE));
        }
        long repeatStartSec = 1_796_067_898L;   // the provoked repeat's REPEAT_START marker
        Control c = InstrumentControl.check(new EpisodeScene(e, seconds, 5_000, new TreeMap<>(), index,
                FreezeRule.cadence(provoked.freezeSeconds()), AttributionSettings.defaults(), null, Map.of(), repeatStartSec));
        assertThat(c.met()).isFalse();
        // its sessions at rest are 0 (1-s samples of sub-millisecond commits), so a second is low only at 0: 3 of the
        // 4 judged seconds were, while the loops were parked
        assertThat(c.fact().fact()).startsWith("control missing: no generator health over the episode; active sessions "
                + "at 0 (and none active in the quietest 10 s of the 60 s before the episode (from second 1796067893)) "
                + "in 3 of the 4 second(s) from one before each slow run to its end, down to 0.0 in second 1796067904");
    }

    @Test
    void theVacuumStormsEpisodesOfARepeatCarryOneLever() throws IOException {
        // without health: a 5-s episode most likely (cost limit 139 from its own evidence) and a 1-s one attributed
        // (311); the surest gives the repeat's one lever
        SeriesReport report = ProvokedRecordings.replay(dir, "vacuum-storm", "cal-vacuum-storm-20261130-193946",
                Set.of(Topic.HEALTH));
        List<Episode> storms = report.episodes().stream().filter(e -> e.cause() == Cause.VACUUM_STORM).toList();
        assertThat(storms).hasSize(2).allSatisfy(e -> {
            assertThat(e.lever().headline()).startsWith("autovacuum_vacuum_cost_limit=311,");
            assertThat(e.lever().why()).startsWith("one lever for vacuum_storm in this repeat, from its episode at "
                    + "second 1796067717 (of 2 with a lever computed");
        });
    }

    private static void neverAWrongCauseAttributed(SeriesReport report, Cause provoked) {
        assertThat(report.episodes()).filteredOn(e -> e.confidence() == Confidence.ATTRIBUTED)
                .allSatisfy(e -> assertThat(e.cause()).isEqualTo(provoked));
    }

    private static Episode dominant(SeriesReport report) {
        return dominant(report.episodes());
    }

    private static Episode dominant(List<Episode> episodes) {
        return episodes.stream().max(Comparator.comparingInt(Episode::freezeSeconds)).orElseThrow();
    }
}
