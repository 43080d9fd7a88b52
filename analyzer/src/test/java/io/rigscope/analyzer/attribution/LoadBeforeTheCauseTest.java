package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.config.AnalyzerSettings.AttributionSettings;
import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.RepeatSummary.Cadence;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.decision.SecondStats.SecondLedger;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * The instrument control on k6 + RDS evidence (no generator health, no canary; Performance Insights at 1 s, Enhanced
 * Monitoring at 1 s): load judged against the quietest 10 s of the minute before the episode, a second low only under
 * half of it, the control failing only when half the judged seconds are low; timer waits out of every share; the WAL
 * pool from its init waits in most freezes of a rhythm. Each with the case that must stay capped.
 */
class LoadBeforeTheCauseTest {

    private static final String RUN = "rds-edges";
    private static final long S = 1_796_032_800L;
    /** The episode: three freeze-seconds, [S+70, S+73); the repeat's load began at S. */
    private static final long START = S + 70;
    private static final long END = S + 73;

    private final List<WireRecord> telemetry = new ArrayList<>();
    private Cadence cadence = FreezeRule.cadence(List.of());

    // ---- the instrument control at a slow run's edges ----

    @Test
    void aNoisyBaselineWithOrdinaryLoadAtTheRunsEdgesMeetsTheControl() {
        // the shape: 4.36 (median) before, 3.99 in the second before the run and in its last second
        waits(s -> s < START - 1 ? noisy(s, 4.36) : s == START - 1 || s == END - 1 ? locks(3.99) : locks(4.36));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anySatisfy(ev -> {
            assertThat(ev.what()).isEqualTo("sessions_lowest");
            assertThat(ev.value()).isEqualTo(3.99);
            assertThat(ev.fact()).startsWith("instrument control by server-side load (rig.waits): 4 of the 4 second(s) "
                    + "from one before each slow run to its end above 50.0 % of ");
        });
    }

