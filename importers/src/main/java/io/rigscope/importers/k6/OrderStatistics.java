package io.rigscope.importers.k6;

import java.util.Arrays;

/**
 * The k-th smallest of a run's values without sorting them all: quickselect (median-of-three pivot, Hoare
 * partition) in place; a range that stops shrinking fast (an adversarial order) is sorted instead. {@link K6Thresholds}
 * reads k6's percentiles with it: two neighbouring order statistics per percentile, where a full sort of a
 * 300,000-point trend cost more than reading the file's points.
 *
 * <p>Values are compared with {@code <}, which orders them as {@link Arrays#sort(double[])} does when there is no
 * NaN and no -0.0 among them; the caller sorts those that have one ({@link K6Thresholds} knows from the points it
 * kept).
 */
final class OrderStatistics {

    private OrderStatistics() {
    }

    /**
     * The {@code k}-th smallest (from 0) of the values in {@code a}, given that no value before {@code from} is
     * greater than any of {@code a[from, to)} and none from {@code to} on is smaller (from 0 and to the array's
     * used length when nothing is known). {@code a[from, to)} is reordered so that no value before index {@code k}
     * is greater and none after it smaller.
     */
    static double select(double[] a, int from, int to, int k) {
        if (k < from || k >= to) {
            throw new IllegalArgumentException("k " + k + " is outside [" + from + ", " + to + ")");
        }
        int lo = from;
        int hi = to - 1;
        int budget = 2 * (32 - Integer.numberOfLeadingZeros(to - from)) + 8;
        while (hi > lo) {
            if (--budget < 0) {
                Arrays.sort(a, lo, hi + 1);
                return a[k];
            }
            int mid = (lo + hi) >>> 1;
            // median of three to a[lo] (a[hi] then stops the left scan), then partition around it
            if (a[mid] < a[lo]) {
                swap(a, mid, lo);
            }
            if (a[hi] < a[lo]) {
                swap(a, hi, lo);
            }
            if (a[hi] < a[mid]) {
                swap(a, hi, mid);
            }
            swap(a, lo, mid);
            double pivot = a[lo];
            int i = lo;
            int j = hi + 1;
            while (true) {
                do {
                    i++;
                } while (a[i] < pivot);
                do {
                    j--;
                } while (pivot < a[j]);
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

    /** The smallest of {@code a[from, to)}. */
    static double min(double[] a, int from, int to) {
        double m = a[from];
        for (int i = from + 1; i < to; i++) {
            if (a[i] < m) {
                m = a[i];
            }
        }
        return m;
    }

    private static void swap(double[] a, int i, int j) {
        double t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
