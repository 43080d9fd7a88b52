package io.rigscope.importers.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link PerformanceInsightsFile}: GetResourceMetrics responses as an evidence directory holds them. */
class PerformanceInsightsFileTest {

    @Test
    void aSampledSecondWithNoActiveSessionIsZeroLoadAndAnUnsampledOneIsAbsent(@TempDir Path dir) throws IOException {
        // the response's shape for a quiet window: only the ungrouped total, 0.0 where sampled, no Value where not
        Path file = dir.resolve("pi.json");
        Files.writeString(file, """
                {"AlignedStartTime":1796018400,"AlignedEndTime":1796018404,"Identifier":"db-ABCDEFGHIJKLMNOPQRSTUVWXY1",
                 "MetricList":[
                  {"Key":{"Metric":"db.load.avg"},"DataPoints":[{"Timestamp":1796018400,"Value":0.0},
                   {"Timestamp":1796018401,"Value":2.0},{"Timestamp":1796018402},{"Timestamp":1796018403,"Value":0.0}]},
                  {"Key":{"Metric":"db.load.avg","Dimensions":{"db.wait_event.name":"WALWrite","db.wait_event.type":"LWLock"}},
                   "DataPoints":[{"Timestamp":1796018400,"Value":0.0},{"Timestamp":1796018401,"Value":2.0},
                   {"Timestamp":1796018402},{"Timestamp":1796018403,"Value":0.0}]}
                 ]}
                """);
        Tally tally = new Tally(file, EvidenceKind.PERFORMANCE_INSIGHTS);
        List<WireRecord> out = new ArrayList<>();
        new PerformanceInsightsFile("s").read(file, tally, out::add);

        assertThat(out).extracting(WireRecord::ts).containsExactly(1796018400_000000L, 1796018401_000000L,
                1796018403_000000L);
        assertThat(((Waits) out.get(0)).totalActive()).isZero();
        assertThat(((Waits) out.get(1)).load()).containsEntry("LWLock:WALWrite", 2.0);
        assertThat(((Waits) out.get(2)).totalActive()).isZero();
        assertThat(tally.records).isEqualTo(3);
        assertThat(tally.bad).isZero();
    }
}
