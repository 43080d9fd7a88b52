package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.model.wire.Canary;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The host-I/O rule on the disk canary's evidence (HostIoRuleTest has the CPU's side).
 */
class HostIoCanaryTest extends AttributionFixture {

    @Test
    void aDiskCanaryStallAloneIsAHostIoStall() {
        healthClean();
        // a canary that measured its own run-queue wait (1 ms): the disk's share is 639 ms (HostIoRuleTest has
        // the CPU's side; an older canary without vmstat is only most_likely)
        telemetry.add(new Canary(RUN, 1, "canary@app-1", START * 1_000_000L + 999_000, "/rdsdbdata/canary", 60,
                640_000, 640_000, 128, Canary.RUNQ_SCHEDSTAT, 1_000L, 639_000L, 639_000L, 1_500L, 2));
        piWaits(Map.of("IO:WALSync", 3.0, "CPU", 1.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.HOST_IO);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> "fsync_max_ms".equals(ev.what()) && ev.value() == 640.0);
    }
}
