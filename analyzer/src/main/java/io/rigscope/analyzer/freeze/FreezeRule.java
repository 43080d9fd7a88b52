package io.rigscope.analyzer.freeze;

import io.rigscope.analyzer.config.AnalyzerSettings;

/**
 * The freeze-second rule: a 1-s bucket whose worst request exceeds {@code worstUs} and in which more than
 * {@code slowFraction} of the requests exceed {@code slowUs} (service time {@code t2 - t1}, strictly greater
 * in both tests). A second without requests is never a freeze-second.
 *
 * <p>Evaluated once per second, when the second's figures are taken
 * ({@link io.rigscope.analyzer.decision.SecondStats#freeze()}); everything after reads that flag.
 *
 * @param worstUs setting {@code freeze_worst_ms}, default 150 ms
 * @param slowUs setting {@code freeze_slow_ms}, default 50 ms
 * @param slowFraction setting {@code freeze_slow_fraction}, default 0.10
 */
public record FreezeRule(long worstUs, long slowUs, double slowFraction) {

    /** The rule under these settings. */
    public static FreezeRule of(AnalyzerSettings settings) {
        return new FreezeRule(settings.freezeWorstUs(), settings.freezeSlowUs(), settings.freezeSlowFraction());
    }

    /** True when a second with these counts is a freeze-second. */
    public boolean isFreeze(long count, long slowCount, long maxServiceUs) {
        return count > 0 && maxServiceUs > worstUs && slowCount > slowFraction * count;
    }

    /** The rule in words, as a FREEZE verdict carries it. */
    public String describe() {
        return "worst > " + worstUs / 1000.0 + " ms and > " + slowFraction * 100 + " % of requests > "
                + slowUs / 1000.0 + " ms";
    }

}
