package io.rigscope.rig.cli;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.rig.options.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchImportK6CommandTest {

    @TempDir
    Path dir;

    @Test
    void aGeneratedRunWhereEveryLineIsAPointIsReadToOneSamplePerRequest() throws Exception {
        Path file = dir.resolve("points.json");

        // 'true' stands in for jq: this test is about the reader and the generated file, not jq's speed
        var run = rigscope("bench", "import-k6", file.toString(), "--generate", "2000", "--shape", "points", "--json",
                "--jq", "true");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("\"lines\":4002,", "\"samples\":2000,");
        JsonNode json = new ObjectMapper().readTree(run.out());
        List<String> keys = new ArrayList<>();
        json.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("lines", "lines_per_s", "jq_lines_per_s", "ratio", "samples", "records",
                "reader_s", "jq_s", "reader_cpu_s", "jq_cpu_s", "cpu_ratio");
        assertThat(json.get("lines").asLong()).isEqualTo(4002);
        assertThat(json.get("samples").asLong()).isEqualTo(2000);
        assertThat(json.get("records").asLong()).isPositive();
        assertThat(json.get("lines_per_s").isIntegralNumber()).as(run.out()).isTrue();
        assertThat(json.get("lines_per_s").asLong()).isPositive();
        assertThat(run.out()).containsPattern("\"reader_s\":\\d+\\.\\d{3},").containsPattern("\"ratio\":\\d+\\.\\d{2},");
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(4002);
        assertThat(lines.stream().filter(l -> l.startsWith("{\"metric\":\"http_req_duration\",\"type\":\"Point\""))
                .count()).isEqualTo(2000);
        assertThat(lines.stream().filter(l -> l.startsWith("{\"metric\":\"http_reqs\",\"type\":\"Point\"")).count())
                .isEqualTo(2000);
        assertThat(lines.get(1)).startsWith("{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"data\":{\"time\":")
                .contains("\"tags\":{\"expected_response\":\"true\",\"group\":\"\",\"method\":\"POST\",\"name\":",
                        "\"tls_version\":\"tls1.3\",\"url\":");
    }

    @Test
    void aShapeWithoutGenerateExitsTwoNamingTheFlag() throws Exception {
        Path file = dir.resolve("k6.json");
        Files.writeString(file, "");

        var run = rigscope("bench", "import-k6", file.toString(), "--shape", "points");

        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--shape points needs --generate");
    }
}
