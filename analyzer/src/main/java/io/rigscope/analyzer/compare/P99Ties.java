package io.rigscope.analyzer.compare;

import io.rigscope.analyzer.second.Latency;
import io.rigscope.model.wire.LatencySettings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The tie rule compare applies to the per-repeat p99 before its permutation test (docs/compare.md, "Ties"). A p99
 * is a bucket of the analyzer's latency histogram (HdrHistogram, 3 significant digits, µs: {@link Latency}), printed
 * as the bucket's highest value; two p99s are only known to differ when they are further apart than that resolution,
 * and a p99 pinned at the request timeout measures the timeout, not the service. So:
 * <ol>
 *   <li><b>Pinned</b>: a repeat whose timed-out requests are more than 1 % of its samples has a timed-out request's
 *       time as its p99 (a timed-out request is recorded with the time it waited, the timeout plus the timer's
 *       lateness). Every pinned p99, of either side, is tied at the smallest of them.</li>
 *   <li><b>Resolution</b>: the pooled p99s sorted, a value within one bucket width of the value before it
 *       ({@code v - prev <= w(v)}, {@code w(v)} the histogram's bucket width at {@code v}: 1 µs below 2,048 µs, else
 *       {@code 2^(floor(log2 v) - 10)} µs, at most 1/1024 of {@code v}; 4.096 ms at 5 s) joins its group; each
 *       group's values are tied at the group's smallest.</li>
 * </ol>
 * The test then runs on the tied values: a split that only moves tied values between the sides changes nothing, so
 * ties alone can never give a p-value that names a side. When every repeat of both sides is pinned, the p99 cannot
 * measure a difference at all ({@link #allPinned()}).
 */
final class P99Ties {

    /** A repeat is pinned when more than this share of its samples timed out. */
    public static final double PINNED_SHARE = 0.01;

    /** The tie rule in one line, as printed in {@code --json} ({@code p99.tie_rule}). */
    public static final String RULE = "p99s within one latency-histogram bucket of each other (sorted, v - previous "
            + "<= bucket width at v: 2^(floor(log2 v_us) - 10) us, at most 1/1024 of v) are tied, and so are p99s of "
            + "repeats with more than 1 % of requests timed out (pinned at the request timeout); the test runs on "
            + "the tied values";

    private static final Histogram SHAPE = Latency.newHistogram();

    private final double[] a;
    private final double[] b;
    private final int pinnedA;
    private final int pinnedB;
    private final List<String> ties;

    private P99Ties(double[] a, double[] b, int pinnedA, int pinnedB, List<String> ties) {
        this.a = a;
        this.b = b;
        this.pinnedA = pinnedA;
        this.pinnedB = pinnedB;
        this.ties = List.copyOf(ties);
    }

    /** The histogram's bucket width at {@code ms}, in ms. */
    public static double bucketWidthMs(double ms) {
        long us = Math.max(LatencySettings.LOWEST_US,
                Math.min(LatencySettings.HIGHEST_US, Math.round(ms * LatencySettings.US_PER_MS)));
        return SHAPE.sizeOfEquivalentValueRange(us) / LatencySettings.US_PER_MS;
    }

    /** Whether a repeat's p99 is pinned at the request timeout. */
    public static boolean pinned(SeriesFigures.Repeat r) {
        return r.samples() > 0 && r.timedOut() > PINNED_SHARE * r.samples();
    }

    /** The tied p99s of the two sides' judged repeats. */
    public static P99Ties of(SeriesFigures sa, SeriesFigures sb) {
        record V(String label, double raw, boolean pinned) {
        }
        List<V> all = new ArrayList<>();
        for (SeriesFigures.Repeat r : sa.repeats()) {
            all.add(new V("A rep " + r.rep(), r.p99Ms(), pinned(r)));
        }
        for (SeriesFigures.Repeat r : sb.repeats()) {
            all.add(new V("B rep " + r.rep(), r.p99Ms(), pinned(r)));
        }
        double[] tied = all.stream().mapToDouble(V::raw).toArray();
        List<String> ties = new ArrayList<>();
        List<Integer> pinnedIdx = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).pinned()) {
                pinnedIdx.add(i);
            }
        }
        if (!pinnedIdx.isEmpty()) {
            double floor = pinnedIdx.stream().mapToDouble(i -> all.get(i).raw()).min().orElseThrow();
            pinnedIdx.forEach(i -> tied[i] = floor);
            ties.add("pinned at the request timeout (more than 1 % of requests timed out), tied at " + ms(floor) + ": "
                    + String.join(", ", pinnedIdx.stream().map(i -> all.get(i).label() + " " + ms(all.get(i).raw()))
                    .toList()));
        }
        // the resolution: chain sorted values within one bucket width of the one before
        Integer[] order = new Integer[all.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble(i -> tied[i]));
        int start = 0;
        for (int k = 1; k <= order.length; k++) {
            boolean joins = k < order.length
                    && tied[order[k]] - tied[order[k - 1]] <= bucketWidthMs(tied[order[k]]) + 1e-9;
            if (!joins) {
                double lo = tied[order[start]];
                double hi = tied[order[k - 1]];
                if (hi > lo) {
                    List<String> members = new ArrayList<>();
                    for (int j = start; j < k; j++) {
                        members.add(all.get(order[j]).label() + " " + ms(tied[order[j]]));
                        tied[order[j]] = lo;
                    }
                    ties.add("within the histogram's resolution (" + ms(bucketWidthMs(hi)) + " at " + ms(hi)
                            + "), tied at " + ms(lo) + ": " + String.join(", ", members));
                }
                start = k;
            }
        }
        int na = sa.repeats().size();
        return new P99Ties(Arrays.copyOfRange(tied, 0, na), Arrays.copyOfRange(tied, na, tied.length),
                (int) pinnedIdx.stream().filter(i -> i < na).count(),
                (int) pinnedIdx.stream().filter(i -> i >= na).count(), ties);
    }

    /** A's p99s as tested. */
    public double[] a() {
        return a.clone();
    }

    /** B's p99s as tested. */
    public double[] b() {
        return b.clone();
    }

    /** Pinned repeats in A. */
    public int pinnedA() {
        return pinnedA;
    }

    /** Pinned repeats in B. */
    public int pinnedB() {
        return pinnedB;
    }

    /** True when every repeat of both sides is pinned at the timeout: the p99 measures the timeout only. */
    public boolean allPinned() {
        return a.length > 0 && b.length > 0 && pinnedA == a.length && pinnedB == b.length;
    }

    /** The ties made, one line each (empty when none). */
    public List<String> ties() {
        return ties;
    }

    private static String ms(double v) {
        return String.format(Locale.ROOT, "%.3f ms", v);
    }
}
