package io.rigscope.analyzer.lever;

import io.rigscope.analyzer.attribution.EpisodeScene;
import io.rigscope.analyzer.episode.Cause;
import io.rigscope.analyzer.episode.Episode;
import io.rigscope.analyzer.episode.Evidence;
import io.rigscope.analyzer.episode.Lever;
import java.util.Map;
import java.util.Optional;

/**
 * The lever of an attributed episode (docs/attribution.md, Levers): one rule per cause, each computing from the
 * episode's own evidence and the series' telemetry and environment what to change, with the arithmetic in
 * {@link Lever#why()}; a lever whose inputs were not measured says so and names nothing. Pure and deterministic: it
 * reads only records of the series up to the end of the episode's repeat, so a live judgement and a replay give the
 * same lever.
 */
public final class Levers {

    private static final Map<Cause, LeverRule> RULES = Map.of(
            Cause.WAL_POOL, new WalPoolLever(),
            Cause.VACUUM_STORM, new VacuumStormLever(),
            Cause.LOCK_CONTENTION, new LockContentionLever(),
            Cause.STORAGE, new StorageLever(),
            Cause.CACHE_RAM, new CacheRamLever(),
            Cause.GENERATOR, new GeneratorLever(),
            Cause.HOST_IO, new HostIoLever(),
            Cause.SERVICE, new ServiceLever(),
            Cause.CONNECTION_POOL, new ConnectionPoolLever());

    private Levers() {
    }

    /**
     * The episode with its lever, computed for its cause from the scene it was attributed in; unchanged when it has
     * no cause (unattributed) or its cause has no lever rule.
     */
    public static Episode attach(Episode attributed, EpisodeScene scene, LeverContext context) {
        LeverRule rule = RULES.get(attributed.cause());
        if (rule == null) {
            return attributed;
        }
        return attributed.withLever(rule.lever(attributed, scene, context));
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

    /** One cause's lever. */
    interface LeverRule {
        Lever lever(Episode e, EpisodeScene scene, LeverContext context);
    }
}
