package io.rigscope.sut.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BatchParserTest {

    private final BatchParser parser = new BatchParser(new ObjectMapper());

    private BatchParser.Parsed parse(String body) {
        return parser.parse(body.getBytes(StandardCharsets.UTF_8));
    }

    private String error(String body) {
        BatchParser.Parsed p = parse(body);
        assertThat(p).isInstanceOf(BatchParser.Invalid.class);
        return ((BatchParser.Invalid) p).message();
    }

    private static String event(String fieldsOverride) {
        return "{\"idempotency_key\":\"k\",\"customer_id\":\"c\",\"meter\":\"m\",\"quantity\":1,"
                + "\"timestamp\":\"2026-11-30T02:00:00+01:00\"" + fieldsOverride + "}";
    }

    @Test
    void aValidBatchYieldsItsEventsWithTheTimestampInUtcAndPropertiesAsJson() {
        var ok = (BatchParser.Ok) parse("{\"events\":[" + event(",\"properties\":{\"region\":\"eu-1\"}") + ","
                + event("") + "]}");
        assertThat(ok.events()).hasSize(2);
        UsageEvent e = ok.events().get(0);
        assertThat(e.timestamp()).isEqualTo(Instant.parse("2026-11-30T01:00:00Z"));
        assertThat(e.propertiesJson()).isEqualTo("{\"region\":\"eu-1\"}");
        assertThat(ok.events().get(1).propertiesJson()).isEqualTo("{}");
    }

    @Test
    void eachBrokenRuleIsReportedNamingTheField() {
        assertThat(error("")).contains("body is empty");
        assertThat(error("[1]")).contains("must be a JSON object");
        assertThat(error("{\"events\":{}}")).contains("events must be an array, got an object");
        assertThat(error("{\"events\":[]}")).contains("events is empty");
        assertThat(error("{\"events\":[1]}")).contains("events[0] must be an object, got a number");
        assertThat(error("{\"events\":[{\"customer_id\":\"c\"}]}")).contains("events[0].idempotency_key is missing");
        assertThat(error("{\"events\":[" + event(",\"idempotency_key\":\" \"") + "]}"))
                .contains("events[0].idempotency_key is blank");
        assertThat(error("{\"events\":[" + event(",\"customer_id\":7") + "]}"))
                .contains("events[0].customer_id must be a string, got a number");
        assertThat(error("{\"events\":[" + event(",\"quantity\":1.5") + "]}"))
                .contains("events[0].quantity must be an integer >= 0, got 1.5");
        assertThat(error("{\"events\":[" + event(",\"quantity\":-3") + "]}")).contains("events[0].quantity must be >= 0");
        assertThat(error("{\"events\":[" + event(",\"timestamp\":\"yesterday\"") + "]}"))
                .contains("events[0].timestamp must be ISO-8601");
        assertThat(error("{\"events\":[" + event(",\"properties\":[1]") + "]}"))
                .contains("events[0].properties must be an object, got an array");
    }

    @Test
    void aKeyStartingWithAnExclamationMarkIsJustAKey() {
        var ok = (BatchParser.Ok) parse("{\"events\":[" + event(",\"idempotency_key\":\"!k\"") + "]}");
        assertThat(ok.events().get(0).idempotencyKey()).isEqualTo("!k");
    }

    @Test
    void moreThanTheMaximumEventsPerRequestIsRejected() {
        StringBuilder sb = new StringBuilder("{\"events\":[");
        for (int i = 0; i <= BatchParser.MAX_EVENTS; i++) {
            sb.append(i == 0 ? "" : ",").append(event(""));
        }
        assertThat(error(sb.append("]}").toString())).contains("at most " + BatchParser.MAX_EVENTS);
    }
}
