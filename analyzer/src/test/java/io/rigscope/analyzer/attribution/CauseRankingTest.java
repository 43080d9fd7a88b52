package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.model.wire.CloudWatchPoint;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.Waits;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ranking between causes by mechanism (the table of causes), and every rule states its fingerprint.
 */
class CauseRankingTest extends AttributionFixture {

    @Test
    void aCanaryStallDuringAVacuumStormIsTheStormWithTheHostAsSecondary() {
        healthClean();
        canary(START, 380_000);
        p50Lifted = true;
        autovacuumEndingAt(END + 1, 12.0);
        piWaits(Map.of("LWLock:WALWrite", 31.0, "IO:WALSync", 9.0, "CPU", 14.0));
        emDisk(6.0, 410.0, 25.0);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.secondary()).isEqualTo(Cause.HOST_IO);
    }

    @Test
    void aShortGeneratorStallInALongEpisodeRanksAfterAServerCauseAsSure() {
        // a 206-ms pause cannot explain 20 freeze-seconds with a 5-s worst request: the vacuum leads, both most likely
        healthClean();
        health.put(START + 1, new double[] {206.0, 2.0, 300.0});
        p50Lifted = true;
        autovacuumEndingAt(START + 20, 20.0);
        for (long sec = S; sec < S + 50; sec++) {
            telemetry.add(new Waits(RUN, 1, "pi@db-1", sec * 1_000_000L, 1,
                    Map.of("LWLock:WALWrite", 12.0, "IO:WALSync", 2.0, "CPU", 1.0)));
        }

        Episode e = attributeLong(START, START + 20, 5_000.0);
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.secondary()).isEqualTo(Cause.GENERATOR);
    }

    @Test
    void aLoggedVacuumBurstWithoutWaitsIsTheStormWithStorageAsItsMechanism() {
        // k6, vmstat, CloudWatch and the Postgres log: no Enhanced Monitoring, no Performance Insights
        healthClean();
        rdsLog(PgLogEvent.Kind.AUTOVACUUM, END + 1, "rdsdb.public.usage_events", Map.of("wal_fpi", 484_990.0,
                "wal_bytes", 3_826.0 * 1_048_576, "elapsed_s", 30.0), "automatic vacuum of table "
                + "\"rdsdb.public.usage_events\": index scans: 0");
        telemetry.add(new CloudWatchPoint(RUN, 1, "cw@db-1", (START - 30) * 1_000_000L, "AWS/RDS", "DiskQueueDepth",
                Map.of("DBInstanceIdentifier", "db-1"), "Average", 60, 210.0, "Count"));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.secondary()).isEqualTo(Cause.STORAGE);
        assertThat(e.missing()).contains("rig.waits", "rig.os");
        assertThat(e.evidence()).anyMatch(ev -> "wal_fpi".equals(ev.what()) && ev.value() == 484_990.0);
    }

    @Test
    void aVacuumBurstOutranksTheStorageItDrivesEvenWhenStorageIsSurer() {
        cleanControls();
        autovacuumEndingAt(END + 1, 12.0);
        piWaits(Map.of("IO:DataFileSync", 2.0, "IO:DataFileWrite", 3.0, "CPU", 6.0));
        emPerSecond(3_100.0, 0.0, 180.0, 45.0);
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END, null, Map.of("sync_s", 4.2),
                "checkpoint complete: wrote 412000 buffers (78.6%); sync=4.200 s");

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.VACUUM_STORM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
        assertThat(e.secondary()).isEqualTo(Cause.STORAGE);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.startsWith("the disk at its ceiling is "
                + "the vacuum's WAL burst: storage is its mechanism"));
    }

    @Test
    void aCloudWatchPointNeverOutranksPerSecondEvidence() {
        cleanControls();
        piWaits(Map.of("IO:DataFileRead", 14.0, "CPU", 4.0));
        rdsLog(PgLogEvent.Kind.CHECKPOINT_COMPLETE, END, null, Map.of("sync_s", 4.2),
                "checkpoint complete: wrote 412000 buffers (78.6%); sync=4.200 s");
        telemetry.add(new CloudWatchPoint(RUN, 1, "cw@db-1", (START - 30) * 1_000_000L, "AWS/RDS", "DiskQueueDepth",
                Map.of("DBInstanceIdentifier", "db-1"), "Average", 60, 210.0, "Count"));

        Episode e = attribute();
        // cache_ram ranks after storage among equals, but the storage finding stands on one 60-s point
        assertThat(e.cause()).isEqualTo(Cause.CACHE_RAM);
        assertThat(e.secondary()).isEqualTo(Cause.STORAGE);
        assertThat(e.evidence().stream().map(Evidence::fact)).anyMatch(f -> f.startsWith("also storage (most_likely)"));
    }

    @Test
    void everyRuleStatesItsFingerprint() {
        for (CauseRule r : Attribution.standard().rules()) {
            assertThat(r.fingerprint()).as(r.cause().code()).isNotBlank();
        }
        assertThat(Attribution.standard().rules()).extracting(CauseRule::cause).containsExactlyInAnyOrder(
                Cause.GENERATOR, Cause.VACUUM_STORM, Cause.WAL_POOL, Cause.LOCK_CONTENTION, Cause.STORAGE,
                Cause.CACHE_RAM, Cause.HOST_IO, Cause.CONNECTION_POOL, Cause.SERVICE);
    }
}
