package io.rigscope.analyzer.second;

import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * Where a quantile of the latency distribution can lie, from the requests that measured it, whatever the
 * distribution's shape. Of {@code n} requests, the number E that were slower than the true q-quantile is binomial
 * (n, 1 - q). Ranking the requests fastest first, the one at rank {@code lowRank} is above the quantile only when
 * E > n - lowRank, and the one at {@code highRank} is below it only when E <= n - highRank; each rank is chosen so
 * that this happens with probability at most {@code alpha} (one side each).
 *
 * <p><i>Example.</i> 1,000 requests, the p99, alpha 0.025: E is binomial(1000, 0.01) (mean 10); P(E > 16) =
 * 0.026 and P(E > 17) = 0.014, so lowRank = 1000 - 17 = 983; P(E <= 4) = 0.029 and P(E <= 3) = 0.010, so highRank
 * = 1000 - 3 = 997. The p99 lies between the 18th-slowest request and the 4th-slowest with 95 % confidence, where
 * its estimate is the 10th-slowest.
 *
 * <p>When even the slowest request is below the quantile too often (P(E = 0) > alpha: fewer than 368 requests for
 * the p99 at 0.025), no rank bounds it from above: {@code highRank} is then n, the slowest request, and
 * {@link #highBounded} is false.
 *
 * @param n           the requests
 * @param lowRank     1-based rank, fastest first, of the request that bounds the quantile from below
 * @param highRank    1-based rank of the request that bounds it from above (n when not {@code highBounded})
 * @param highBounded whether {@code highRank} is a bound at the stated confidence
 */
public record QuantileBounds(long n, long lowRank, long highRank, boolean highBounded) {

    /**
     * @param n        requests, >= 1
     * @param quantile e.g. 0.99
     * @param alpha    the chance each bound is wrong, e.g. 0.025 (two sides: 95 %)
     */
    public static QuantileBounds of(long n, double quantile, double alpha) {
        if (n < 1 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("n must be 1.." + Integer.MAX_VALUE + ", was " + n);
        }
        if (!(quantile > 0 && quantile < 1) || !(alpha > 0 && alpha < 0.5)) {
            throw new IllegalArgumentException("quantile must be in (0, 1) and alpha in (0, 0.5), were " + quantile
                    + " and " + alpha);
        }
        BinomialDistribution slower = new BinomialDistribution(null, (int) n, 1 - quantile);
        // the least e with P(E > e) <= alpha
        long eHigh = slower.inverseCumulativeProbability(1 - alpha);
        // the largest e with P(E <= e) <= alpha, or none
        long eLow = slower.inverseCumulativeProbability(alpha);
        if (slower.cumulativeProbability((int) eLow) > alpha) {
            eLow--;
        }
        long lowRank = Math.max(1, n - eHigh);
        return eLow < 0 ? new QuantileBounds(n, lowRank, n, false) : new QuantileBounds(n, lowRank, n - eLow, true);
    }

    /** The percentile (0-100] at which a histogram of the {@code n} requests holds the request at {@code rank}. */
    public double percentileOf(long rank) {
        return 100.0 * rank / n;
    }
}
