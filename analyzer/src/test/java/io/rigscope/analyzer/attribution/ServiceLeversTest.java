package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.rigscope.analyzer.config.AnalyzerSettings.AttributionSettings;
import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.Lever;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.decision.SecondStats.SecondLedger;
import io.rigscope.analyzer.second.ServerTimingTrack;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.ProcessMetrics;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.ServerTiming;
import io.rigscope.model.wire.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The {@code service} and {@code connection_pool} levers (docs/attribution.md, Levers) on records built with round
 * numbers, so the arithmetic can be followed by hand: the pool's size by square-root staffing, the connections held
 * outside the database's work, the service's own step, its pause and its CPUs.
 */
class ServiceLeversTest {

    private static final long S = 1_796_032_800L;
    private TelemetryIndex index = new TelemetryIndex();
    private final ServerTimingTrack timing = new ServerTimingTrack();
    private final List<SecondStats> seconds = new ArrayList<>();

    @Test
    void aPoolIsSizedFromTheOfferedRateAndTheDatabasesTimeBySquareRootStaffing() {
        offered(900);
        requests(100, 3.0);
        slowPoolWait();
        waits(Map.of("CPU", 0.5, "Client:ClientRead", 1.5));

        Lever l = lever(Cause.CONNECTION_POOL, pool(), Map.of("pg_settings", Map.of("max_connections", "100")));

        // a = 900/s x 3 ms = 2.7 busy connections; Erlang C at 2.7 erlangs: 7 connections 2.27 %, 8 0.71 %
        assertThat(l.setting()).isNull();
        assertThat(l.value()).isEqualTo("8 connections");
        assertThat(l.action()).isEqualTo("a connection pool of at least 8 connections in the service");
        assertThat(l.why()).contains("offered rate λ = 900 req/s (the generator's scheduled requests",
                "busy connections a = λ x d = 2.70", "(Erlang C, M/M/N) is at most 1 %: 8 (0.71 %; 7 would give 2.27 %)",
                "rig.waits: 2.0 active session(s) at most, 1.5 of them waiting on the client",
                "max_connections 100 has room for it");
    }

    @Test
    void aPoolThatWouldNotFitUnderMaxConnectionsSaysSo() {
        offered(900);
        requests(100, 3.0);
        slowPoolWait();
        waits(Map.of("CPU", 0.5, "Client:ClientRead", 1.5));

        Lever l = lever(Cause.CONNECTION_POOL, pool(), Map.of("pg_settings", Map.of("max_connections", "8")));

        assertThat(l.value()).isEqualTo("8 connections");
        assertThat(l.why()).contains("max_connections 8 leaves 5 (3 reserved): raise it with the pool, or put a "
                + "transaction pooler in front");
    }

    @Test
    void connectionsWaitingOnTheClientBeyondEvenTheSlowestDatabaseWorkAreHeldOutsideItNotTooFew() {
        offered(100);
        requests(100, 2.0);
        slowPoolWait();
        // 4 sessions idle in a transaction, where 100/s x 2 ms keeps 0.2 busy
        waits(Map.of("CPU", 0.2, "Client:ClientRead", 4.0));

        Lever l = lever(Cause.CONNECTION_POOL, pool(), Map.of());

        assertThat(l.action()).startsWith("hold a pooled connection only for the database's work");
        assertThat(l.value()).isEqualTo("4.0 sessions idle in a transaction");
        assertThat(l.why()).contains("which no pool size cures");
    }

    @Test
    void erlangCMatchesItsTextbookValues() {
        // one server: the chance to wait is its utilisation
        assertThat(ConnectionPoolLever.erlangC(1, 0.5)).isCloseTo(0.5, within(1e-12));
        // two servers at 1 erlang: C = 1/3
        assertThat(ConnectionPoolLever.erlangC(2, 1.0)).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(ConnectionPoolLever.poolFor(2.7)).isEqualTo(8);
        assertThat(ConnectionPoolLever.poolFor(0.01)).isEqualTo(1);
        assertThat(ConnectionPoolLever.poolFor(100)).isGreaterThan(100).isLessThan(130);
    }

