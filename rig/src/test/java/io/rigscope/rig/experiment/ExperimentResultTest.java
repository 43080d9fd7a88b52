package io.rigscope.rig.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The arms put together and {@code experiment --json}'s shape, on real reports: run A (3 sustained repeats) as the
 * control arm, run B as the treatment arm (analyzer/src/test/resources/compare; docs/compare.md counts their tests
 * by hand: p99 p = 0.1, freeze-seconds p = 0.3, better).
 */
class ExperimentResultTest {

    private static final Path RES = Path.of("..", "analyzer", "src", "test", "resources");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ExperimentResult.ArmRun arm(String side, int i, String file) throws Exception {
        JsonNode report = JSON.readTree(RES.resolve(file).toFile());
        return new ExperimentResult.ArmRun(new ExperimentResult.ArmOrder.Arm(side, i), report.get("series").asText(), report,
                "/x/" + side + i + ".jsonl.gz");
    }

    @Test
    void theSidesAreComparedByCompareAndTheJsonHasEverySidesFigures() throws Exception {
        ExperimentResult r = ExperimentResult.of(List.of(arm("control", 1, "compare/run-a.report.json")),
                List.of(arm("treatment", 1, "compare/run-b.report.json")), Map.of("min_wal_size", "224MB"),
                Map.of("min_wal_size", "80MB"), null);
        assertThat(r.comparison().verdict()).isEqualTo("better");
        assertThat(r.comparison().pValue()).isEqualTo(0.1);
        assertThat(r.armsDiffer()).isEmpty();

        JsonNode doc = JSON.valueToTree(r.toJson());
        JsonNode control = doc.get("control");
        assertThat(control.get("series").toString()).isEqualTo("[\"series-20261202-073737\"]");
        assertThat(control.get("p99_ms")).hasSize(3);
        assertThat(control.get("p99_ms").get(0).asDouble()).isEqualTo(3954.687);
        assertThat(control.get("p50_ms")).hasSize(3);
        assertThat(control.at("/freeze_seconds_by_cause/generator").asInt()).isEqualTo(34);
        assertThat(control.get("freeze_seconds").asInt()).isEqualTo(34);
        assertThat(control.at("/settings/min_wal_size").asText()).isEqualTo("80MB");
        assertThat(control.get("arms")).hasSize(3);
        assertThat(control.at("/arms/0/arm").asText()).isEqualTo("A1");
        assertThat(control.at("/arms/0/wire_file").asText()).isEqualTo("/x/control1.jsonl.gz");
        // only the judged repeats' episodes (the ladder rung's is left out)
        assertThat(control.get("episodes")).allSatisfy(e -> assertThat(e.get("rep").asInt()).isBetween(2, 4));
        JsonNode treatment = doc.get("treatment");
        assertThat(treatment.at("/settings/min_wal_size").asText()).isEqualTo("224MB");
        assertThat(treatment.at("/freeze_seconds_by_cause/wal_pool").asInt()).isEqualTo(15);
        assertThat(treatment.get("episodes")).anySatisfy(e -> {
            assertThat(e.get("cause").asText()).isEqualTo("wal_pool");
            assertThat(e.at("/lever/setting").asText()).isEqualTo("min_wal_size");
            assertThat(e.get("arm").asText()).isEqualTo("B1");
        });
        JsonNode compare = doc.get("compare");
        assertThat(compare.get("verdict").asText()).isEqualTo("better");
        assertThat(compare.get("p_value").asDouble()).isEqualTo(0.1);
        assertThat(compare.at("/p99/p_value").asDouble()).isEqualTo(0.1);
        assertThat(compare.at("/freeze_seconds/p_value").asDouble()).isEqualTo(0.3);
        assertThat(compare.get("treatment").toString()).isEqualTo("[\"min_wal_size\"]");
        assertThat(compare.at("/b/levers").toString()).contains("B1 wal_pool: min_wal_size=224MB");
        assertThat(ExperimentResult.freezeSeconds(r.treatment(), "wal_pool")).isEqualTo(15);
        assertThat(ExperimentResult.freezeSeconds(r.control(), "wal_pool")).isZero();
    }

    @Test
    void anArmWhoseEnvironmentDiffersFromItsSidesFirstIsNamed() throws Exception {
        ExperimentResult r = ExperimentResult.of(List.of(arm("control", 1, "compare/run-a.report.json"),
                        arm("control", 2, "recorded/demo-quick.report.json")),
                List.of(arm("treatment", 1, "compare/run-b.report.json")), Map.of(), Map.of(), null);
        assertThat(r.armsDiffer()).isNotEmpty()
                .anySatisfy(d -> assertThat(d).startsWith("A2 against A1: pg_settings.shared_buffers: 128MB -> 256MB"));
    }
}
