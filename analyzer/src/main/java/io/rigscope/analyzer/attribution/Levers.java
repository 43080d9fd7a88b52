package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.Lever;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The levers of attributed episodes (docs/attribution.md, Levers): one {@link io.rigscope.analyzer.attribution.LeverRule}
 * per cause, named by its row of the attribution's table of causes, each computing from the
 * episode's own evidence and the series' telemetry and environment what to change, with the arithmetic in
 * {@link Lever#why()}; a lever whose inputs were not measured says so and names nothing. Pure and deterministic: it
 * reads only records of the series up to the end of the episode's repeat, so a live judgement and a replay give the
 * same lever.
 */
final class Levers {

    private Levers() {
    }

    /**
     * One lever per cause per repeat: the episodes of one repeat, each cause's episodes carrying the lever of the
     * one with the strongest evidence among those whose lever was computed: the surest confidence, then the most
     * slow seconds (freeze-seconds and window buckets), then the worst request, then the earliest. A lever computed
     * from one episode alone varies with it (a vacuum's cost limit 92-180 within one arm); the strongest episode is
     * the one whose inputs were measured best, and a setting is changed once. Its {@code why} says which episode it
     * came from. A cause none of whose levers was computed is left as it is. The order of the list is kept.
     */
    public static List<Episode> onePerCause(List<Episode> episodes) {
        Map<Cause, Episode> strongest = new EnumMap<>(Cause.class);
        Map<Cause, Integer> count = new EnumMap<>(Cause.class);
        Comparator<Episode> stronger = Comparator.comparing(Episode::confidence)
                .thenComparing(e -> -(e.freezeSeconds() + e.windowBuckets()))
                .thenComparing(e -> -e.worstMs())
                .thenComparingLong(Episode::startSec);
        for (Episode e : episodes) {
            if (e.lever() == null || !e.lever().computed()) {
                continue;
            }
            count.merge(e.cause(), 1, Integer::sum);
            strongest.merge(e.cause(), e, (a, b) -> stronger.compare(a, b) <= 0 ? a : b);
        }
        List<Episode> out = new ArrayList<>();
        for (Episode e : episodes) {
            Episode from = strongest.get(e.cause());
            if (from == null || e.lever() == null || count.get(e.cause()) < 2 && from == e) {
                out.add(e);
                continue;
            }
            Lever l = from.lever();
            out.add(e.withLever(new Lever(l.setting(), l.value(), l.action(), "one lever for " + e.cause().code()
                    + " in this repeat, from its episode at second " + from.startSec() + " (of "
                    + count.get(e.cause()) + " with a lever computed: the surest, then the most slow seconds, then the "
                    + "worst request): " + l.why(), l.also())));
        }
        return out;
    }

    /** The episode's first evidence item named {@code what}, if any. */
    static Optional<Evidence> evidence(Episode e, String what) {
        return e.evidence().stream().filter(ev -> what.equals(ev.what()) && ev.value() != null).findFirst();
    }

    /** The median of some values (the mean of the middle two for an even count); NaN when empty. */
    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        java.util.Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    }

    /** Rounds down to two significant digits ({@code 0.0507} to {@code 0.05}, {@code 0.175} to {@code 0.17}). */
    static String twoDigitsDown(double v) {
        java.math.BigDecimal d = new java.math.BigDecimal(v).round(new java.math.MathContext(2,
                java.math.RoundingMode.DOWN));
        return d.stripTrailingZeros().toPlainString();
    }
}
