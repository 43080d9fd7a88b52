package io.rigscope.benchmarks.generator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The host's timer jitter probe, which --vs-peers and the lag goal read. */
@Tag("it")
class TimerJitterTest {

    @Test
    void theTimerJitterProbeRecordsEveryWakeOfItsSchedule() {
        TimerJitter j = TimerJitter.measure(Duration.ofMillis(200), Duration.ofMillis(1));
        assertThat(j.wakes()).isBetween(1L, 200L);
        assertThat(j.periodUs()).isEqualTo(1000.0);
        assertThat(j.p99Ms()).isGreaterThanOrEqualTo(j.p50Ms());
        assertThat(j.maxMs()).isGreaterThanOrEqualTo(j.p99Ms());
        assertThat(j.toMap()).containsKeys("period_us", "wakes", "p50_ms", "p99_ms", "max_ms");
    }

    @Test
    void theTimerJitterProbeRunsBesideOtherWorkUntilStopped() throws InterruptedException {
        long start = System.nanoTime();
        TimerJitter.Running probe = TimerJitter.start(Duration.ofMillis(1));
        Thread.sleep(100);
        TimerJitter j = probe.stop();
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        // a wake a ms while it ran: fewer when the host kept it waiting, never more than fit in the time it ran
        assertThat(j.wakes()).isBetween(1L, elapsedMs);
        assertThat(j.periodUs()).isEqualTo(1000.0);
        assertThat(j.maxMs()).isGreaterThanOrEqualTo(j.p99Ms());
    }
}
