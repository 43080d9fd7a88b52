package io.rigscope.analyzer.config;

import io.rigscope.analyzer.threshold.Threshold;
import io.rigscope.analyzer.threshold.ThresholdParser;
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
        return new AnalyzerSettings(150_000, 50_000, 0.10, 10, 3.0, 2, 1.5, 1000, "probe", 500_000, 3, "",
                true, false, 0.99, 5, List.of(), AttributionSettings.defaults());
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
        return new AnalyzerSettings(
                msToUs(values, AnalyzerSetting.FREEZE_WORST_MS, freezeWorstUs),
                msToUs(values, AnalyzerSetting.FREEZE_SLOW_MS, freezeSlowUs),
                dbl(values, AnalyzerSetting.FREEZE_SLOW_FRACTION, freezeSlowFraction),
                (int) lng(values, AnalyzerSetting.WINDOW_BUCKET_S, windowBucketSec),
                dbl(values, AnalyzerSetting.WINDOW_FACTOR, windowFactor),
                (int) lng(values, AnalyzerSetting.WINDOW_MIN_BUCKETS, windowMinBuckets),
                dbl(values, AnalyzerSetting.DRIFT_BOUND, driftBound),
                lng(values, AnalyzerSetting.MIN_SAMPLES, minSamples),
                str(values, AnalyzerSetting.PROBE_SCENARIO, probeScenario),
                msToUs(values, AnalyzerSetting.PROBE_P99_MS, probeP99Us),
                (int) lng(values, AnalyzerSetting.EPISODE_GAP_S, episodeGapSec),
                str(values, AnalyzerSetting.SCENARIO, scenario),
                bool(values, AnalyzerSetting.RECONCILIATION_REQUIRED, reconciliationRequired),
                bool(values, AnalyzerSetting.THRESHOLDS_ALL_SCENARIOS, thresholdsAllScenarios),
                dbl(values, AnalyzerSetting.LADDER_MIN_DELIVERED_RATIO, ladderMinDeliveredRatio),
                (int) lng(values, AnalyzerSetting.GENERATOR_SILENCE_S, generatorSilenceSec),
                newThresholds,
                new AttributionSettings(
                        msToUs(values, AnalyzerSetting.ATTRIBUTION_GENERATOR_PAUSE_MS, attribution.generatorPauseUs()),
                        dbl(values, AnalyzerSetting.ATTRIBUTION_COVER_SHARE, attribution.coverShare()),
                        Math.round(dbl(values, AnalyzerSetting.ATTRIBUTION_VACUUM_WAL_MB,
                                attribution.vacuumWalBytes() / 1_048_576.0) * 1_048_576.0),
                        msToUs(values, AnalyzerSetting.ATTRIBUTION_CANARY_STALL_MS, attribution.canaryStallUs()),
                        dbl(values, AnalyzerSetting.ATTRIBUTION_LOCK_SHARE, attribution.lockShare()),
                        dbl(values, AnalyzerSetting.ATTRIBUTION_WAL_WAIT_SHARE, attribution.walWaitShare()),
                        dbl(values, AnalyzerSetting.ATTRIBUTION_READ_SHARE, attribution.readShare()),
                        dbl(values, AnalyzerSetting.ATTRIBUTION_P50_LIFT, attribution.p50Lift()),
                        dbl(values, AnalyzerSetting.ATTRIBUTION_QUEUE_DEPTH, attribution.queueDepth()),
                        dbl(values, AnalyzerSetting.ATTRIBUTION_AWAIT_MS, attribution.awaitMs()),
                        (int) lng(values, AnalyzerSetting.ATTRIBUTION_GRACE_S, attribution.graceSec()),
                        dbl(values, AnalyzerSetting.ATTRIBUTION_COMMIT_SHARE, attribution.commitShare()),
                        values.containsKey(AnalyzerSetting.ATTRIBUTION_GENERATOR_HOSTS)
                                ? AttributionSettings.hosts(str(values, AnalyzerSetting.ATTRIBUTION_GENERATOR_HOSTS, ""))
                                : attribution.generatorHosts(),
                        dbl(values, AnalyzerSetting.ATTRIBUTION_GENERATOR_IDLE_PCT, attribution.generatorIdlePct())));
    }

    /** These settings with other thresholds. */
    public AnalyzerSettings withThresholds(List<Threshold> replacement) {
        return new AnalyzerSettings(freezeWorstUs, freezeSlowUs, freezeSlowFraction, windowBucketSec, windowFactor,
                windowMinBuckets, driftBound, minSamples, probeScenario, probeP99Us, episodeGapSec, scenario,
                reconciliationRequired, thresholdsAllScenarios, ladderMinDeliveredRatio, generatorSilenceSec, replacement,
                attribution);
    }

    private static double number(Map<AnalyzerSetting, Object> values, AnalyzerSetting s, double fallback) {
        Object v = values.get(s);
        if (v == null) {
            return fallback;
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

    private static long msToUs(Map<AnalyzerSetting, Object> values, AnalyzerSetting s, long fallbackUs) {
        return Math.round(number(values, s, fallbackUs / 1000.0) * 1000.0);
    }

    private static double dbl(Map<AnalyzerSetting, Object> values, AnalyzerSetting s, double fallback) {
        return number(values, s, fallback);
    }

    private static long lng(Map<AnalyzerSetting, Object> values, AnalyzerSetting s, long fallback) {
        double d = number(values, s, fallback);
        if (d != Math.rint(d)) {
            throw bad(s, "must be a whole number (" + s.unit() + ")", values.get(s));
        }
        return (long) d;
    }

    private static String str(Map<AnalyzerSetting, Object> values, AnalyzerSetting s, String fallback) {
        Object v = values.get(s);
        return v == null ? fallback : String.valueOf(v);
    }

    private static boolean bool(Map<AnalyzerSetting, Object> values, AnalyzerSetting s, boolean fallback) {
        Object v = values.get(s);
        if (v == null) {
            return fallback;
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
}
