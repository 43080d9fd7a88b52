package io.rigscope.analyzer.threshold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.analyzer.threshold.Metric.MetricType;
import io.rigscope.analyzer.threshold.ThresholdExpression.Aggregation;
import io.rigscope.analyzer.threshold.ThresholdParser.ThresholdSyntaxException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThresholdExpressionTest {

    @Test
    void anExpressionOnAMetricOfUnknownTypeReadsEveryK6Aggregation() {
        ThresholdExpression gauge = ThresholdExpression.parse(" value < 1e3 ");
        assertThat(gauge.aggregation().kind()).isEqualTo(Aggregation.Kind.VALUE);
        assertThat(gauge.limit()).isEqualTo(1000.0);
        assertThat(gauge.text()).isEqualTo("value < 1e3");
        assertThat(ThresholdExpression.parse("p( 95 )<=200").aggregation().percentile()).isEqualTo(95.0);
    }

    @Test
    void aSyntaxErrorWithoutAMetricNamesTheExpressionAndTheColumn() {
        assertThatThrownBy(() -> ThresholdExpression.parse("p(95<200"))
                .isInstanceOf(ThresholdSyntaxException.class)
                .hasMessage("threshold 'p(95<200': expected ')' at column 5");
    }

    @Test
    void theTypeTableDecidesWhatAMetricAllows() {
        assertThat(Metric.HTTP_REQS.allows(Aggregation.Kind.RATE)).isTrue();
        assertThat(MetricType.GAUGE.allows(Aggregation.Kind.PERCENTILE)).isFalse();
        assertThatThrownBy(() -> ThresholdParser.parse("http_req_duration", "value<1"))
                .hasMessageContaining(
                        "'value' is not allowed on http_req_duration (allowed: avg, min, med, max, p(N))");
    }

    @Test
    void aThresholdObjectDecodesOnceForEveryReader() {
        Map<String, Object> thresholds = new LinkedHashMap<>();
        thresholds.put("checks", "rate>0.9");
        thresholds.put("http_req_duration", List.of(Map.of("threshold", "p(99)<500", "abortOnFail", true,
                "delayAbortEval", "10s")));
        assertThat(ThresholdDecl.decodeAll(thresholds)).containsExactly(
                Map.entry("checks", List.of(new ThresholdDecl("rate>0.9", false, null))),
                Map.entry("http_req_duration", List.of(new ThresholdDecl("p(99)<500", true, "10s"))));
        assertThatThrownBy(() -> ThresholdDecl.decode("checks", 3))
                .hasMessage("threshold on checks is not a string nor an object with a \"threshold\" string: 3");
    }
}