    @Test
    void loadFallingUnderHalfItsUsualLevelInsideTheRunFailsTheControl() {
        // a stalled generator: the sessions fall to 0.4 from the second before the run and stay there while the
        // requests wait; its backlog lands in the run's last second
        waits(s -> s < START - 1 ? noisy(s, 4.36) : s < END - 1 ? locks(0.4) : locks(6.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.startsWith("control missing: no generator "
                + "health over the episode; active sessions at 0 or under 50.0 % of ") && f.contains(" in 3 of the 4 "
                + "second(s) from one before each slow run to its end, down to 0.4 in second " + (START - 1)));
    }

    // ---- a cause that builds up ----

    @Test
    void aGradualRamWallIsComparedWithTheLoadBeforeItBeganNotWithItself() {
        // 4.2 sessions for the repeat's first 20 s, then reads climb for 49 s to 8.1 (the 10 s before the episode:
        // median 7.6); inside the episode one second samples 3.93
        waits(s -> s < S + 20 ? cpu(4.2) : s < START - 1 ? reads(4.2 + (s - S - 20) * 0.08)
                : s == START ? reads(3.93) : reads(8.1));
        emReads(s -> s < S + 20 ? 5.0 : Math.min(2_900, 60.0 * (s - S - 19)));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.CACHE_RAM);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "sessions_lowest".equals(ev.what()) && ev.value() == 3.93
                && ev.fact().contains("above 50.0 % of 4.2 (median) in the quietest 10 s of the 60 s before the "
                        + "episode (from second " + (S + 9) + ")"));
    }

    @Test
    void aGradualBuildUpDoesNotExcuseLoadThatStoppedArriving() {
        // the same build-up, but inside the episode the sessions fall to 1.0: under half of the 4.2 before it began
        waits(s -> s < S + 20 ? cpu(4.2) : s < START - 1 ? reads(4.2 + (s - S - 20) * 0.08) : reads(1.0));
        emReads(s -> s < S + 20 ? 5.0 : Math.min(2_900, 60.0 * (s - S - 19)));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.CACHE_RAM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.contains("under 50.0 % of 4.2 (median)"));
    }

    // ---- timer waits ----

    @Test
    void aSleepingSessionNeitherDilutesAShareNorCountsAsLoad() {
        // a pg_sleep session beside the hot row: with it counted, 3.0 of 23.36 sessions on locks (13 %)
        waits(s -> s < START - 1 ? with(noisy(s, 4.36), "Timeout:PgSleep", 20.0) : with(locks(4.36), "Timeout:PgSleep",
                20.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "lock_share".equals(ev.what()) && ev.value() > 0.5);
    }

    @Test
    void sessionsAsleepOnATimerAreNoLoadForTheInstrumentControl() {
        // the generator stalled; only a sleeping session stays active: 5.0 in PI, none of it load
        waits(s -> s < START - 2 ? noisy(s, 4.36) : with(Map.of("Lock:transactionid", 0.3), "Timeout:PgSleep", 5.0));

        Episode e = attribute();
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.contains("down to 0.3 in second"));
    }

    // ---- the WAL pool from Performance Insights, no DB sampler ----

    @Test
    void initWaitsInMostFreezesOfARhythmAreTheWalPoolWithoutAFileCount() {
        long[] freezes = {START - 20, START - 15, START - 10, START - 5, START};
        cadence = FreezeRule.cadence(List.of(START - 20, START - 15, START - 10, START - 5, START, START + 1, START + 2));
        waits(s -> walRefill(s, contains(freezes, s) ? 0.4 : 0));
        emWrites();

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.WAL_POOL);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).noneMatch(ev -> "wal_files".equals(ev.what()));
        assertThat(e.evidence()).anyMatch(ev -> "wal_init_freezes".equals(ev.what()) && ev.fact().startsWith("sessions "
                + "on IO:WALInitWrite/IO:WALInitSync in 5 of the 5 freezes on the repeat's 5-s rhythm with session "
                + "samples (±1 s)"));
    }

    @Test
    void anInitWaitInOneFreezeOfTheRhythmStaysMostLikely() {
        cadence = FreezeRule.cadence(List.of(START - 20, START - 15, START - 10, START - 5, START, START + 1, START + 2));
        waits(s -> walRefill(s, s == START ? 0.4 : 0));
        emWrites();

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.WAL_POOL);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence()).noneMatch(ev -> "wal_init_freezes".equals(ev.what()));
    }

    // ---- the scene ----

    private Episode attribute() {
        TelemetryIndex index = new TelemetryIndex();
        telemetry.forEach(index::accept);
        List<SecondStats> seconds = new ArrayList<>();
        for (long sec = START; sec < END; sec++) {
            seconds.add(new SecondStats(sec, 1000, 0, 120, 640_000, 2_000, 600_000, 600_000, true, true,
                    SecondLedger.NONE));
        }
        Episode joined = new Episode(1, START, END, 3, 0, 640.0, Cause.UNATTRIBUTED, Confidence.UNATTRIBUTED,
                List.of(new Evidence("rig.samples", "3 freeze-second(s), worst request 640.0 ms")), List.of(), null);
        return Attribution.standard().attribute(new EpisodeScene(joined, seconds, 2_000, new TreeMap<>(), index, cadence,
                AttributionSettings.defaults(), null, Map.of(), S));
    }

    /** Performance Insights at 1 s from the repeat's start to 3 s after the episode. */
    private void waits(LongFunction<Map<String, Double>> load) {
        for (long sec = S; sec < END + 3; sec++) {
            telemetry.add(new Waits(RUN, 1, "pi@db-1", sec * 1_000_000L, 1, load.apply(sec)));
        }
    }

    /** Ordinary load around {@code median}: ±0.4 in a fixed 7-s pattern whose median is {@code median}. */
    private static Map<String, Double> noisy(long sec, double median) {
        double[] step = {0, -0.37, 0.41, -0.2, 0.25, 0.1, -0.1};
        return cpu(median + step[(int) Math.floorMod(sec, 7L)]);
    }

    private static Map<String, Double> cpu(double total) {
        return Map.of("CPU", round(total - 0.2), "IO:WALSync", 0.2);
    }

    private static Map<String, Double> locks(double total) {
        return Map.of("Lock:transactionid", round(total * 0.7), "CPU", round(total - round(total * 0.7)));
    }

    private static Map<String, Double> reads(double total) {
        return Map.of("IO:DataFileRead", round(total * 0.8), "IO:WALSync", 0.2, "CPU", round(total - round(total * 0.8)
                - 0.2));
    }

    private static Map<String, Double> walRefill(long sec, double init) {
        if (init <= 0) {
            return Map.of("CPU", 1.0, "IO:WALSync", 0.3, "LWLock:WALWrite", 2.0);
        }
        return Map.of("IO:WALInitWrite", init, "IO:WALInitSync", 0.1, "LWLock:WALWrite", 4.0, "CPU", 1.0);
    }

    private static Map<String, Double> with(Map<String, Double> load, String event, double sessions) {
        Map<String, Double> m = new HashMap<>(load);
        m.put(event, sessions);
        return m;
    }

    private static double round(double v) {
        return Math.round(v * 100.0) / 100.0;
    }

    private static boolean contains(long[] secs, long s) {
        for (long x : secs) {
            if (x == s) {
                return true;
            }
        }
        return false;
    }

    /** 1-s Enhanced Monitoring: rdsdev reading {@code readIops(s)}, writing 400 IO/s. */
    private void emReads(LongFunction<Double> readIops) {
        for (long sec = S; sec < END + 3; sec++) {
            double r = readIops.apply(sec);
            telemetry.add(new OsMetrics(RUN, 1, "em@db-1", sec * 1_000_000L, "POSTGRES",
                    new OsMetrics.Cpu(20, 5, 1, 0, 0, 0, 0, 74, 26),
                    new OsMetrics.Memory(16_000_000, 400_000, 9_000_000, 100_000, 80_000, 0, 8_000_000, 4_000_000),
                    new OsMetrics.LoadAverage(1, 1, 1),
                    List.of(new OsMetrics.DiskIO("rdsdev", r, 400, r * 8, 400 * 16, 16, r > 1_000 ? 12 : 1,
                            r > 1_000 ? 4 : 1, 60)), List.of()));
        }
    }

    private void emWrites() {
        emReads(s -> 5.0);
    }
}
