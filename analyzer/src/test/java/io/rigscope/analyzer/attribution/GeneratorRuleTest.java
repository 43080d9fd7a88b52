package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The generator rule: a generator pause is the generator, never the server. A test with a defining stream removed
 * expects the cause to degrade (only most likely, or unattributed), never to stay attributed.
 */
class GeneratorRuleTest extends AttributionFixture {

    @Test
    void aGeneratorPauseIsTheGeneratorNeverTheServer() {
        cleanControls();
        health.put(START, new double[] {480.0, 2.0, 500.0});
        piWaits(Map.of("Lock:transactionid", 52.0, "CPU", 3.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.GENERATOR);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.secondary()).isEqualTo(Cause.LOCK_CONTENTION);
    }
}
