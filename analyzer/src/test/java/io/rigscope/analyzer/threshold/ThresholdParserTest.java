package io.rigscope.analyzer.threshold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.analyzer.threshold.ThresholdExpression.Aggregation;
import io.rigscope.analyzer.threshold.ThresholdExpression.Comparison;
import io.rigscope.analyzer.threshold.ThresholdParser.ThresholdSyntaxException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThresholdParserTest {

    @Test
    void parsesK6ExpressionsWithOrWithoutSpaces() {
        Threshold p99 = ThresholdParser.parse("http_req_duration", "p(99)<500");
        assertThat(p99.aggregation().kind()).isEqualTo(Aggregation.Kind.PERCENTILE);
        assertThat(p99.aggregation().percentile()).isEqualTo(99.0);
        assertThat(p99.comparison()).isEqualTo(Comparison.LT);
        assertThat(p99.limit()).isEqualTo(500.0);
        assertThat(p99.name()).isEqualTo("http_req_duration: p(99)<500");

        Threshold spaced = ThresholdParser.parse("http_req_duration", "  p( 99.9 )  <=  20.5 ");
        assertThat(spaced.expression()).isEqualTo("p(99.9)<=20.5");
        assertThat(ThresholdParser.parse("http_req_failed", "rate<0.01").holds(0.009)).isTrue();
        assertThat(ThresholdParser.parse("http_req_duration", "avg<200").holds(200)).isFalse();
        assertThat(ThresholdParser.parse("http_req_duration", "med===3").holds(3)).isTrue();
        assertThat(ThresholdParser.parse("dropped_iterations", "count==0").holds(0)).isTrue();
    }

    @Test
    void parsesTheK6ThresholdsMapIncludingTheAbortOnFailFormAndAScenarioFilter() {
        Map<String, Object> k6 = new LinkedHashMap<>();
        k6.put("http_req_duration", List.of("p(95)<200", Map.of("threshold", "p(99)<500", "abortOnFail", true)));
        k6.put("http_req_duration{scenario:probe}", "max<900");
        k6.put("http_req_failed", List.of("rate<0.01"));

        List<Threshold> all = ThresholdParser.parseAll(k6);

        assertThat(all).extracting(Threshold::name).containsExactly("http_req_duration: p(95)<200",
                "http_req_duration: p(99)<500", "http_req_duration{scenario:probe}: max<900",
                "http_req_failed: rate<0.01");
        assertThat(all.get(2).scenario()).isEqualTo("probe");
    }

    @Test
    void readsAbortOnFailAndDelayAbortEvalAsK6WritesThem() {
        Map<String, Object> k6 = new LinkedHashMap<>();
        k6.put("http_req_duration", List.of("p(95)<200",
                Map.of("threshold", "p(99)<500", "abortOnFail", true, "delayAbortEval", "1m30s"),
                Map.of("threshold", "max<900", "abortOnFail", true),
                Map.of("threshold", "avg<100", "abortOnFail", false, "delayAbortEval", "10s")));

        List<Threshold> all = ThresholdParser.parseAll(k6);

        assertThat(all).extracting(Threshold::abortOnFail).containsExactly(false, true, true, false);
        assertThat(all.get(1).delayAbortEval()).isEqualTo(java.time.Duration.ofSeconds(90));
        assertThat(all.get(2).delayAbortEval()).isZero();
        assertThat(all.get(1).name()).as("the gate's name is the expression as written").isEqualTo(
                "http_req_duration: p(99)<500");
    }

    @Test
    void rejectsAbortFieldsOfTheWrongTypeNamingTheThreshold() {
        assertThatThrownBy(() -> ThresholdParser.parseAll(Map.of("http_req_duration",
                List.of(Map.of("threshold", "p(99)<500", "abortOnFail", true, "delayAbortEval", "soon")))))
                .isInstanceOf(ThresholdSyntaxException.class)
                .hasMessage("threshold 'p(99)<500' on http_req_duration: delayAbortEval 'soon' is not a duration; "
                        + "expected e.g. 30s, 10m, 1h30m, 500ms");
        assertThatThrownBy(() -> ThresholdParser.parseAll(Map.of("http_req_duration",
                List.of(Map.of("threshold", "p(99)<500", "abortOnFail", "yes")))))
                .hasMessage("threshold 'p(99)<500' on http_req_duration: abortOnFail must be true or false, not yes");
        assertThatThrownBy(() -> ThresholdParser.parseAll(Map.of("http_req_duration",
                List.of(Map.of("threshold", "p(99)<500", "abortOnFail", true, "delayAbortEval", 10)))))
                .hasMessageContaining("delayAbortEval must be a duration string such as \"10s\", not 10");
    }

    @Test
    void parsesTheCommandLineForm() {
        assertThat(ThresholdParser.parseFlag("http_req_duration{scenario:ingest}: p(99)<500").scenario())
                .isEqualTo("ingest");
    }

    @Test
    void rejectsBadExpressionsNamingWhatIsWrongAndWhere() {
        assertThatThrownBy(() -> ThresholdParser.parse("http_req_duration", "p(99)<<500"))
                .isInstanceOf(ThresholdSyntaxException.class)
                .hasMessage("threshold 'p(99)<<500' on http_req_duration: expected a number after '<' at column 7");
        assertThatThrownBy(() -> ThresholdParser.parse("http_req_duration", "p99<500"))
                .hasMessageContaining("expected '('").hasMessageContaining("column 2");
        assertThatThrownBy(() -> ThresholdParser.parse("http_req_duration", "p(101)<5"))
                .hasMessageContaining("percentile 101 is outside 0..100");
        assertThatThrownBy(() -> ThresholdParser.parse("http_req_duration", "avg<"))
                .hasMessageContaining("expected a number after '<'");
        assertThatThrownBy(() -> ThresholdParser.parse("http_req_duration", "avg 500"))
                .hasMessageContaining("expected an operator");
        assertThatThrownBy(() -> ThresholdParser.parse("http_req_duration", "mean<5"))
                .hasMessageContaining("unknown aggregation 'mean'");
        assertThatThrownBy(() -> ThresholdParser.parse("http_req_duration", "p(99)<500ms"))
                .hasMessageContaining("unexpected 'ms' after the number");
        assertThatThrownBy(() -> ThresholdParser.parse("http_req_duration", "rate<0.01"))
                .hasMessageContaining("'rate' is not allowed on http_req_duration");
        assertThatThrownBy(() -> ThresholdParser.parse("http_req_waiting", "p(99)<5"))
                .hasMessageContaining("threshold metric 'http_req_waiting' is unknown");
        assertThatThrownBy(() -> ThresholdParser.parse("http_req_duration{status:200}", "p(99)<5"))
                .hasMessageContaining("the only tag filter supported is {scenario:NAME}");
        assertThatThrownBy(() -> ThresholdParser.parse("http_req_duration", ""))
                .hasMessageContaining("expected an aggregation");
        assertThatThrownBy(() -> ThresholdParser.parseFlag("p(99)<500"))
                .hasMessageContaining("must be METRIC: EXPRESSION");
    }
}
