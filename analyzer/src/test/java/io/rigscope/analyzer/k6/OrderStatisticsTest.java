package io.rigscope.analyzer.k6;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class OrderStatisticsTest {

    @Test
    void theKthSmallestIsTheSortedArraysKthValueForEveryKAndEveryOrder() {
        Random random = new Random(7);
        for (int round = 0; round < 400; round++) {
            int n = 1 + random.nextInt(round < 300 ? 40 : 3000);
            double[] values = new double[n];
            int kind = round % 5;
            for (int i = 0; i < n; i++) {
                values[i] = switch (kind) {
                    case 0 -> random.nextDouble() * 100;                       // distinct
                    case 1 -> random.nextInt(4);                               // many equal
                    case 2 -> i;                                               // already sorted
                    case 3 -> n - i;                                           // reversed
                    default -> new double[] {0.0, -0.0, 1.5, Double.POSITIVE_INFINITY, -3}[random.nextInt(5)];
                };
            }
            double[] sorted = values.clone();
            Arrays.sort(sorted);
            for (int k : new int[] {0, n / 2, (int) Math.floor(0.95 * (n - 1)), n - 1, random.nextInt(n)}) {
                double[] a = values.clone();
                double v = OrderStatistics.select(a, n, k);
                assertThat(Double.doubleToRawLongBits(v)).as("n %d k %d kind %d", n, k, kind)
                        .isEqualTo(Double.doubleToRawLongBits(sorted[k]));
                if (k + 1 < n) {
                    assertThat(Double.doubleToRawLongBits(OrderStatistics.min(a, k + 1, n)))
                            .isEqualTo(Double.doubleToRawLongBits(sorted[k + 1]));
                }
                double[] rest = a.clone();
                Arrays.sort(rest);
                assertThat(rest).isEqualTo(sorted); // reordered, nothing lost
            }
        }
    }
}
