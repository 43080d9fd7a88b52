package io.rigscope.analyzer.repeat;

import org.apache.commons.math3.distribution.HypergeometricDistribution;

/**
 * Whether two thirds' requests show the last third's p99 above {@code bound} times the first third's, or whether
 * a few slow requests could have fallen into the last third by chance: a one-sided two-sample quantile test (Mood's
 * median test, at the p99). The first third's times are scaled by the bound and pooled with the last third's; the
 * pooled p99 is the threshold. Were the last third's p99 no more than the scaled first's, a request above the
 * threshold would be as likely in either; the chance of at least as many of them in the last third as were seen,
 * with the total above the threshold fixed, is hypergeometric: {@code pValue} = P(X >= lastAbove), X ~
 * Hypergeometric(population: all requests of both, successes: all above the threshold, draws: the last third's).
 *
 * <p><i>Example</i> (a demo's repeat 5, 2026-12-03): 994 requests in the first third, 906 in the last, bound 1.5:
 * the pooled p99 (the 20th-slowest of 1,900) is 11.111 ms; at or above it 15 of the last third and 5 of the first
 * (scaled): P(X >= 15) = 0.0120 with X ~ Hypergeometric(1900, 20, 906). The requests show the drift beyond 1.5.
 *
 * @param bound       the bound the first third's times were scaled by
 * @param thresholdUs the pooled p99, µs (in the last third's terms: a first-third request counts above it when its
 *                    time times the bound is)
 * @param inclusive   whether the requests at the threshold count as above it: when that brings the count nearer
 *                    the pooled 1 % (HdrHistogram keeps 3 digits, so equal times share a bucket)
 * @param lastAbove   the last third's requests above the threshold (or at it)
 * @param firstAbove  the first third's requests whose time times the bound is above it (or at it)
 * @param pValue      the chance of {@code lastAbove} or more by chance
 */
record QuantileTest(double bound, double thresholdUs, boolean inclusive, long lastAbove, long firstAbove,
                           double pValue) {

    /** The level at which the requests show a drift: p at most this. */
    public static final double ALPHA = 0.05;

    /** Whether the requests show the drift beyond the bound (p <= {@link #ALPHA}). */
    public boolean shown() {
        return pValue <= ALPHA;
    }

    static QuantileTest of(DriftRule.Tail first, DriftRule.Tail last, double bound, double quantile) {
        long n = first.count() + last.count();
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("too many requests for the test: " + n);
        }
        long rank = Math.max(1, Math.round(quantile * n)); // the pooled p99's rank, fastest first
        long fromTop = n - rank + 1;                       // ... and slowest first
        double threshold = 0;
        int i = 0;
        int j = 0;
        long seen = 0;
        while (seen < fromTop && (i < last.valuesUs().length || j < first.valuesUs().length)) {
            double l = i < last.valuesUs().length ? last.valuesUs()[i] : -1;
            double f = j < first.valuesUs().length ? first.valuesUs()[j] * bound : -1;
            if (l >= f) {
                threshold = l;
                seen += last.counts()[i++];
            } else {
                threshold = f;
                seen += first.counts()[j++];
            }
        }
        // requests above the threshold; with the ones at it too when that comes nearer the pooled 1 % (a bucket of
        // equal times at the threshold would otherwise count all or none)
        long lastOver = count(last, 1, threshold, false);
        long firstOver = count(first, bound, threshold, false);
        long lastAt = count(last, 1, threshold, true);
        long firstAt = count(first, bound, threshold, true);
        boolean inclusive = Math.abs(lastAt + firstAt - fromTop) < Math.abs(lastOver + firstOver - fromTop);
        long lastAbove = inclusive ? lastAt : lastOver;
        long firstAbove = inclusive ? firstAt : firstOver;
        long above = lastAbove + firstAbove;
        double p = above == 0 ? 1.0 : new HypergeometricDistribution(null, (int) n, (int) above, (int) last.count())
                .upperCumulativeProbability((int) lastAbove);
        return new QuantileTest(bound, threshold, inclusive, lastAbove, firstAbove, p);
    }

    /** The tail's requests whose time times {@code scale} is above the threshold (or at it, when inclusive). */
    private static long count(DriftRule.Tail tail, double scale, double threshold, boolean inclusive) {
        long n = 0;
        for (int k = 0; k < tail.valuesUs().length; k++) {
            double v = tail.valuesUs()[k] * scale;
            if (v < threshold || (v == threshold && !inclusive)) {
                break;
            }
            n += tail.counts()[k];
        }
        return n;
    }
}
