package io.rigscope.rig;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docker-compose.yml cannot run here (no Docker engine), so its shape is checked instead. */
class DockerComposeFileTest {

    private final JsonNode compose = read();

    private static JsonNode read() {
        try {
            return new ObjectMapper(new YAMLFactory()).readTree(Path.of("..", "docker-compose.yml").toFile());
        } catch (java.io.IOException e) {
            throw new AssertionError("docker-compose.yml does not parse as YAML: " + e.getMessage(), e);
        }
    }

    @Test
    void declaresKafkaPostgresAndRigscope() {
        List<String> services = new ArrayList<>();
        compose.get("services").fieldNames().forEachRemaining(services::add);
        assertThat(services).containsExactlyInAnyOrder("kafka", "postgres", "rigscope");
    }

    @Test
    void kafkaRunsKraftOnTheOfficialImageAndPublishes9092() {
        JsonNode kafka = compose.at("/services/kafka");
        assertThat(kafka.get("image").asText()).startsWith("apache/kafka:");
        assertThat(kafka.at("/environment/KAFKA_PROCESS_ROLES").asText()).isEqualTo("broker,controller");
        assertThat(kafka.get("ports").get(0).asText()).isEqualTo("9092:9092");
    }

    @Test
    void postgresSixteenHasTheLoggingTheCollectorsNeed() {
        JsonNode pg = compose.at("/services/postgres");
        assertThat(pg.get("image").asText()).isEqualTo("postgres:16");
        assertThat(pg.get("ports").get(0).asText()).isEqualTo("5432:5432");
        List<String> command = new ArrayList<>();
        pg.get("command").forEach(n -> command.add(n.asText()));
        assertThat(command).contains("log_autovacuum_min_duration=0", "log_checkpoints=on");
    }

    @Test
    void rigscopePointsAtBothAndWaitsForThem() {
        JsonNode rig = compose.at("/services/rigscope");
        List<String> deps = new ArrayList<>();
        rig.get("depends_on").forEach(n -> deps.add(n.asText()));
        assertThat(deps).containsExactlyInAnyOrder("kafka", "postgres");
        assertThat(rig.get("command").toString()).contains("kafka:9092");
    }
}
