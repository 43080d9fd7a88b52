package io.rigscope.analyzer.freeze;

import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.decision.RepeatSummary.Cadence;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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

    /**
     * The cadence of these freeze-seconds (any order, duplicates ignored): consecutive freeze-seconds are one event;
     * the gaps between event starts; the most frequent gap when it occurs at least twice (ties: the smallest).
     */
    public static Cadence cadence(List<Long> freezeSeconds) {
        List<Long> sorted = freezeSeconds.stream().distinct().sorted().toList();
        List<Long> events = new ArrayList<>();
        long previous = Long.MIN_VALUE;
        for (long s : sorted) {
            if (previous == Long.MIN_VALUE || s != previous + 1) {
                events.add(s);
            }
            previous = s;
        }
        List<Long> gaps = new ArrayList<>();
        Map<Long, Integer> frequency = new TreeMap<>();
        for (int i = 1; i < events.size(); i++) {
            long gap = events.get(i) - events.get(i - 1);
            gaps.add(gap);
            frequency.merge(gap, 1, Integer::sum);
        }
        Long dominant = null;
        int best = 0;
        for (var e : frequency.entrySet()) {
            if (e.getValue() > best) {
                best = e.getValue();
                dominant = e.getKey();
            }
        }
        return new Cadence(events, gaps, best >= 2 ? dominant : null);
    }

}
