package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class FiguresJsonTest {

    @Test
    void keysKeepTheirOrderAndDecimalsKeepTheDigitsPrintfGaveThem() {
        String json = new FiguresJson().put("samples", 5000).fixed("raw_consume_per_s", 123456.5, 0)
                .fixed("ratio", 2.675, 2).fixed("close_ms", 12.5, 3).put("encoding", "smile").toJson();

        assertThat(json).isEqualTo("{\"samples\":5000,\"raw_consume_per_s\":" + String.format(Locale.ROOT, "%.0f",
                123456.5) + ",\"ratio\":" + String.format(Locale.ROOT, "%.2f", 2.675)
                + ",\"close_ms\":12.500,\"encoding\":\"smile\"}");
    }

    @Test
    void aFigureThatIsNotANumberIsNullAndTextIsEscaped() throws Exception {
        String json = new FiguresJson().fixed("cpu_ratio", Double.NaN, 2).fixed("ratio", Double.POSITIVE_INFINITY, 2)
                .put("series_verdict", "4/5 \"held\"").put("attributor", (String) null).toJson();

        JsonNode node = new ObjectMapper().readTree(json);
        assertThat(node.get("cpu_ratio").isNull()).isTrue();
        assertThat(node.get("ratio").isNull()).isTrue();
        assertThat(node.get("series_verdict").asText()).isEqualTo("4/5 \"held\"");
        assertThat(node.get("attributor").asText()).isEqualTo("null");
    }

    @Test
    void anArrayHoldsObjectsInTheirOwnKeyOrder() {
        String json = new FiguresJson().put("slowest_seconds", List.of(
                new FiguresJson().put("second", 7).fixed("close_ms", 1.0, 3),
                new FiguresJson().put("second", 9).fixed("close_ms", 0.0004, 3))).toJson();

        assertThat(json).isEqualTo(
                "{\"slowest_seconds\":[{\"second\":7,\"close_ms\":1.000},{\"second\":9,\"close_ms\":0.000}]}");
    }
}
