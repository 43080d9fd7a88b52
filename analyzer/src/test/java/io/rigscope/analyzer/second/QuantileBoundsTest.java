package io.rigscope.analyzer.second;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Distribution-free bounds of the p99 from order statistics. */
class QuantileBoundsTest {

    @Test
    void ofAThousandRequestsTheP99LiesBetweenThe18thAndThe4thSlowest() {
        // binomial(1000, 0.01): P(E > 16) = 0.026, P(E > 17) = 0.014; P(E <= 4) = 0.029, P(E <= 3) = 0.010
        assertThat(QuantileBounds.of(1000, 0.99, 0.025)).isEqualTo(new QuantileBounds(1000, 983, 997, true));
    }

    @Test
    void fewerThan368RequestsCannotBoundTheP99FromAbove() {
        // 0.99^367 = 0.0250 > 0.025 >= 0.99^368 = 0.0248: with 367 requests all of them are below the p99 too often
        QuantileBounds few = QuantileBounds.of(367, 0.99, 0.025);
        assertThat(few.highBounded()).isFalse();
        assertThat(few.highRank()).isEqualTo(367);
        QuantileBounds enough = QuantileBounds.of(368, 0.99, 0.025);
        assertThat(enough.highBounded()).isTrue();
        assertThat(enough.highRank()).isEqualTo(368);
        assertThat(QuantileBounds.of(1, 0.99, 0.025)).isEqualTo(new QuantileBounds(1, 1, 1, false));
    }

    @Test
    void eachBoundMissesTheTrueP99AtMostAsOftenAsItsAlpha() {
        // exponential latencies (mean 1): the true p99 is ln(100); 4000 seeded samples of 1000 requests
        double p99 = Math.log(100);
        QuantileBounds b = QuantileBounds.of(1000, 0.99, 0.025);
        Random rnd = new Random(7);
        int lowAbove = 0;
        int highBelow = 0;
        int trials = 4000;
        for (int t = 0; t < trials; t++) {
            double[] x = new double[1000];
            for (int i = 0; i < x.length; i++) {
                x[i] = -Math.log(1 - rnd.nextDouble());
            }
            Arrays.sort(x);
            lowAbove += x[(int) b.lowRank() - 1] > p99 ? 1 : 0;
            highBelow += x[(int) b.highRank() - 1] < p99 ? 1 : 0;
        }
        // exact miss chances 0.014 and 0.010; a count of 4000 trials stays within 0.025
        assertThat((double) lowAbove / trials).isBetween(0.005, 0.025);
        assertThat((double) highBelow / trials).isBetween(0.003, 0.025);
    }

    @Test
    void aLatencyHistogramGivesTheRequestAtARank() {
        Histogram h = Latency.newHistogram();
        for (long v = 1; v <= 1000; v++) {
            Latency.record(h, v);
        }
        QuantileBounds b = QuantileBounds.of(1000, 0.99, 0.025);
        assertThat(Latency.percentileUs(h, b.percentileOf(b.lowRank()))).isEqualTo(983);
        assertThat(Latency.percentileUs(h, 99)).isEqualTo(990);
        assertThat(Latency.percentileUs(h, b.percentileOf(b.highRank()))).isEqualTo(997);
    }

    @Test
    void badArgumentsAreRefusedWithTheirValues() {
        assertThatThrownBy(() -> QuantileBounds.of(0, 0.99, 0.025)).hasMessageContaining("was 0");
        assertThatThrownBy(() -> QuantileBounds.of(10, 1.0, 0.025)).hasMessageContaining("1.0");
    }
}
