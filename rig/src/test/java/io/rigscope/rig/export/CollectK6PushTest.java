package io.rigscope.rig.export;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rigscope.rig.cli.RigscopeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code collect k6 --prometheus-rw}: a followed k6 run's seconds, decided by the analyzer, in a real Prometheus. */
@Tag("it")
class CollectK6PushTest {

    @Test
    void aFollowedK6RunsSecondsArriveAsNativeHistogramsWithTheirOwnTimes(@TempDir Path dir) throws Exception {
        Path binary = LocalPrometheus.binary();
        assumeTrue(binary != null, "no prometheus binary on the PATH: apt-get install prometheus (.ci/run does)");
        long firstSec = 1_796_000_000L;
        StringBuilder k6 = new StringBuilder();
        for (int s = 0; s < 5; s++) {
            for (int i = 1; i <= 20; i++) {
                k6.append(point((firstSec + s) * 1_000_000L + i * 40_000L, i * (s + 1)));
            }
        }
        Path file = dir.resolve("out.json");
        Files.writeString(file, k6);
        try (LocalPrometheus prometheus = LocalPrometheus.start(binary, Files.createDirectories(dir.resolve("prom")))) {
            RigscopeRun run = rigscope("collect", "k6", "--follow", file.toString(), "--series", "ck6-rw",
                    "--stop-after-idle", "1s", "--no-kafka", "--out", dir.resolve("k6.jsonl").toString(),
                    "--prometheus-rw", prometheus.writeUrl());

            assertThat(run.exit()).as(run.err()).isZero();
            assertThat(run.out()).containsOnlyOnce("prometheus-rw:").doesNotContain("NOT sent");
            double end = firstSec + 10;
            List<JsonNode> completed = prometheus.query(
                    "sum(sum_over_time(rigscope_second_completed_requests{series=\"ck6-rw\"}[1m]))", end);
            assertThat(completed).hasSize(1);
            assertThat(completed.get(0).path("value").get(1).asLong()).isEqualTo(100);
            // the third second: 20 requests of 3, 6, ..., 60 ms; its p99 is the 20th, 60 ms, within one bucket
            List<JsonNode> p99 = prometheus.query(
                    "histogram_quantile(0.99, rigscope_second_service_seconds{series=\"ck6-rw\"})", firstSec + 3);
            assertThat(p99).hasSize(1);
            assertThat(p99.get(0).path("value").get(1).asDouble()).isCloseTo(0.060,
                    org.assertj.core.data.Percentage.withPercentage(100 * PrometheusRemoteWriteTest.ONE_BUCKET));
        }
    }

    private static String point(long endUs, double ms) {
        return "{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"data\":{\"time\":\""
                + Instant.ofEpochSecond(endUs / 1_000_000L, (endUs % 1_000_000L) * 1000) + "\",\"value\":" + ms
                + ",\"tags\":{\"status\":\"200\",\"expected_response\":\"true\"}}}\n";
    }
}
