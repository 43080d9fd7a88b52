package io.rigscope.importers.k6;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class OrderStatisticsTest {

    @Test
    void theKthSmallestIsTheSortedArraysKthValueForEveryKAndEveryOrder() {
        Random random = new Random(7);
        for (int round = 0; round < 500; round++) {
            int n = 1 + random.nextInt(round < 300 ? 40 : 3000);
            double[] values = new double[n];
            int kind = round % 5;
            for (int i = 0; i < n; i++) {
                values[i] = switch (kind) {
                    case 0 -> random.nextDouble() * 100;                       // distinct
                    case 1 -> random.nextInt(4);                               // many equal
                    case 2 -> i;                                               // already sorted
                    case 3 -> n - i;                                           // reversed
                    default -> new double[] {0.0, 1.5, Double.POSITIVE_INFINITY, -3, Double.NEGATIVE_INFINITY}
                            [random.nextInt(5)];
                };
            }
            double[] sorted = values.clone();
            Arrays.sort(sorted);
            for (int k : new int[] {0, n / 2, (int) Math.floor(0.95 * (n - 1)), n - 1, random.nextInt(n)}) {
                double[] a = values.clone();
                double v = OrderStatistics.select(a, 0, n, k);
                assertThat(v).as("n %d k %d kind %d", n, k, kind).isEqualTo(sorted[k]);
                if (k + 1 < n) {
                    assertThat(OrderStatistics.min(a, k + 1, n)).isEqualTo(sorted[k + 1]);
                }
                double[] rest = a.clone();
                Arrays.sort(rest);
                assertThat(rest).isEqualTo(sorted); // reordered, nothing lost
                // a second selection on either side of the first, as K6Thresholds does for a second percentile
                int other = random.nextInt(n);
                double second = other > k ? OrderStatistics.select(a, k + 1, n, other)
                        : OrderStatistics.select(a, 0, k + 1, other);
                assertThat(second).as("n %d k %d then %d", n, k, other).isEqualTo(sorted[other]);
            }
        }
    }
}
