package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.generator.plan.CustomerPool;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.rig.options.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadPlanFileTest {

    @TempDir
    Path dir;

    private Path write(String yaml) throws Exception {
        Path p = dir.resolve("plan.yaml");
        Files.writeString(p, yaml);
        return p;
    }

    @Test
    void aPlanWithAnIngestAndAProbeScenarioReadsWithEventsConvertedToRequests() throws Exception {
        LoadPlan plan = LoadPlanFile.read(write("""
                series: s1
                mode: closed-loop
                duration: 1m30s
                scenarios:
                  - name: ingest
                    url: http://127.0.0.1:8080/v1/usage-events
                    headers: {Authorization: "Bearer k"}
                    rate: 12000
                    rate_unit: events/s
                    workers: 8
                    timeout: 5s
                    body: {batch: 100, meter: m, customers: [a, b], quantity: {min: 2, max: 4}}
                  - name: probe
                    url: http://127.0.0.1:8080/v1/customers/a/usage
                    rate: 2
                """), null, 3, null);
        assertThat(plan.series()).isEqualTo("s1");
        assertThat(plan.rep()).isEqualTo(3);
        assertThat(plan.lifecycle()).isEqualTo(LoadPlan.Lifecycle.REPEAT);
        assertThat(plan.mode()).isEqualTo(LoopMode.CLOSED);
        assertThat(plan.duration()).isEqualTo(Duration.ofSeconds(90));
        var ingest = plan.scenarios().get(0);
        assertThat(ingest.method()).isEqualTo("POST");
        assertThat(ingest.requestsPerSec()).isEqualTo(120.0);
        assertThat(ingest.maxInFlight()).isEqualTo(8);
        assertThat(ingest.body().customers()).isEqualTo(new CustomerPool.Listed(java.util.List.of("a", "b")));
        assertThat(ingest.body().quantityMax()).isEqualTo(4);
        assertThat(plan.scenarios().get(1).method()).isEqualTo("GET");
        assertThat(plan.scenarios().get(1).body()).isNull();
    }

    @Test
    void aBadValueIsAUsageErrorNamingTheFileAndTheKeyPath() throws Exception {
        Path p = write("""
                duration: 10s
                scenarios:
                  - name: ingest
                    url: http://127.0.0.1:8080/x
                    rate: 10
                    rate_unit: ev
                """);
        assertThatThrownBy(() -> LoadPlanFile.read(p, null, null, null)).isInstanceOf(UsageException.class)
                .hasMessageContaining("plan.yaml").hasMessageContaining("scenarios[0].rate_unit");
        Path unknown = write("""
                duration: 10s
                scenarios:
                  - name: ingest
                    url: http://127.0.0.1:8080/x
                    rate: 10
                    rat: 3
                """);
        assertThatThrownBy(() -> LoadPlanFile.read(unknown, null, null, null))
                .hasMessageContaining("scenarios[0].rat is not a known key here; known: body, check, headers");
        Path noDuration = write("scenarios: [{name: a, url: 'http://h/x', rate: 1}]");
        assertThatThrownBy(() -> LoadPlanFile.read(noDuration, null, null, null)).hasMessageContaining("duration is required");
    }

    @Test
    void aScenarioReadsItsCheckAndACsvCustomerPoolBesideThePlan() throws Exception {
        Files.writeString(dir.resolve("ids.csv"), "id,name\nacct-7,\"Seven, Inc.\"\nacct-9,Nine\n");
        LoadPlan plan = LoadPlanFile.read(write("""
                duration: 10s
                scenarios:
                  - name: ingest
                    url: http://127.0.0.1:8080/graphql
                    rate: 10
                    body: {batch: 2, customers: {file: ids.csv, column: id}, envelope: '{"q":[${events}]}',
                           event: '{"i":${index},"c":"${customer_id}"}'}
                    check: {status: [200, 201], body_not_contains: '"errors"', json: {path: "$.data.n", equals: null}}
                """), null, null, null);
        var ingest = plan.scenarios().get(0);
        assertThat(ingest.body().customers().toMap()).containsEntry("column", "id").containsEntry("count", 2);
        assertThat(ingest.check().status()).containsExactly(200, 201);
        assertThat(ingest.check().failure(200, "{\"data\":{\"n\":null}}".getBytes(), false)).isNull();
        assertThat(ingest.check().failure(200, "{\"data\":{\"n\":3}}".getBytes(), false)).isNotNull();
        assertThat(ingest.check().failure(200, "{\"errors\":[]}".getBytes(), false)).isNotNull();
        assertThatThrownBy(() -> LoadPlanFile.read(write("""
                duration: 10s
                scenarios:
                  - {name: ingest, url: 'http://h/x', rate: 1, body: {customers: {file: ids.csv, column: nope}}}
                """), null, null, null)).hasMessageContaining("scenarios[0].body.customers").hasMessageContaining("nope");
        assertThatThrownBy(() -> LoadPlanFile.read(write("""
                duration: 10s
                scenarios:
                  - {name: ingest, url: 'http://h/x', rate: 1, body: {event: '${nope}'}}
                """), null, null, null)).hasMessageContaining("scenarios[0].body").hasMessageContaining("${nope}");
    }
}
