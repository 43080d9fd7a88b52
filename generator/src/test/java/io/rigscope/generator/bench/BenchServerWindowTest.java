package io.rigscope.generator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The bench server's count of arrivals since a window opened, which --vs-peers judges every step by. */
@Tag("it")
class BenchServerWindowTest {

    @Test
    void theWindowCountsTheArrivalsSinceItOpenedWithTheFirstAndLastArrival() throws Exception {
        try (BenchServer server = new BenchServer(1)) {
            HttpClient client = HttpClient.newHttpClient();
            HttpRequest get = HttpRequest.newBuilder(URI.create(server.url())).timeout(Duration.ofSeconds(10)).build();
            client.send(get, HttpResponse.BodyHandlers.ofString());
            assertThat(server.window().count()).isEqualTo(1);
            server.openWindow();
            assertThat(server.window()).isEqualTo(new BenchServer.Window(0, 0, 0));
            assertThat(server.window().rate()).isZero();
            for (int i = 0; i < 3; i++) {
                assertThat(client.send(get, HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("ok");
            }
            BenchServer.Window w = server.window();
            assertThat(w.count()).isEqualTo(3);
            assertThat(w.firstNanos()).isNotZero();
            assertThat(w.lastNanos()).isGreaterThan(w.firstNanos());
            assertThat(w.rate()).isEqualTo(2 * 1e9 / (w.lastNanos() - w.firstNanos()));
            assertThat(server.served()).isEqualTo(4);
        }
    }

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
