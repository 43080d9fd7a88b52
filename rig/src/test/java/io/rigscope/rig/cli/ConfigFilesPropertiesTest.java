package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.testing.Mutations;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.series.SeriesFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Property tests of the series file and the generator's plan file: any text (mostly a real file with a few
 * characters edited) is a plan, or a {@link UsageException} whose message starts with the file's name.
 */
class ConfigFilesPropertiesTest {

    private static final String SERIES = """
            series: s1
            database: postgresql://postgres@127.0.0.1:5432/postgres?sslmode=disable
            sut: {touch: per-minute, insert: multi-row}
            load: {batch: 10, meter: api_calls, customers: 1000, max_in_flight: 64, timeout: 5s, probe_rate: 5}
            ladder: {rates: [50, 100], repeats: 2, duration: 90s}
            sustained: {rate: 100, repeats: 5, duration: 10m, cooldown: 30s}
            ceiling: {workers: 8, duration: 30s}
            analyzer: {thresholds: {http_req_duration: ['p(99)<500']}, drift_bound: 1.5}
            """;
    private static final String PLAN = """
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
            """;

    @Provide
    Arbitrary<String> seriesFiles() {
        return Mutations.of(List.of(SERIES), 3);
    }

    @Provide
    Arbitrary<String> planFiles() {
        return Mutations.of(List.of(PLAN), 3);
    }

    @Property(tries = 400)
    void aSeriesFileIsAPlanOrAnErrorNamingTheFile(@ForAll("seriesFiles") String yaml) {
        try {
            assertThat(SeriesFile.read("series.yaml", yaml, null, "default-series").plan()).isNotNull();
        } catch (UsageException e) {
            assertThat(e.getMessage()).startsWith("series.yaml");
        }
    }

    @Property(tries = 400)
    void aPlanFileIsAPlanOrAnErrorNamingTheFile(@ForAll("planFiles") String yaml) throws IOException {
        Path file = Files.createTempFile("rigscope-plan-", ".yaml");
        try {
            Files.writeString(file, yaml);
            assertThat(LoadPlanFile.read(file, null, null, null)).isNotNull();
        } catch (UsageException e) {
            assertThat(e.getMessage()).startsWith(file.toString());
        } finally {
            Files.delete(file);
        }
    }
}
