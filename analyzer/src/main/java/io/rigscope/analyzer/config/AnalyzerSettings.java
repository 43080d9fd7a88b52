package io.rigscope.analyzer.config;

import io.rigscope.analyzer.threshold.Threshold;
import io.rigscope.analyzer.threshold.ThresholdParser;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The analyzer's settings for one series: the scalar {@link AnalyzerSetting}s, and the k6 thresholds.
 * Immutable; validated on construction.
 *
 * <p>Settings come from the series' {@code CONFIG} marker ({@link #withConfig}); the command line may
 * override them. A value of the wrong type or range is an {@link IllegalArgumentException} naming the key.
 *
 * @param freezeWorstUs see {@link AnalyzerSetting#FREEZE_WORST_MS}, in µs
 * @param freezeSlowUs see {@link AnalyzerSetting#FREEZE_SLOW_MS}, in µs
 * @param freezeSlowFraction see {@link AnalyzerSetting#FREEZE_SLOW_FRACTION}
 * @param windowBucketSec see {@link AnalyzerSetting#WINDOW_BUCKET_S}
 * @param windowFactor see {@link AnalyzerSetting#WINDOW_FACTOR}
 * @param windowMinBuckets see {@link AnalyzerSetting#WINDOW_MIN_BUCKETS}
 * @param driftBound see {@link AnalyzerSetting#DRIFT_BOUND}
 * @param minSamples see {@link AnalyzerSetting#MIN_SAMPLES}
 * @param probeScenario see {@link AnalyzerSetting#PROBE_SCENARIO}
 * @param probeP99Us see {@link AnalyzerSetting#PROBE_P99_MS}, in µs
 * @param episodeGapSec see {@link AnalyzerSetting#EPISODE_GAP_S}
 * @param scenario see {@link AnalyzerSetting#SCENARIO}; empty for automatic
 * @param reconciliationRequired see {@link AnalyzerSetting#RECONCILIATION_REQUIRED}
 * @param thresholdsAllScenarios see {@link AnalyzerSetting#THRESHOLDS_ALL_SCENARIOS}
 * @param ladderMinDeliveredRatio see {@link AnalyzerSetting#LADDER_MIN_DELIVERED_RATIO}
 * @param generatorSilenceSec see {@link AnalyzerSetting#GENERATOR_SILENCE_S}
 * @param thresholds the repeat thresholds, in declaration order
 * @param attribution the attribution rules' thresholds (the {@code attribution_*} keys)
 */
public record AnalyzerSettings(long freezeWorstUs, long freezeSlowUs, double freezeSlowFraction, int windowBucketSec,
                               double windowFactor, int windowMinBuckets, double driftBound, long minSamples,
                               String probeScenario, long probeP99Us, int episodeGapSec, String scenario,
                               boolean reconciliationRequired, boolean thresholdsAllScenarios,
                               double ladderMinDeliveredRatio, int generatorSilenceSec, List<Threshold> thresholds,
                               AttributionSettings attribution) {

    public AnalyzerSettings {
        positive(freezeWorstUs, AnalyzerSetting.FREEZE_WORST_MS);
        positive(freezeSlowUs, AnalyzerSetting.FREEZE_SLOW_MS);
        if (!(freezeSlowFraction >= 0 && freezeSlowFraction < 1)) {
            throw bad(AnalyzerSetting.FREEZE_SLOW_FRACTION, "must be within [0, 1)", freezeSlowFraction);
        }
        positive(windowBucketSec, AnalyzerSetting.WINDOW_BUCKET_S);
        positive(windowFactor, AnalyzerSetting.WINDOW_FACTOR);
        positive(windowMinBuckets, AnalyzerSetting.WINDOW_MIN_BUCKETS);
        positive(driftBound, AnalyzerSetting.DRIFT_BOUND);
        if (minSamples < 0) {
            throw bad(AnalyzerSetting.MIN_SAMPLES, "must be >= 0", minSamples);
        }
        if (probeScenario == null || probeScenario.isBlank()) {
            throw bad(AnalyzerSetting.PROBE_SCENARIO, "must not be blank", probeScenario);
        }
        positive(probeP99Us, AnalyzerSetting.PROBE_P99_MS);
        if (episodeGapSec < 0) {
            throw bad(AnalyzerSetting.EPISODE_GAP_S, "must be >= 0", episodeGapSec);
        }
        scenario = scenario == null ? "" : scenario.strip();
        if (!(ladderMinDeliveredRatio >= 0 && ladderMinDeliveredRatio <= 1)) {
            throw bad(AnalyzerSetting.LADDER_MIN_DELIVERED_RATIO, "must be within [0, 1]", ladderMinDeliveredRatio);
        }
        if (generatorSilenceSec < MIN_GENERATOR_SILENCE_SEC) {
            // live, up to 3.5 s after a broker stops taking writes may still count as evidenced quiet (the last
            // probe acknowledged 1.5 s, the pipeline's 2 s window): a shorter grace could end a repeat by an outage
            throw bad(AnalyzerSetting.GENERATOR_SILENCE_S, "must be >= " + MIN_GENERATOR_SILENCE_SEC,
                    generatorSilenceSec);
        }
        thresholds = List.copyOf(Objects.requireNonNull(thresholds, "thresholds"));
        Objects.requireNonNull(attribution, "attribution");
    }

    /** The defaults of {@link AnalyzerSetting}, no thresholds. */
    public static AnalyzerSettings defaults() {
        return DEFAULTS;
    }

    /** Every setting at its {@link AnalyzerSetting#defaultValue()}: the table is the defaults' one home. */
    private static final AnalyzerSettings DEFAULTS = fromTable();

    private static AnalyzerSettings fromTable() {
        Map<AnalyzerSetting, Object> all = new EnumMap<>(AnalyzerSetting.class);
        for (AnalyzerSetting s : AnalyzerSetting.values()) {
            all.put(s, s.defaultValue());
        }
        return build(all, null, List.of());
    }

    /**
     * These settings overridden by a CONFIG marker's data: keys at the top level, then keys of an
     * {@code "analyzer"} object; {@code thresholds} is k6's thresholds map.
     * Unknown keys are ignored (the snapshot holds every component's config).
     *
     * @throws IllegalArgumentException naming the key whose value is wrong (thresholds: the parser's message)
     */
    public AnalyzerSettings withConfig(Map<String, ?> data) {
        Map<String, Object> flat = new LinkedHashMap<>(data);
        if (data.get("analyzer") instanceof Map<?, ?> nested) {
            nested.forEach((k, v) -> flat.put(String.valueOf(k), v));
        }
        Map<AnalyzerSetting, Object> values = new EnumMap<>(AnalyzerSetting.class);
        for (AnalyzerSetting s : AnalyzerSetting.values()) {
            if (flat.containsKey(s.key()) && flat.get(s.key()) != null) {
                values.put(s, flat.get(s.key()));
            }
        }
        List<Threshold> newThresholds = thresholds;
        if (flat.get("thresholds") instanceof Map<?, ?> map) {
            Map<String, Object> typed = new LinkedHashMap<>();
            map.forEach((k, v) -> typed.put(String.valueOf(k), v));
            newThresholds = ThresholdParser.parseAll(typed);
        } else if (flat.containsKey("thresholds") && flat.get("thresholds") != null) {
            throw new IllegalArgumentException("config key thresholds must be an object of metric -> [expressions]");
        }
        return build(values, this, newThresholds);
    }

    /**
     * Settings from {@code values}; a setting absent from them keeps {@code base}'s value (every setting is present
     * when {@code base} is null: the table's defaults).
     */
    private static AnalyzerSettings build(Map<AnalyzerSetting, Object> values, AnalyzerSettings base,
                                          List<Threshold> thresholds) {
        Fields f = new Fields(values, base);
        return new AnalyzerSettings(
                f.us(AnalyzerSetting.FREEZE_WORST_MS, AnalyzerSettings::freezeWorstUs),
                f.us(AnalyzerSetting.FREEZE_SLOW_MS, AnalyzerSettings::freezeSlowUs),
                f.dbl(AnalyzerSetting.FREEZE_SLOW_FRACTION, AnalyzerSettings::freezeSlowFraction),
                (int) f.lng(AnalyzerSetting.WINDOW_BUCKET_S, AnalyzerSettings::windowBucketSec),
                f.dbl(AnalyzerSetting.WINDOW_FACTOR, AnalyzerSettings::windowFactor),
                (int) f.lng(AnalyzerSetting.WINDOW_MIN_BUCKETS, AnalyzerSettings::windowMinBuckets),
                f.dbl(AnalyzerSetting.DRIFT_BOUND, AnalyzerSettings::driftBound),
                f.lng(AnalyzerSetting.MIN_SAMPLES, AnalyzerSettings::minSamples),
                f.str(AnalyzerSetting.PROBE_SCENARIO, AnalyzerSettings::probeScenario),
                f.us(AnalyzerSetting.PROBE_P99_MS, AnalyzerSettings::probeP99Us),
                (int) f.lng(AnalyzerSetting.EPISODE_GAP_S, AnalyzerSettings::episodeGapSec),
                f.str(AnalyzerSetting.SCENARIO, AnalyzerSettings::scenario),
                f.bool(AnalyzerSetting.RECONCILIATION_REQUIRED, AnalyzerSettings::reconciliationRequired),
                f.bool(AnalyzerSetting.THRESHOLDS_ALL_SCENARIOS, AnalyzerSettings::thresholdsAllScenarios),
                f.dbl(AnalyzerSetting.LADDER_MIN_DELIVERED_RATIO, AnalyzerSettings::ladderMinDeliveredRatio),
                (int) f.lng(AnalyzerSetting.GENERATOR_SILENCE_S, AnalyzerSettings::generatorSilenceSec),
                thresholds,
                new AttributionSettings(
                        f.us(AnalyzerSetting.ATTRIBUTION_GENERATOR_PAUSE_MS, b -> b.attribution().generatorPauseUs()),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_COVER_SHARE, b -> b.attribution().coverShare()),
                        Math.round(f.dbl(AnalyzerSetting.ATTRIBUTION_VACUUM_WAL_MB,
                                b -> b.attribution().vacuumWalBytes() / 1_048_576.0) * 1_048_576.0),
                        f.us(AnalyzerSetting.ATTRIBUTION_CANARY_STALL_MS, b -> b.attribution().canaryStallUs()),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_LOCK_SHARE, b -> b.attribution().lockShare()),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_WAL_WAIT_SHARE, b -> b.attribution().walWaitShare()),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_READ_SHARE, b -> b.attribution().readShare()),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_P50_LIFT, b -> b.attribution().p50Lift()),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_QUEUE_DEPTH, b -> b.attribution().queueDepth()),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_AWAIT_MS, b -> b.attribution().awaitMs()),
                        (int) f.lng(AnalyzerSetting.ATTRIBUTION_GRACE_S, b -> b.attribution().graceSec()),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_COMMIT_SHARE, b -> b.attribution().commitShare()),
                        values.containsKey(AnalyzerSetting.ATTRIBUTION_GENERATOR_HOSTS)
                                ? AttributionSettings.hosts(f.str(AnalyzerSetting.ATTRIBUTION_GENERATOR_HOSTS, b -> ""))
                                : base.attribution().generatorHosts(),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_GENERATOR_IDLE_PCT, b -> b.attribution().generatorIdlePct()),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_SERVICE_SHARE, b -> b.attribution().serviceShare()),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_POOL_SHARE, b -> b.attribution().poolShare()),
                        f.us(AnalyzerSetting.ATTRIBUTION_SERVICE_PAUSE_MS, b -> b.attribution().servicePauseUs()),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_SERVICE_CPU_SHARE, b -> b.attribution().serviceCpuShare()),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_DB_BUSY_SESSIONS, b -> b.attribution().dbBusySessions()),
                        f.dbl(AnalyzerSetting.ATTRIBUTION_SERVICE_STARVED_SHARE,
                                b -> b.attribution().serviceStarvedShare())));
    }

    /** Reads each setting from the values given, else from the base settings. */
    private record Fields(Map<AnalyzerSetting, Object> values, AnalyzerSettings base) {

        private Object raw(AnalyzerSetting s) {
            Object v = values.get(s);
            if (v == null && base == null) {
                throw new IllegalStateException("no value and no base for " + s.key());
            }
            return v;
        }

        double dbl(AnalyzerSetting s, java.util.function.ToDoubleFunction<AnalyzerSettings> fallback) {
            Object v = raw(s);
            if (v == null) {
                return fallback.applyAsDouble(base);
            }
            if (v instanceof Number n) {
                return n.doubleValue();
            }
            try {
                return Double.parseDouble(String.valueOf(v).strip());
            } catch (NumberFormatException e) {
                throw bad(s, "must be a number (" + s.unit() + ")", v);
            }
        }

        /** A value in ms, as µs. */
        long us(AnalyzerSetting s, java.util.function.ToLongFunction<AnalyzerSettings> fallbackUs) {
            return raw(s) == null ? fallbackUs.applyAsLong(base) : Math.round(dbl(s, b -> 0) * 1000.0);
        }

        long lng(AnalyzerSetting s, java.util.function.ToLongFunction<AnalyzerSettings> fallback) {
            if (raw(s) == null) {
                return fallback.applyAsLong(base);
            }
            double d = dbl(s, b -> 0);
            if (d != Math.rint(d)) {
                throw bad(s, "must be a whole number (" + s.unit() + ")", values.get(s));
            }
            return (long) d;
        }

        String str(AnalyzerSetting s, java.util.function.Function<AnalyzerSettings, String> fallback) {
            Object v = raw(s);
            return v == null ? fallback.apply(base) : String.valueOf(v);
        }

        boolean bool(AnalyzerSetting s, java.util.function.Predicate<AnalyzerSettings> fallback) {
            Object v = raw(s);
            if (v == null) {
                return fallback.test(base);
            }
            if (v instanceof Boolean b) {
                return b;
            }
            String t = String.valueOf(v).strip();
            if (t.equals("true") || t.equals("false")) {
                return Boolean.parseBoolean(t);
            }
            throw bad(s, "must be true or false", v);
        }
    }

    /** These settings with other thresholds. */
    public AnalyzerSettings withThresholds(List<Threshold> replacement) {
        return new AnalyzerSettings(freezeWorstUs, freezeSlowUs, freezeSlowFraction, windowBucketSec, windowFactor,
                windowMinBuckets, driftBound, minSamples, probeScenario, probeP99Us, episodeGapSec, scenario,
                reconciliationRequired, thresholdsAllScenarios, ladderMinDeliveredRatio, generatorSilenceSec, replacement,
                attribution);
    }

    /** The shortest {@code generator_silence_s}: see docs/gates.md, "A generator that falls silent". */
    public static final int MIN_GENERATOR_SILENCE_SEC = 4;

    private static void positive(double v, AnalyzerSetting s) {
        if (!(v > 0)) {
            throw bad(s, "must be > 0", v);
        }
    }

    private static IllegalArgumentException bad(AnalyzerSetting s, String rule, Object value) {
        return new IllegalArgumentException("config key " + s.key() + " " + rule + ", was " + value);
    }

    /**
     * The thresholds of the attribution rules (docs/attribution.md), each an {@link AnalyzerSetting}
     * ({@code attribution_*}).
     *
     * @param generatorPauseUs {@link AnalyzerSetting#ATTRIBUTION_GENERATOR_PAUSE_MS}, µs
     * @param coverShare {@link AnalyzerSetting#ATTRIBUTION_COVER_SHARE}
     * @param vacuumWalBytes {@link AnalyzerSetting#ATTRIBUTION_VACUUM_WAL_MB}, bytes
     * @param canaryStallUs {@link AnalyzerSetting#ATTRIBUTION_CANARY_STALL_MS}, µs
     * @param lockShare {@link AnalyzerSetting#ATTRIBUTION_LOCK_SHARE}
     * @param walWaitShare {@link AnalyzerSetting#ATTRIBUTION_WAL_WAIT_SHARE}
     * @param readShare {@link AnalyzerSetting#ATTRIBUTION_READ_SHARE}
     * @param p50Lift {@link AnalyzerSetting#ATTRIBUTION_P50_LIFT}
     * @param queueDepth {@link AnalyzerSetting#ATTRIBUTION_QUEUE_DEPTH}
     * @param awaitMs {@link AnalyzerSetting#ATTRIBUTION_AWAIT_MS}
     * @param graceSec {@link AnalyzerSetting#ATTRIBUTION_GRACE_S}
     * @param commitShare {@link AnalyzerSetting#ATTRIBUTION_COMMIT_SHARE}
     * @param generatorHosts {@link AnalyzerSetting#ATTRIBUTION_GENERATOR_HOSTS}, each a host as vmstat's
     *     {@code vmstat@HOST} names it; empty when none is known
     * @param generatorIdlePct {@link AnalyzerSetting#ATTRIBUTION_GENERATOR_IDLE_PCT}, percent
     * @param serviceShare {@link AnalyzerSetting#ATTRIBUTION_SERVICE_SHARE}
     * @param poolShare {@link AnalyzerSetting#ATTRIBUTION_POOL_SHARE}
     * @param servicePauseUs {@link AnalyzerSetting#ATTRIBUTION_SERVICE_PAUSE_MS}, µs
     * @param serviceCpuShare {@link AnalyzerSetting#ATTRIBUTION_SERVICE_CPU_SHARE}
     * @param dbBusySessions {@link AnalyzerSetting#ATTRIBUTION_DB_BUSY_SESSIONS}
     * @param serviceStarvedShare {@link AnalyzerSetting#ATTRIBUTION_SERVICE_STARVED_SHARE}
     */
    public record AttributionSettings(long generatorPauseUs, double coverShare, long vacuumWalBytes, long canaryStallUs, double lockShare, double walWaitShare,
                                      double readShare, double p50Lift, double queueDepth, double awaitMs, int graceSec,
                                      double commitShare, List<String> generatorHosts, double generatorIdlePct,
                                      double serviceShare, double poolShare, long servicePauseUs, double serviceCpuShare,
                                      double dbBusySessions, double serviceStarvedShare) {

        public AttributionSettings {
            fraction(lockShare, AnalyzerSetting.ATTRIBUTION_LOCK_SHARE);
            fraction(coverShare, AnalyzerSetting.ATTRIBUTION_COVER_SHARE);
            positive(vacuumWalBytes, AnalyzerSetting.ATTRIBUTION_VACUUM_WAL_MB);
            fraction(walWaitShare, AnalyzerSetting.ATTRIBUTION_WAL_WAIT_SHARE);
            fraction(readShare, AnalyzerSetting.ATTRIBUTION_READ_SHARE);
            positive(generatorPauseUs, AnalyzerSetting.ATTRIBUTION_GENERATOR_PAUSE_MS);
            positive(canaryStallUs, AnalyzerSetting.ATTRIBUTION_CANARY_STALL_MS);
            positive(p50Lift, AnalyzerSetting.ATTRIBUTION_P50_LIFT);
            positive(queueDepth, AnalyzerSetting.ATTRIBUTION_QUEUE_DEPTH);
            positive(awaitMs, AnalyzerSetting.ATTRIBUTION_AWAIT_MS);
            if (graceSec < 0) {
                throw new IllegalArgumentException("config key " + AnalyzerSetting.ATTRIBUTION_GRACE_S.key()
                        + " must be >= 0, was " + graceSec);
            }
            fraction(commitShare, AnalyzerSetting.ATTRIBUTION_COMMIT_SHARE);
            generatorHosts = List.copyOf(generatorHosts);
            fraction(serviceShare, AnalyzerSetting.ATTRIBUTION_SERVICE_SHARE);
            fraction(poolShare, AnalyzerSetting.ATTRIBUTION_POOL_SHARE);
            positive(servicePauseUs, AnalyzerSetting.ATTRIBUTION_SERVICE_PAUSE_MS);
            fraction(serviceCpuShare, AnalyzerSetting.ATTRIBUTION_SERVICE_CPU_SHARE);
            positive(dbBusySessions, AnalyzerSetting.ATTRIBUTION_DB_BUSY_SESSIONS);
            fraction(serviceStarvedShare, AnalyzerSetting.ATTRIBUTION_SERVICE_STARVED_SHARE);
            if (!(generatorIdlePct >= 0 && generatorIdlePct <= 100)) {
                throw new IllegalArgumentException("config key " + AnalyzerSetting.ATTRIBUTION_GENERATOR_IDLE_PCT.key()
                        + " must be within [0, 100], was " + generatorIdlePct);
            }
        }

        /** The defaults of {@link AnalyzerSetting}. */
        public static AttributionSettings defaults() {
            return AnalyzerSettings.defaults().attribution();
        }

        /** These settings with the generator's hosts (as {@code vmstat@HOST} names them). */
        public AttributionSettings withGeneratorHosts(List<String> hosts) {
            return new AttributionSettings(generatorPauseUs, coverShare, vacuumWalBytes, canaryStallUs, lockShare,
                    walWaitShare, readShare, p50Lift, queueDepth, awaitMs, graceSec, commitShare, hosts, generatorIdlePct,
                    serviceShare, poolShare, servicePauseUs, serviceCpuShare, dbBusySessions, serviceStarvedShare);
        }

        /** A comma-separated list of hosts, blanks dropped: {@code "app-1, load-2"} -> [app-1, load-2]. */
        public static List<String> hosts(String commaSeparated) {
            List<String> out = new ArrayList<>();
            for (String h : commaSeparated.split(",")) {
                if (!h.isBlank()) {
                    out.add(h.strip());
                }
            }
            return out;
        }

        private static void fraction(double v, AnalyzerSetting s) {
            if (!(v > 0 && v <= 1)) {
                throw new IllegalArgumentException("config key " + s.key() + " must be within (0, 1], was " + v);
            }
        }

        private static void positive(double v, AnalyzerSetting s) {
            if (!(v > 0)) {
                throw new IllegalArgumentException("config key " + s.key() + " must be > 0, was " + v);
            }
        }
    }
}
