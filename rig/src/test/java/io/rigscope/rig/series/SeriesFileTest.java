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
                .isInstanceOf(io.rigscope.rig.options.UsageException.class)
                .hasMessageContaining("series.yaml: thresholds: threshold 'max<100' on http_req_duration: "
                        + "delayAbortEval 'soon' is not a duration");
        assertThatThrownBy(() -> read("target: {url: 'http://x:1'}\nsustained: {rate: 5}\nthresholds:\n"
                + "  http_req_duration: ['p(99)<<5']\n"))
                .hasMessageContaining("thresholds: threshold 'p(99)<<5' on http_req_duration: expected a number");
        SeriesFile ok = read("target: {url: 'http://x:1'}\nsustained: {rate: 5}\nthresholds:\n"
                + "  http_req_duration: [{threshold: 'max<100', abortOnFail: true, delayAbortEval: 10s}]\n");
        assertThat(ok.plan().configData().thresholds()).isNotNull();
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
    void theServicesPidIsTheTargetsAndNeedsItsUrl() throws Exception {
        SeriesFile watched = read("target: {url: 'http://svc:8080', pid: 48213}\nsustained: {rate: 5}\n");
        assertThat(watched.servicePid()).isEqualTo(48213L);
        assertThat(read("target: {url: 'http://svc:8080'}\nsustained: {rate: 5}\n").servicePid()).isNull();
        assertThatThrownBy(() -> read("target: {url: 'http://svc:8080', pid: 0}\nsustained: {rate: 5}\n"))
                .hasMessageContaining("series.yaml: target.pid must be a process id > 0, was 0");
        assertThatThrownBy(() -> read("target: {url: 'http://svc:8080', pid: java}\nsustained: {rate: 5}\n"))
                .hasMessageContaining("target.pid").hasMessageContaining("a whole number");
        assertThatThrownBy(() -> read("target: {pid: 48213}\nsustained: {rate: 5}\n"))
                .hasMessageContaining("series.yaml: target.pid needs target.url");
    }

    private static final String OWN = """
            target: {url: 'http://svc:8080'}
            database: postgresql://u@db/x
            scenarios:
              - name: ingest
                method: POST
                url: /graphql
                headers: {Content-Type: application/json}
                max_in_flight: 32
                timeout: 3s
                body:
                  batch: 4
                  customers: {pattern: "acct-%d", from: 1, to: 9}
                  quantity: {min: 1, max: 5}
                  envelope: '{"query":"mutation { ${events} }"}'
                  event: 'e${index}: add(a: \\"${customer_id}\\", q: ${quantity}) { id }'
                  separator: " "
                check: {status: [200], body_not_contains: '"errors"'}
              - name: probe
                url: http://svc:8080/health
                rate: 2
            sustained: {rate: 5}
            denominator: {clients: 2, duration: 5s, insert: "INSERT INTO t (a, q) VALUES ('${customer_id}', ${quantity})"}
            reconciliation_sql: select 1 as rows_written, 2 as qty_sum_gained
            pgdata: /var/lib/postgresql/15/main
            pglog_prefix: '%m [%p] '
            """;

    @Test
    void scenariosDescribeTheUsersRequestsWithThePlanFilesKeys() throws Exception {
        SeriesFile file = read(OWN);
        SeriesPlan plan = file.plan();
        assertThat(file.startSut()).isFalse();
        assertThat(plan.load().batch()).isEqualTo(4);
        assertThat(plan.load().maxInFlight()).isEqualTo(32);
        assertThat(plan.load().probePerSec()).isEqualTo(2.0);
        var scenarios = plan.requests().scenarios(plan.target(), 7, null, true);
        assertThat(scenarios).extracting(s -> s.name()).containsExactly("ingest", "probe");
        assertThat(scenarios.get(0).url().toString()).isEqualTo("http://svc:8080/graphql");
        assertThat(scenarios.get(0).requestsPerSec()).isEqualTo(7.0);
        assertThat(scenarios.get(0).check()).isNotNull();
        assertThat(scenarios.get(1).method()).isEqualTo("GET");
        assertThat(scenarios.get(1).requestsPerSec()).isEqualTo(2.0);
        assertThat(plan.requests().scenarios(plan.target(), 1, 8, false)).hasSize(1)
                .allSatisfy(s -> assertThat(s.maxInFlight()).isEqualTo(8));
        assertThat(plan.analyzer()).containsEntry("scenario", "ingest");
        assertThat(plan.denominator().insert()).contains("INSERT INTO t");
        assertThat(file.pgData()).isEqualTo(Path.of("/var/lib/postgresql/15/main"));
        assertThat(file.pgLogPrefix()).isEqualTo("%m [%p] ");
        assertThat(plan.describeRequests()).first().isEqualTo("target http://svc:8080");
        assertThat(String.join("\n", plan.describeRequests())).contains("scenario ingest: POST http://svc:8080/graphql");
    }

    @Test
    void aScenarioKeyThatIsNotKnownIsNamedByItsPath() {
        assertThatThrownBy(() -> read(OWN.replace("separator:", "seperator:")))
                .isInstanceOf(io.rigscope.rig.options.UsageException.class)
                .hasMessageContaining("series.yaml: scenarios[0].body.seperator is not a known key here; known: ")
                .hasMessageContaining("separator");
        assertThatThrownBy(() -> read(OWN.replace("max_in_flight: 32", "max_in_flight: many")))
                .hasMessageContaining("series.yaml: scenarios[0].max_in_flight must be a whole number");
        assertThatThrownBy(() -> read(OWN.replace("${quantity})\"", "${qty})\"")))
                .hasMessageContaining("denominator.insert: unknown placeholder ${qty}");
    }

    @Test
    void theSeriesNeedsAnIngestScenarioWithABodyAndNoRateOfItsOwn() {
        assertThatThrownBy(() -> read(OWN.replace("name: ingest", "name: write")))
                .hasMessageContaining("scenarios has no scenario named ingest");
        assertThatThrownBy(() -> read(OWN.replace("max_in_flight: 32", "max_in_flight: 32\n    rate: 9")))
                .hasMessageContaining("scenarios[0].rate is set by the steps for ingest");
        assertThatThrownBy(() -> read(OWN.replace("    rate: 2\n", "")))
                .hasMessageContaining("scenarios[1].rate is required");
        assertThatThrownBy(() -> read(OWN + "load: {batch: 3}\n"))
                .hasMessageContaining("load cannot be given with scenarios");
    }

    @Test
    void aTargetUrlWithoutASchemeIsNamedByItsKey() {
        assertThatThrownBy(() -> read("target: {url: 'localhost:8080'}\nsustained: {rate: 5}\n"))
                .hasMessageContaining("series.yaml: target.url 'localhost:8080' is not an absolute http:// URL");
        assertThatThrownBy(() -> read(OWN.replace("url: /graphql", "url: graphql")))
                .hasMessageContaining("scenarios[0].url 'graphql' is neither an absolute http:// URL nor a path");
    }

    @Test
    void everyExampleFileReads() throws Exception {
        // the examples' tokens come from the environment (rig/pom.xml sets test values for them)
        try (var files = Files.list(Path.of("..", "examples"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                SeriesFile file = SeriesFile.read(f, null, "x");
                assertThat(file.plan().sustained()).as(f.toString()).isNotNull();
                if (!file.startSut()) {
                    assertThat(file.plan().requests()).as(f.toString()).isNotNull();
                    assertThat(file.plan().reconciliationSql()).as(f.toString()).isNotNull();
                }
            }
        }
    }

    @Test
    void exportPrometheusRwNamesTheReceiverTheSeriesIsPushedTo() throws Exception {
        assertThat(read("target: {url: 'http://x:1'}\nsustained: {rate: 5}\n"
                + "export: {prometheus_rw: 'http://127.0.0.1:9090/api/v1/write'}\n").prometheusRw())
                .isEqualTo("http://127.0.0.1:9090/api/v1/write");
        assertThat(read("target: {url: 'http://x:1'}\nsustained: {rate: 5}\n").prometheusRw()).isNull();
        assertThatThrownBy(() -> read("target: {url: 'http://x:1'}\nsustained: {rate: 5}\nexport: {prometheus: x}\n"))
                .hasMessageContaining("export.prometheus is not a known key here");
    }
}
