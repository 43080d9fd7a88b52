package io.rigscope.collectors.canary;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.WireRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskCanaryTest {

    private static final long MS = 1_000_000L;

    @Test
    void aSecondWithOneLongFsyncCountsTheIntervalsWithoutACompletionAsStalled() {
        var rec = new CanaryRecorder(5 * MS, 0);
        for (int i = 0; i < 100; i++) { // 0-500 ms: one completion per 5 ms interval
            rec.completed(i * 5 * MS, i * 5 * MS + MS / 10);
        }
        rec.started(500 * MS);
        rec.completed(500 * MS, 800 * MS); // a 300 ms fsync: intervals 100..159 see nothing
        for (int i = 160; i < 200; i++) {
            rec.completed(i * 5 * MS, i * 5 * MS + MS / 10);
        }
        CanaryRecorder.Second s = rec.takeSecond(1000 * MS);

        assertThat(s.fsyncs()).isEqualTo(141);
        assertThat(s.maxUs()).isEqualTo(300_000);
        assertThat(s.p99Us()).isEqualTo(100); // the 140th of 141 sorted latencies
        assertThat(s.stalledIntervals()).isEqualTo(60);
    }

    @Test
    void aWriteStillPendingAtTheEndOfTheSecondCountsWithItsAge() {
        var rec = new CanaryRecorder(5 * MS, 0);
        rec.completed(0, MS / 10);
        rec.started(5 * MS);
        CanaryRecorder.Second s = rec.takeSecond(1000 * MS);

        assertThat(s.maxUs()).isEqualTo(995_000);
        assertThat(s.stalledIntervals()).isEqualTo(199);
        assertThat(rec.takeSecond(2000 * MS).maxUs()).isEqualTo(1_995_000);
    }

    @Test
    void theRealDiskTakesAboutTwoHundredSyncedWritesPerSecondAndTheFileIsRemoved(@TempDir Path dir) {
        var canary = new DiskCanary(DiskCanary.Config.in(dir), CollectorContext.of("s1"));
        List<WireRecord> out = canary.records().take(2).collectList().block(Duration.ofSeconds(10));

        assertThat(out).hasSize(2).allSatisfy(r -> assertThat(r).isInstanceOf(Canary.class));
        Canary second = (Canary) out.get(1);
        assertThat(second.fsyncs()).isBetween(20L, 201L); // 200 at 5 ms; the shared machine may slow it
        assertThat(second.fsyncMaxUs()).isPositive().isGreaterThanOrEqualTo(second.fsyncP99Us());
        assertThat(second.path()).isEqualTo(canary.file().toString());
        assertThat(canary.file()).doesNotExist();
    }
}
