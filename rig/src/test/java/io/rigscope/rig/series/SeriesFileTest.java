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
    void aBadThresholdIsRefusedBeforeAnyLoadNamingItAndWhatIsWrong() throws Exception {
        assertThatThrownBy(() -> read("target: {url: 'http://x:1'}\nsustained: {rate: 5}\nthresholds:\n"
                + "  http_req_duration: [{threshold: 'max<100', abortOnFail: true, delayAbortEval: soon}]\n"))
                .isInstanceOf(io.rigscope.rig.cli.UsageException.class)
                .hasMessageContaining("series.yaml: thresholds: threshold 'max<100' on http_req_duration: "
                        + "delayAbortEval 'soon' is not a duration");
        assertThatThrownBy(() -> read("target: {url: 'http://x:1'}\nsustained: {rate: 5}\nthresholds:\n"
                + "  http_req_duration: ['p(99)<<5']\n"))
                .hasMessageContaining("thresholds: threshold 'p(99)<<5' on http_req_duration: expected a number");
        SeriesFile ok = read("target: {url: 'http://x:1'}\nsustained: {rate: 5}\nthresholds:\n"
                + "  http_req_duration: [{threshold: 'max<100', abortOnFail: true, delayAbortEval: 10s}]\n");
        assertThat(ok.plan().configData().get("thresholds")).isNotNull();
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
    void withNeitherATargetNorADatabaseTheReferenceSutRunsOnAPrivateClusterWithItsOwnContract() throws Exception {
        SeriesFile file = read("sustained: {rate: 5}\n");
        assertThat(file.startSut()).isTrue();
        assertThat(file.database()).isNull();
        SeriesPlan plan = file.planFor(java.net.URI.create("http://127.0.0.1:9"));
        assertThat(plan.apiKey()).isEqualTo(io.rigscope.sut.SutContract.API_KEY);
        assertThat(plan.reconciliationSql()).contains("usage_events");
        assertThat(file.effectiveTenant()).isEqualTo("demo");
        assertThat(file.effectiveWatchTables()).containsExactly("usage_events", "api_keys");
    }

    @Test
    void anotherServiceKnowsNothingOfTheReferenceSutUnlessTheFileSaysSo() throws Exception {
        SeriesFile file = read("target: {url: 'http://svc:8080'}\ndatabase: postgresql://u@db/x\nsustained: {rate: 5}\n");
        assertThat(file.startSut()).isFalse();
        assertThat(file.plan().apiKey()).isNull();
        assertThat(file.plan().reconciliationSql()).isNull();
        assertThat(file.effectiveTenant()).isNull();
        assertThat(file.effectiveWatchTables()).isEmpty();
        SeriesFile named = read("target: {url: 'http://svc:8080', api_key: k1, tenant: t1}\nsustained: {rate: 5}\n"
                + "reconciliation_sql: select 1 as rows_written, 2 as qty_sum_gained\nwatch_tables: [orders]\n");
        assertThat(named.plan().apiKey()).isEqualTo("k1");
        assertThat(named.effectiveTenant()).isEqualTo("t1");
        assertThat(named.effectiveWatchTables()).containsExactly("orders");
        assertThatThrownBy(() -> read("target: {url: 'http://x:1'}\nsustained: {rate: 5}\nwatch_tables: orders\n"))
                .hasMessageContaining("watch_tables must be a list");
    }

    @Test
    void everyBuiltInDemoFileReads() {
        for (boolean quick : new boolean[] {false, true}) {
            for (boolean hotRow : new boolean[] {false, true}) {
                SeriesFile file = io.rigscope.rig.demo.DemoPlan.file("d", quick, hotRow);
                assertThat(file.startSut()).isTrue();
                assertThat(file.plan().reconciliationSql()).contains("usage_events");
                assertThat(file.watchTables()).containsExactly("usage_events", "api_keys");
            }
        }
    }
}
