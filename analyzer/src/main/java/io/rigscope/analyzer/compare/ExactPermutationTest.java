package io.rigscope.analyzer.compare;

import java.util.Arrays;
import java.util.Objects;

/**
 * The exact two-sided permutation test of a difference of means between two small samples (Fisher-Pitman): every
 * way of splitting the pooled values into groups of the two sizes is enumerated, and the p-value is the share of
 * splits whose |mean B - mean A| is at least the observed one. Exact at any size it enumerates (C(n_A + n_B, n_A)
 * splits; 252 at 5 a side); makes no assumption of normality. Its floor: with n a side the smallest two-sided p is
 * {@code 2 / C(2n, n)}: 1/3 at 2, 0.1 at 3, 0.029 at 4, 0.0079 at 5.
 *
 * @param name the test's name as printed
 * @param pValue the two-sided exact p-value
 * @param meanA mean of A
 * @param meanB mean of B
 * @param arrangements how many splits were enumerated
 * @param atLeastAsExtreme how many of them were at least as extreme as the observed one
 */
record ExactPermutationTest(String name, double pValue, double meanA, double meanB, long arrangements,
                                   long atLeastAsExtreme) {

    /** The test's name, printed with every p-value. */
    public static final String NAME = "exact permutation test (two-sided, difference of means)";

    /** The most values it enumerates (C(24, 12) = 2.7 million splits). */
    public static final int MAX_VALUES = 24;

    /** The test of B against A. */
    public static ExactPermutationTest of(double[] a, double[] b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        if (a.length == 0 || b.length == 0) {
            throw new IllegalArgumentException("each side needs at least one value (A " + a.length + ", B "
                    + b.length + ")");
        }
        if (a.length + b.length > MAX_VALUES) {
            throw new IllegalArgumentException("at most " + MAX_VALUES + " values in all, was " + (a.length + b.length));
        }
        double[] pooled = new double[a.length + b.length];
        System.arraycopy(a, 0, pooled, 0, a.length);
        System.arraycopy(b, 0, pooled, a.length, b.length);
        double total = Arrays.stream(pooled).sum();
        double observed = Math.abs(mean(b) - mean(a));
        // a tolerance for the sums' rounding: a split as extreme as the observed one must count as such
        double eps = 1e-9 * Math.max(1, Arrays.stream(pooled).map(Math::abs).max().orElse(1));
        long[] counts = new long[2];
        enumerate(pooled, a.length, 0, 0, 0.0, total, b.length, observed - eps, counts);
        return new ExactPermutationTest(NAME, (double) counts[1] / counts[0], mean(a), mean(b), counts[0], counts[1]);
    }

    /** Every choice of {@code k} of the pooled values as group A (from index {@code from}), counting the extreme. */
    private static void enumerate(double[] pooled, int k, int from, int chosen, double sumA, double total, int nB,
                                  double threshold, long[] counts) {
        if (chosen == k) {
            double diff = Math.abs((total - sumA) / nB - sumA / k);
            counts[0]++;
            if (diff >= threshold) {
                counts[1]++;
            }
            return;
        }
        for (int i = from; i <= pooled.length - (k - chosen); i++) {
            enumerate(pooled, k, i + 1, chosen + 1, sumA + pooled[i], total, nB, threshold, counts);
        }
    }

    private static double mean(double[] v) {
        return Arrays.stream(v).sum() / v.length;
    }

    /**
     * The smallest two-sided p-value this test can give with these sizes, distinct values: 2 / C(n_A + n_B, n_A) with
     * equal sizes (the split and its mirror are equally extreme), 1 / C(n_A + n_B, n_A) otherwise.
     */
    public static double floor(int nA, int nB) {
        double c = 1;
        for (int i = 1; i <= nA; i++) {
            c = c * (nB + i) / i;
        }
        return Math.min(1.0, (nA == nB ? 2 : 1) / c);
    }
}
