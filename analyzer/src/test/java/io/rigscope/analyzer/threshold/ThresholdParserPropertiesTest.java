package io.rigscope.analyzer.threshold;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.threshold.ThresholdParser.ThresholdSyntaxException;
import io.rigscope.localenv.testing.Mutations;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Property tests of the k6 threshold parser: any text is a threshold or a {@link ThresholdSyntaxException} naming it. */
class ThresholdParserPropertiesTest {

    @Provide
    Arbitrary<String> expressions() {
        return Mutations.of(List.of("p(99)<500", "p(99.9) <= 1500.5", "rate<0.01", "avg<200", "med<3", "max<1000",
                "count>10", "min>=0", "p(95)<1.5e3"), 4);
    }

    @Provide
    Arbitrary<String> flags() {
        return Mutations.of(List.of("http_req_duration: p(99)<500", "http_req_duration{scenario:probe}: p(95)<200",
                "http_req_failed: rate<0.01"), 4);
    }

    @Property(tries = 1000)
    void anExpressionParsesOrIsRefusedNamingTheMetric(@ForAll("expressions") String expression) {
        try {
            assertThat(ThresholdParser.parse("http_req_duration", expression)).isNotNull();
        } catch (ThresholdSyntaxException e) {
            assertThat(e.getMessage()).contains("http_req_duration");
        }
    }

    @Property(tries = 1000)
    void aCommandLineThresholdParsesOrIsRefusedWithAReason(@ForAll("flags") String flag) {
        try {
            assertThat(ThresholdParser.parseFlag(flag)).isNotNull();
        } catch (ThresholdSyntaxException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }
}
