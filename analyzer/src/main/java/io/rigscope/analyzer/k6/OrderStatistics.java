package io.rigscope.analyzer.k6;

import java.util.Arrays;

/**
 * The k-th smallest of a run's values without sorting them all: quickselect (median-of-three pivot) in place, in
 * {@link Double#compare}'s order, the order {@link Arrays#sort(double[])} gives; a range that stops shrinking fast
 * (an adversarial order) is sorted instead. {@link K6Thresholds} reads k6's percentiles with it: two neighbouring
 * order statistics per percentile, where a full sort of a 300,000-point trend cost more than reading it.
 */
final class OrderStatistics {

    private OrderStatistics() {
    }

    /**
     * The {@code k}-th smallest (from 0) of {@code a[0, n)}; {@code a[0, n)} is reordered so that every value before
     * index {@code k} is not greater and every value after it not smaller.
     */
    static double select(double[] a, int n, int k) {
        if (k < 0 || k >= n) {
            throw new IllegalArgumentException("k " + k + " is outside [0, " + n + ")");
        }
        int lo = 0;
        int hi = n - 1;
        int budget = 2 * (32 - Integer.numberOfLeadingZeros(n)) + 8;
        while (hi > lo) {
            if (--budget < 0) {
                Arrays.sort(a, lo, hi + 1);
                return a[k];
            }
            int mid = (lo + hi) >>> 1;
            // median of three to a[lo], then Hoare partition around it
            if (less(a[mid], a[lo])) {
                swap(a, mid, lo);
            }
            if (less(a[hi], a[lo])) {
                swap(a, hi, lo);
            }
            if (less(a[hi], a[mid])) {
                swap(a, hi, mid);
            }
            swap(a, lo, mid);
            double pivot = a[lo];
            int i = lo;
            int j = hi + 1;
            while (true) {
                do {
                    i++;
                } while (i <= hi && less(a[i], pivot));
                do {
                    j--;
                } while (less(pivot, a[j]));
                if (i >= j) {
                    break;
                }
                swap(a, i, j);
            }
            swap(a, lo, j);
            if (j == k) {
                return a[k];
            }
            if (j < k) {
                lo = j + 1;
            } else {
                hi = j - 1;
            }
        }
        return a[k];
    }

    /** The smallest of {@code a[from, to)} in {@link Double#compare}'s order. */
    static double min(double[] a, int from, int to) {
        double m = a[from];
        for (int i = from + 1; i < to; i++) {
            if (less(a[i], m)) {
                m = a[i];
            }
        }
        return m;
    }

    private static boolean less(double x, double y) {
        // Double.compare's order where < and > do not decide: -0.0 before 0.0, NaN last, as Arrays.sort orders them
        return x < y || (!(x > y) && Double.compare(x, y) < 0);
    }

    private static void swap(double[] a, int i, int j) {
        double t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
