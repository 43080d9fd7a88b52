package io.rigscope.generator.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.generator.plan.BodyTemplate;
import io.rigscope.generator.plan.CustomerPool;
import io.rigscope.generator.schedule.Share;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BodyRendererTest {

    private final ObjectMapper json = new ObjectMapper();

    private static BodyTemplate template(int batch, String envelope, String event) {
        return new BodyTemplate(batch, CustomerPool.defaults(), "m", 1, 1, Map.of(), envelope, event);
    }

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
    void anUnknownPlaceholderIsRejectedWhenTheTemplateIsBuiltNamingItAndTheAllowedOnes() {
        assertThatThrownBy(() -> template(1, null, "{\"x\":\"${nope}\"}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("body event: unknown placeholder ${nope}; allowed: ")
                .hasMessageContaining("${index}").hasMessageContaining("${random:A..B}").hasMessageContaining("${env:NAME}");
        assertThatThrownBy(() -> template(1, "{\"e\":[${events}],\"x\":\"${nope}\"}", null))
                .hasMessageStartingWith("body envelope: unknown placeholder ${nope}; allowed: ${events}, ");
    }

    @Test
    void aRandomRangeWhoseLowerBoundIsAboveItsUpperIsRejectedByName() {
        assertThatThrownBy(() -> template(1, null, "{\"r\":${random:5..1}}"))
                .hasMessage("body event: ${random:5..1}: A must be <= B (5 > 1)");
        assertThatThrownBy(() -> template(1, null, "{\"r\":${random:1-5}}"))
                .hasMessageStartingWith("body event: ${random:1-5}: expected ${random:A..B}");
        assertThatThrownBy(() -> template(1, "${random:x..y}", null))
                .hasMessageStartingWith("body envelope: ${random:x..y}: expected ${random:A..B}");
    }

    @Test
    void eventPlaceholdersAreRejectedInTheEnvelopeAndEventsInTheEvent() {
        assertThatThrownBy(() -> template(1, "{\"c\":\"${customer_id}\"}", null))
                .hasMessageStartingWith("body envelope: ${customer_id} is not allowed here (it is an event placeholder)");
        assertThatThrownBy(() -> template(1, "{\"i\":${index},\"e\":[${events}]}", null))
                .hasMessageContaining("${index} is not allowed here");
        assertThatThrownBy(() -> template(1, null, "[${events}]"))
                .hasMessageStartingWith("body event: ${events} is not allowed here");
        assertThatThrownBy(() -> template(1, "[${events}],[${events}]", null))
                .hasMessage("body envelope: ${events} may appear at most once");
        assertThatThrownBy(() -> template(1, null, "{\"a\":\"${seq\"}"))
                .hasMessageStartingWith("body event: unknown placeholder ${seq\"}");
        assertThatThrownBy(() -> template(1, null, "{\"a\":\"${seq"))
                .hasMessageStartingWith("body event: '${seq' opens a placeholder that is never closed");
    }

    @Test
    void anUnsetEnvironmentVariableIsRejectedWhenTheTemplateIsBuilt() {
        String name = "RIGSCOPE_UNSET_" + Long.toHexString(System.nanoTime()).toUpperCase(java.util.Locale.ROOT);
        assertThat(System.getenv(name)).isNull();
        assertThatThrownBy(() -> template(1, null, "{\"k\":\"${env:" + name + "}\"}"))
                .hasMessage("body event: ${env:" + name + "}: environment variable " + name + " is not set");
        assertThatThrownBy(() -> template(1, "${env:" + name + "}", null))
                .hasMessage("body envelope: ${env:" + name + "}: environment variable " + name + " is not set");
        assertThatThrownBy(() -> template(1, "${env:1X}", null)).hasMessageContaining("expected ${env:NAME}");
    }

    @Test
    void anEnvironmentVariableIsRenderedEscapedInTheEnvelopeAndTheEvent() throws Exception {
        // every variable this process has, whatever it holds (PATH, HOME, ... and anything odd the CI sets)
        for (Map.Entry<String, String> e : System.getenv().entrySet()) {
            if (!e.getKey().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                continue;
            }
            BodyTemplate t = template(2, "{\"v\":\"${env:" + e.getKey() + "}\",\"events\":[${events}]}",
                    "\"${env:" + e.getKey() + "}\"");
            JsonNode root = json.readTree(new BodyRenderer(t, "p.").render(0).bytes());
            assertThat(root.get("v").asText()).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(root.get("events").get(1).asText()).isEqualTo(e.getValue());
        }
    }

    @Test
    void aStaticEnvelopeIsTheWholeBodyOncePerRequestAndTheRequestClaimsTheBatch() throws Exception {
        BodyTemplate t = new BodyTemplate(25, CustomerPool.defaults(), "m", 4, 4, Map.of(),
                "{\"query\":\"mutation { insertRows(n: 25) }\",\"id\":\"${uuid}\",\"first\":${seq},\"key\":\"${idempotency_key}\"}",
                null);
        AtomicLong series = new AtomicLong(100);
        BodyRenderer r = new BodyRenderer(t, "p.", series);

        RequestBody first = r.render(0);
        RequestBody second = r.render(1);

        JsonNode a = json.readTree(first.bytes());
        JsonNode b = json.readTree(second.bytes());
        assertThat(a.get("query").asText()).isEqualTo("mutation { insertRows(n: 25) }");
        assertThat(a.get("id").asText()).isNotEqualTo(b.get("id").asText());
        assertThat(a.get("first").asLong()).isEqualTo(100);
        assertThat(b.get("first").asLong()).isEqualTo(125);
        assertThat(a.get("key").asText()).isEqualTo("p.0.0");
        assertThat(first.batch()).isEqualTo(25);
        assertThat(first.quantity()).isEqualTo(100);
        assertThat(t.staticEnvelope()).isTrue();
    }

    @Test
    void theSeparatorStandsBetweenEventsAndDefaultsToAComma() {
        BodyTemplate ndjson = new BodyTemplate(3, CustomerPool.defaults(), "m", 1, 1, Map.of(), "${events}\n",
                "{\"i\":${index}}", "\n");
        assertThat(new String(new BodyRenderer(ndjson, "p.").render(0).bytes(), StandardCharsets.UTF_8))
                .isEqualTo("{\"i\":0}\n{\"i\":1}\n{\"i\":2}\n");
        BodyTemplate eightArgs = template(3, "[${events}]", "${index}");
        assertThat(eightArgs.separator()).isEqualTo(",");
        assertThat(new String(new BodyRenderer(eightArgs, "p.").render(0).bytes(), StandardCharsets.UTF_8))
                .isEqualTo("[0,1,2]");
        assertThat(eightArgs.toMap()).containsEntry("separator", ",");
    }

    @Test
    void aDoubledDollarIsALiteralPlaceholderOpening() {
        BodyTemplate t = template(1, "{\"tpl\":\"$${name}\",\"e\":[${events}]}", "${index}");
        assertThat(new String(new BodyRenderer(t, "p.").render(0).bytes(), StandardCharsets.UTF_8))
                .isEqualTo("{\"tpl\":\"${name}\",\"e\":[0]}");
    }

    @Test
    void aTemplateWithoutSeqTakesNothingFromTheSeriesCounter() {
        AtomicLong series = new AtomicLong(5);
        new BodyRenderer(BodyTemplate.usageEvents(10, "m"), "p.", series).render(0);
        assertThat(series.get()).isEqualTo(5);
    }

    @Test
    void theSharesOfAScheduleNeverGiveTheSameSeqThoughEachCountsFromZero() throws Exception {
        // two generators offering 1/2 and 2/2, each in its own process with its own counter from 0
        BodyRenderer first = new BodyRenderer(template(2, "{\"first\":${seq},\"events\":[${events}]}", "${seq}"),
                "p.", new AtomicLong(), Share.parse("1/2"));
        BodyRenderer second = new BodyRenderer(template(2, "{\"first\":${seq},\"events\":[${events}]}", "${seq}"),
                "q.", new AtomicLong(), Share.parse("2/2"));
        Set<Long> seen = new HashSet<>();
        for (long i = 0; i < 100; i++) {
            for (BodyRenderer r : List.of(first, second)) {
                json.readTree(r.render(i).bytes()).get("events").forEach(v -> assertThat(seen.add(v.asLong()))
                        .as("seq %s given twice", v).isTrue());
            }
        }
        assertThat(seen).hasSize(400);
        assertThat(json.readTree(first.render(100).bytes()).toString()).isEqualTo("{\"first\":400,\"events\":[400,402]}");
        assertThat(json.readTree(second.render(100).bytes()).toString()).isEqualTo("{\"first\":401,\"events\":[401,403]}");
    }

    @Test
    void theTwoArgumentRendererCountsOnItsOwnFromZero() throws Exception {
        BodyRenderer r = new BodyRenderer(template(2, null, "${seq}"), "p.");
        assertThat(json.readTree(r.render(0).bytes()).get("events").toString()).isEqualTo("[0,1]");
        assertThat(json.readTree(r.render(1).bytes()).get("events").toString()).isEqualTo("[2,3]");
    }
}
