package io.rigscope.analyzer.freeze;

/**
 * The freeze-second rule: a 1-s bucket whose worst request exceeds {@code worstUs} and in which more than
 * {@code slowFraction} of the requests exceed {@code slowUs} (service time {@code t2 - t1}, strictly greater
 * in both tests). A second without requests is never a freeze-second.
 *
 * @param worstUs default 150 ms
 * @param slowUs default 50 ms
 * @param slowFraction default 0.10
 */
public record FreezeRule(long worstUs, long slowUs, double slowFraction) {

    /** True when a second with these counts is a freeze-second. */
    public boolean isFreeze(long count, long slowCount, long maxServiceUs) {
        return count > 0 && maxServiceUs > worstUs && slowCount > slowFraction * count;
    }
}