    @Test
    void withoutTheDatabasesTimeThePoolIsNotSized() {
        offered(900);
        waits(Map.of("CPU", 0.5, "Client:ClientRead", 1.5));

        Lever l = lever(Cause.CONNECTION_POOL, pool(), Map.of());

        assertThat(l.computed()).isFalse();
        assertThat(l.why()).contains("gave no `db` time over the repeat");
    }

    @Test
    void theServicesOwnStepThatTookTheMostIsNamed() {
        offered(200);
        requests(50, 2.0);
        record(S, 640, new String[] {"pool", "db", "render", "app"}, new double[] {0.1, 2.0, 5.0, 630.0});

        Lever l = lever(Cause.SERVICE, measured("server-timing", "service_own_ms", 635.0), Map.of());

        assertThat(l.value()).isEqualTo("app 630.0 ms");
        assertThat(l.action()).startsWith("make the service's own `app` step faster");
        assertThat(l.why()).contains("pool 0.1 ms, db 2.0 ms, render 5.0 ms, app 630.0 ms");
    }

    @Test
    void aPauseNamesWhatTheProcessRecordSaysStoppedIt() {
        process(S, 0, 0, 2, 30, 0, 700.0, 720.0);
        Lever gc = lever(Cause.SERVICE, measured("rig.process", "pause_ms", 720.0), Map.of());
        assertThat(gc.value()).isEqualTo("GC 700.0 ms");
        assertThat(gc.action()).startsWith("shorten the service's GC pauses");

        index = new TelemetryIndex();
        process(S, 800, 0, 2, 30, 0, 0.0, 0.5);
        Lever stopped = lever(Cause.SERVICE, measured("rig.process", "pause_ms", 800.0), Map.of());
        assertThat(stopped.value()).isEqualTo("stopped 800.0 ms");
        assertThat(stopped.action()).startsWith("find what stops the service's process");

        index = new TelemetryIndex();
        process(S, 0, 0, 2, 30, 0, 10.0, 400.0);
        Lever safepoints = lever(Cause.SERVICE, measured("rig.process", "pause_ms", 400.0), Map.of());
        assertThat(safepoints.value()).isEqualTo("safepoints 390.0 ms besides GC");
    }

    @Test
    void aServiceUsingItsCpusNeedsMoreAndOneCappedBelowThemNeedsItsLimitLifted() {
        // the longest thread's wait (600 ms) a fifth of the process's (3,000 ms, summed over threads): many threads
        process(S, 0, 600, 2, 195, 3000, 0.0, 0.5);
        Lever more = lever(Cause.SERVICE, measured("rig.process", "runq_wait_ms", 600.0), Map.of());
        // ceil(195 / 100 / 0.7) = 3, at least one more than its 2
        assertThat(more.value()).isEqualTo("3 CPUs");
        assertThat(more.action()).isEqualTo("give the service 3 CPUs (it had 2)");

        index = new TelemetryIndex();
        process(S, 0, 600, 2, 40, 3000, 0.0, 0.5);
        Lever capped = lever(Cause.SERVICE, measured("rig.process", "runq_wait_ms", 600.0), Map.of());
        assertThat(capped.action()).startsWith("look for a CPU limit on the service")
                .contains("40 % of one core on 2 CPU(s)");
        assertThat(capped.value()).isNull();
    }

    @Test
    void aSingleThreadedServiceAtItsOneCoreNeedsMoreWorkersNotMoreCpus() {
        // one thread did all the waiting (580 of 600 ms): a single-threaded server at 95 % of the one core it can use
        process(S, 0, 580, 2, 95, 600, 0.0, 0.5);
        Lever l = lever(Cause.SERVICE, measured("rig.process", "runq_wait_ms", 580.0), Map.of());
        assertThat(l.action()).startsWith("run more workers of the service");
        assertThat(l.why()).contains("single-threaded, judged by the one CPU it can use");
    }

