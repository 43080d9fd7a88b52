package io.rigscope.rig.series;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeriesFileTest {

    @TempDir
    Path dir;

    private SeriesFile read(String yaml) throws Exception {
        Path f = dir.resolve("series.yaml");
        Files.writeString(f, yaml);
        return SeriesFile.read(f, null, "fallback");
    }

    @Test
    void theExampleFileReadsIntoTheWholePlan() throws Exception {
        SeriesFile file = SeriesFile.read(Path.of("..", "examples", "series.yaml"), null, "x");
        SeriesPlan plan = file.plan();
        assertThat(plan.series()).isEqualTo("usage-ingest-100rps");
        assertThat(file.startSut()).isTrue();
        assertThat(plan.ladder().requestsPerSec()).containsExactly(50.0, 100.0, 200.0);
        assertThat(plan.ladder().stepDuration()).isEqualTo(Duration.ofSeconds(90));
        assertThat(plan.sustained().repeats()).isEqualTo(5);
        assertThat(plan.sustained().duration()).isEqualTo(Duration.ofMinutes(10));
        assertThat(plan.load().maxInFlight()).isEqualTo(64);
        assertThat(plan.analyzer()).containsEntry("thresholds",
                Map.of("http_req_duration", List.of("p(99)<500"), "http_req_failed", List.of("rate<0.01")));
        assertThat(plan.analyzer()).containsEntry("drift_bound", 1.5);
    }

    @Test
    void anUnknownKeyIsNamedWithTheKeysThatAreKnown() {
        assertThatThrownBy(() -> read("target: {url: 'http://x:1'}\nsustained: {rate: 5}\nsustaned: {}\n"))
                .hasMessageContaining("series.yaml: sustaned is not a known key here");
    }

    @Test
    void aBadDurationNamesItsKey() {
        assertThatThrownBy(() -> read("target: {url: 'http://x:1'}\nsustained: {rate: 5, duration: 10 minutes}\n"))
                .hasMessageContaining("sustained.duration '10 minutes' is not a duration");
    }

    @Test
    void aSeriesWithoutSustainedRepeatsIsRefused() {
        assertThatThrownBy(() -> read("target: {url: 'http://x:1'}\n"))
                .hasMessageContaining("sustained is missing");
    }

    @Test
    void anImpossibleValueIsRefusedWithTheRecordsOwnReason() {
        assertThatThrownBy(() -> read("target: {url: 'http://x:1'}\nsustained: {rate: 5, repeats: 0}\n"))
                .hasMessageContaining("sustained: sustained repeats must be >= 1, was 0");
    }

    @Test
    void withNeitherATargetNorADatabaseThereIsNothingToMeasure() {
        assertThatThrownBy(() -> read("sustained: {rate: 5}\n")).hasMessageContaining("target.url is missing");
    }
}
