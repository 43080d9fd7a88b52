package io.rigscope.generator.body;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.generator.plan.BodyTemplate;
import io.rigscope.generator.plan.CustomerPool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Property tests of the body renderer: for any batch and any text values (quotes, backslashes, control characters,
 * line breaks, any Unicode), every placeholder renders, the body parses as JSON and every text reads back as
 * it was.
 */
class BodyRendererPropertiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The placeholders of an event, each in the JSON position its kind needs (texts quoted, numbers bare). */
    private static final String EVERY_EVENT_PLACEHOLDER = "{\"key\":\"${idempotency_key}\",\"customer\":\"${customer_id}\","
            + "\"meter\":\"${meter}\",\"quantity\":${quantity},\"timestamp\":\"${timestamp}\",\"props\":${properties},"
            + "\"seq\":${seq},\"index\":${index},\"uuid\":\"${uuid}\",\"now_ms\":${now_ms},\"now\":\"${now_rfc3339}\","
            + "\"small\":${random:-5..5},\"wide\":${random:-9223372036854775808..9223372036854775807}}";
    private static final String UUID_FORM = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";

    /** Text a body must survive: JSON's specials, every control character, line breaks, and Unicode beyond ASCII. */
    @Provide
    Arbitrary<String> hostile() {
        List<String> pieces = new ArrayList<>(List.of("\"", "\\", "\\\"", "\n", "\r\n", "\t", "\b", "\f", "/", "'",
                "${", "}", ",", "é", "中文", "😀", "\u2028", "\u007f", "\u00a0", "a", "Z", "0", " "));
        for (char c = 0; c < 0x20; c++) {
            pieces.add(String.valueOf(c));
        }
        return Arbitraries.of(pieces).list().ofMinSize(1).ofMaxSize(12).map(l -> String.join("", l));
    }

    @Provide
    Arbitrary<List<String>> hostileIds() {
        return hostile().list().ofMinSize(1).ofMaxSize(20);
    }

    @Property(tries = 150)
    void everyPlaceholderRendersJsonThatReadsBackForAnyBatch(@ForAll @IntRange(min = 1, max = 200) int batch,
                                                             @ForAll("hostile") String meterText,
                                                             @ForAll("hostile") String customerText,
                                                             @ForAll("hostile") String propertyName,
                                                             @ForAll("hostile") String propertyValue) throws IOException {
        String meter = "m" + meterText; // a meter and an id are never blank
        String customer = customerText + "c";
        BodyTemplate t = new BodyTemplate(batch, new CustomerPool.Listed(List.of(customer)), meter, 3, 9,
                Map.of(propertyName, propertyValue, "plain", "x"), null, EVERY_EVENT_PLACEHOLDER);
        BodyRenderer r = new BodyRenderer(t, "s.0.\"gen\".n.ingest.", new AtomicLong(1_000));
        long before = System.currentTimeMillis();

        RequestBody body = r.render(7);

        long after = System.currentTimeMillis();
        JsonNode events = JSON.readTree(body.bytes()).get("events");
        assertThat(events).hasSize(batch);
        assertThat(body.batch()).isEqualTo(batch);
        long sum = 0;
        Set<String> uuids = new HashSet<>();
        for (int i = 0; i < batch; i++) {
            JsonNode e = events.get(i);
            assertThat(e.get("key").asText()).isEqualTo("s.0.\"gen\".n.ingest.7." + i);
            assertThat(e.get("customer").asText()).isEqualTo(customer);
            assertThat(e.get("meter").asText()).isEqualTo(meter);
            assertThat(e.get("quantity").asLong()).isBetween(3L, 9L);
            sum += e.get("quantity").asLong();
            assertThat(e.get("props").get(propertyName).asText()).isEqualTo(propertyValue);
            assertThat(e.get("seq").asLong()).isEqualTo(1_000 + i);
            assertThat(e.get("index").asInt()).isEqualTo(i);
            assertThat(e.get("uuid").asText()).matches(UUID_FORM);
            uuids.add(e.get("uuid").asText());
            long nowMs = e.get("now_ms").asLong();
            assertThat(nowMs).isBetween(before, after);
            assertThat(Instant.parse(e.get("now").asText()).toEpochMilli()).isEqualTo(nowMs);
            assertThat(e.get("now").asText()).hasSize(24).endsWith("Z");
            assertThat(e.get("timestamp").asText()).isEqualTo(e.get("now").asText());
            assertThat(e.get("small").asLong()).isBetween(-5L, 5L);
            assertThat(e.get("wide").isIntegralNumber()).isTrue();
        }
        assertThat(uuids).hasSize(batch);
        assertThat(body.quantity()).isEqualTo(sum);
    }

    @Property(tries = 50)
    void seqIsStrictlyIncreasingAcrossRequestsAndAcrossTwoRenderersSharingOneCounter(
            @ForAll @IntRange(min = 1, max = 50) int batchA, @ForAll @IntRange(min = 1, max = 50) int batchB,
            @ForAll @Size(min = 1, max = 30) List<Boolean> whichRenders) throws IOException {
        AtomicLong series = new AtomicLong();
        String event = "{\"seq\":${seq},\"index\":${index}}";
        BodyRenderer a = new BodyRenderer(new BodyTemplate(batchA, new CustomerPool.Listed(List.of("c")), "m", 1, 1,
                Map.of(), "{\"first\":${seq},\"events\":[${events}]}", event), "a.", series);
        BodyRenderer b = new BodyRenderer(new BodyTemplate(batchB, new CustomerPool.Listed(List.of("c")), "m", 1, 1,
                Map.of(), "{\"first\":${seq},\"events\":[${events}]}", event), "b.", series);
        long last = -1;
        long request = 0;
        for (boolean useA : whichRenders) {
            JsonNode root = JSON.readTree((useA ? a : b).render(request++).bytes());
            JsonNode events = root.get("events");
            assertThat(root.get("first").asLong()).isEqualTo(events.get(0).get("seq").asLong());
            for (int i = 0; i < events.size(); i++) {
                long seq = events.get(i).get("seq").asLong();
                assertThat(seq).isGreaterThan(last);
                assertThat(events.get(i).get("index").asInt()).isEqualTo(i);
                last = seq;
            }
        }
        assertThat(series.get()).isEqualTo(last + 1);
    }

    @Property(tries = 200)
    void randomStaysWithinItsBoundsWhateverTheyAre(@ForAll long x, @ForAll long y,
                                                   @ForAll @IntRange(min = 1, max = 20) int batch) throws IOException {
        long min = Math.min(x, y);
        long max = Math.max(x, y);
        BodyTemplate t = new BodyTemplate(batch, CustomerPool.defaults(), "m", 1, 1, Map.of(),
                "{\"r\":${random:" + min + ".." + max + "},\"events\":[${events}]}", "${random:" + min + ".." + max + "}");
        JsonNode root = JSON.readTree(new BodyRenderer(t, "p.").render(0).bytes());
        assertThat(root.get("r").asLong()).isBetween(min, max);
        for (JsonNode v : root.get("events")) {
            assertThat(v.asLong()).isBetween(min, max);
        }
    }

    @Property(tries = 100)
    void hostileCustomerIdsReadFromACsvSurviveEscaping(@ForAll("hostileIds") List<String> ids)
            throws IOException {
        List<String> expected = ids.stream().filter(s -> !s.isBlank()).toList();
        if (expected.isEmpty()) {
            return;
        }
        Path file = Files.createTempFile("customers", ".csv");
        try {
            StringBuilder csv = new StringBuilder("region,\"customer id\"\r\n");
            for (String id : ids) {
                csv.append("eu,\"").append(id.replace("\"", "\"\"")).append("\"\r\n");
            }
            Files.writeString(file, csv, StandardCharsets.UTF_8);

            CustomerPool.FromFile pool = CustomerPool.fromCsv(file, "customer id");

            assertThat(pool.ids()).isEqualTo(expected);
            BodyTemplate t = new BodyTemplate(50, pool, "m", 1, 1, Map.of(), null, "{\"c\":\"${customer_id}\"}");
            for (JsonNode e : JSON.readTree(new BodyRenderer(t, "p.").render(0).bytes()).get("events")) {
                assertThat(e.get("c").asText()).isIn(expected);
            }
        } finally {
            Files.delete(file);
        }
    }

    @Property(tries = 300)
    void rfc3339IsTheInstantToTheMillisecondWithThreeDigits(@ForAll @net.jqwik.api.constraints.LongRange(
            min = -62_135_596_800_000L, max = 253_402_300_799_999L) long epochMs) {
        String s = BodyRenderer.rfc3339(epochMs);
        assertThat(s).hasSize(24);
        assertThat(Instant.parse(s)).isEqualTo(Instant.ofEpochMilli(epochMs));
    }

    @Property(tries = 200)
    void escapedTextReadsBackAsItWas(@ForAll("hostile") String text) throws IOException {
        String json = BodyRenderer.escape(new StringBuilder("\""), text).append('"').toString();
        assertThat(JSON.readTree(json).asText()).isEqualTo(text);
        assertThat(json).doesNotContain("\n").doesNotContain("\r");
    }
}
