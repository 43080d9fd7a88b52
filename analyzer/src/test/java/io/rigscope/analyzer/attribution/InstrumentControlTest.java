package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.model.wire.PgLogEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The instrument control: without the generator's health, or what stands in for it (sessions, commits, the generator
 * host's vmstat), a server cause is only most likely.
 */
class InstrumentControlTest extends AttributionFixture {

    @Test
    void withoutTheGeneratorsHealthOrAnyLoadBeforeTheEpisodeAServerCauseIsOnlyMostLikely() {
        canaryClean();
        // the waits start with the episode: nothing to compare the sessions with, so they cannot stand in for it
        piWaitsFrom(START - 1, Map.of("Lock:transactionid", 52.0, "CPU", 3.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
    }

    @Test
    void sessionsPilingUpAboveTheirLevelBeforeStandInForTheGeneratorsHealth() {
        canaryClean();
        piWaitsFrom(START - 12, Map.of("CPU", 2.0));
        piWaitsFrom(START - 1, Map.of("Lock:transactionid", 52.0, "LWLock:LockManager", 6.0, "CPU", 3.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anySatisfy(ev -> {
            assertThat(ev.stream()).isEqualTo("rig.waits");
            assertThat(ev.what()).isEqualTo("sessions_lowest");
            assertThat(ev.fact()).isEqualTo("instrument control by server-side load (rig.waits): 3 of the 3 second(s) "
                    + "from one before each slow run to its end above 50.0 % of 2.0 (median) in the quietest 10 s "
                    + "of the 60 s before the episode (from second " + (START - 12) + "), the lowest 61.0: load kept "
                    + "arriving");
        });
    }

    @Test
    void theServerIdleThroughAGeneratorStallNeverLiftsTheCap() {
        // k6 evidence: no rig.health; the sessions fall to 0 while the generator is stalled. A deep queue at a
        // checkpoint fits storage, but the load may not have been arriving: the DB is never blamed with confidence
        canaryClean();
        piWaitsFrom(START - 12, Map.of("CPU", 4.0, "IO:DataFileSync", 1.0));
        piWaitsFrom(START - 1, Map.of());
        emPerSecond(3_100.0, 0.0, 180.0, 45.0);
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END, null, Map.of("sync_s", 4.2),
                "checkpoint complete: wrote 412000 buffers (78.6%); sync=4.200 s");

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.STORAGE);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.startsWith("control missing: no "
                + "generator health over the episode; active sessions at 0 or under 50.0 % of 5.0 (median) in the "
                + "quietest 10 s of the 60 s before the episode (from second " + (START - 12) + ") in 3 of the 3 "
                + "second(s) from one before each slow run to its end, down to 0.0 in second " + (START - 1)
                + " (rig.waits): load may have stopped arriving"));
    }

    @Test
    void commitsContinuingThroughTheEpisodeStandInForTheGeneratorsHealth() {
        canaryClean();
        emPerSecond(3_100.0, 0.0, 180.0, 45.0);
        dbPerSecond(2_000_000, 400, 0);
        dbPerSecond(2_000_000, 150, START);
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END, null, Map.of("sync_s", 4.2),
                "checkpoint complete: wrote 412000 buffers (78.6%); sync=4.200 s");

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.STORAGE);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "commits_per_s_lowest".equals(ev.what()) && ev.value() == 150.0
                && ev.fact().startsWith("instrument control by commits continuing (rig.db)"));
    }

    @Test
    void commitsStoppingThroughTheEpisodeNeverLiftTheCap() {
        canaryClean();
        emPerSecond(3_100.0, 0.0, 180.0, 45.0);
        dbPerSecond(2_000_000, 400, 0);
        dbPerSecond(0, 0, START);
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END, null, Map.of("sync_s", 4.2),
                "checkpoint complete: wrote 412000 buffers (78.6%); sync=4.200 s");

        Episode e = attribute();
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.contains("commits fell to 0.0/s from "
                + "400.0/s before it (rig.db)"));
    }

    @Test
    void theGeneratorHostsVmstatStandsInForTheGeneratorsHealth() {
        canaryClean();
        settings = settings.withGeneratorHosts(List.of("load-1"));
        vmstatPerSecond("vmstat@load-1", 62, 0);
        piWaitsFrom(START - 1, Map.of("Lock:transactionid", 52.0, "CPU", 3.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "generator_host_idle_pct".equals(ev.what()) && ev.fact().startsWith(
                "instrument control by the generator host's vmstat (vmstat@load-1): CPU idle at least 62 %, steal 0"));
    }

    @Test
    void anotherHostsVmstatNeverLiftsTheCapAndAGeneratorHostWithStealNamesTheGenerator() {
        canaryClean();
        settings = settings.withGeneratorHosts(List.of("load-1"));
        vmstatPerSecond("vmstat@db-1", 62, 0);
        piWaitsFrom(START - 1, Map.of("Lock:transactionid", 52.0, "CPU", 3.0));
        assertThat(attribute().confidence()).isEqualTo(Confidence.MOST_LIKELY);

        // steal on the generator's host: the instrument may have been starved; it ranks first, the locks beside it
        vmstatPerSecond("vmstat@load-1", 62, 7);
        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.GENERATOR);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.secondary()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.equals("the generator host "
                + "vmstat@load-1 had CPU idle 62 % (us 31, sy 0, steal 7 %, run queue 1), within ±2 s: the instrument "
                + "may have been starved"));
    }
}
