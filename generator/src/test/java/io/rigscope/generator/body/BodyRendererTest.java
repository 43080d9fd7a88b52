package io.rigscope.generator.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.generator.plan.BodyTemplate;
import io.rigscope.generator.plan.CustomerPool;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BodyRendererTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void theDefaultBodyIsTheReferenceShapeWithUniqueKeysAndItsQuantityIsSummed() throws Exception {
        BodyTemplate t = new BodyTemplate(10, new CustomerPool.Listed(List.of("a", "b")), "api_calls", 1, 10,
                Map.of("region", "eu \"west\""), null, null);
        BodyRenderer r = new BodyRenderer(t, "s.0.gen-1.x.ingest.");
        Set<String> keys = new HashSet<>();
        for (long seq = 0; seq < 50; seq++) {
            RequestBody body = r.render(seq);
            JsonNode events = json.readTree(body.bytes()).get("events");
            assertThat(events).hasSize(10);
            assertThat(body.batch()).isEqualTo(10);
            long sum = 0;
            for (JsonNode e : events) {
                assertThat(keys.add(e.get("idempotency_key").asText())).isTrue();
                assertThat(e.get("customer_id").asText()).isIn("a", "b");
                assertThat(e.get("meter").asText()).isEqualTo("api_calls");
                assertThat(e.get("quantity").asLong()).isBetween(1L, 10L);
                assertThat(java.time.Instant.parse(e.get("timestamp").asText())).isNotNull();
                assertThat(e.get("properties").get("region").asText()).isEqualTo("eu \"west\"");
                sum += e.get("quantity").asLong();
            }
            assertThat(body.quantity()).isEqualTo(sum);
        }
    }

    @Test
    void anUnknownPlaceholderIsRejectedByName() {
        BodyTemplate t = new BodyTemplate(1, CustomerPool.defaults(), "m", 1, 1, Map.of(), null, "{\"x\":\"${nope}\"}");
        assertThatThrownBy(() -> new BodyRenderer(t, "p.")).hasMessageContaining("${nope}");
        BodyTemplate noEvents = new BodyTemplate(1, CustomerPool.defaults(), "m", 1, 1, Map.of(), "{}", null);
        assertThatThrownBy(() -> new BodyRenderer(noEvents, "p.")).hasMessageContaining("${events}");
    }
}