    @Test
    void aServiceStarvedByTheHostGetsTheHostsLeverNotACpuLimit() {
        Lever l = lever(Cause.SERVICE, measured("rig.process", ServiceRule.STARVED_BY_HOST, 650.0), Map.of());
        assertThat(l.action()).startsWith("free CPUs for the service on its host").doesNotContain("cpu.max");
    }

    @Test
    void aServiceNamedByExclusionGetsNoLever() {
        Lever l = lever(Cause.SERVICE, new Evidence("attribution", "by exclusion: ..."), Map.of());
        assertThat(l.computed()).isFalse();
        assertThat(l.why()).startsWith("named by exclusion");
    }

    // ---- fixtures ----

    private Lever lever(Cause cause, Evidence defining, Map<String, Object> environment) {
        Episode e = new Episode(1, S, S + 2, 2, 0, 640.0, cause, Confidence.ATTRIBUTED, List.of(defining), List.of(),
                null);
        EpisodeScene scene = new EpisodeScene(e, seconds, 2_000, new TreeMap<>(), index, FreezeRule.cadence(List.of()),
                AttributionSettings.defaults(), timing, environment);
        return Attribution.withLever(e, scene, new LeverContext(environment, S - 10, S + 10)).lever();
    }

    private static Evidence pool() {
        return measured("server-timing", "pool_ms", 600.0);
    }

    private static Evidence measured(String stream, String what, double value) {
        return Evidence.measured(stream, S * 1_000_000L, what, value, "ms", what + " " + value);
    }

    /** The episode's two seconds, the generator scheduling {@code rate} a second. */
    private void offered(long rate) {
        for (long sec = S; sec < S + 2; sec++) {
            seconds.add(new SecondStats(sec, rate / 2, 0, 30, 640_000, 3_000, 600_000, 600_000, true, true,
                    new SecondLedger(rate, rate, 0, rate / 2, 0)));
        }
    }

    /** {@code n} ordinary requests a second for 10 s before the episode, each {@code dbMs} in the database. */
    private void requests(int n, double dbMs) {
        for (long sec = S - 10; sec < S; sec++) {
            for (int i = 0; i < n; i++) {
                record(sec, dbMs + 0.4, new String[] {"pool", "db", "app"}, new double[] {0.05, dbMs, 0.3});
            }
        }
    }

    private void slowPoolWait() {
        record(S, 640, new String[] {"pool", "db", "app"}, new double[] {600.0, 3.0, 0.5});
    }

    private void record(long sec, double serviceMs, String[] names, double[] ms) {
        long[] us = new long[ms.length];
        for (int i = 0; i < ms.length; i++) {
            us[i] = Math.round(ms[i] * 1000);
        }
        long t2 = sec * 1_000_000L + 900_000;
        long t1 = t2 - Math.round(serviceMs * 1000);
        timing.record(new Sample("ingest", t1, t1, t2, 201, ErrorKind.NONE, 10, 10, 900, ServerTiming.of(names, us)));
    }

    private void waits(Map<String, Double> load) {
        for (long sec = S - 5; sec < S + 5; sec++) {
            index.accept(new Waits("s", 1, "waits@local", sec * 1_000_000L, 1, load));
        }
    }

    /** rig.process every second around the episode, the one ending in {@code sec + 1} with these figures. */
    private void process(long sec, double stoppedMs, double runqMaxMs, int cpus, double cpuPct, double runqMs,
                         double gcMs, double safepointMs) {
        for (long s = sec - 3; s <= sec + 3; s++) {
            boolean at = s == sec;
            index.accept(new ProcessMetrics("s", 1, "process@local:4242", (s + 1) * 1_000_000L, 4242, "java", 1000,
                    at ? cpuPct : 20, cpus, 900_000_000L, 60, at ? runqMs : 1.0, at ? stoppedMs : 0, 100,
                    at ? gcMs : 0.0, at ? safepointMs : 0.0, at ? runqMaxMs : 0.5));
        }
    }
}
