package io.rigscope.analyzer.config;

import java.util.ArrayList;
import java.util.List;

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
 */
public record AttributionSettings(long generatorPauseUs, double coverShare, long vacuumWalBytes, long canaryStallUs, double lockShare, double walWaitShare,
                                  double readShare, double p50Lift, double queueDepth, double awaitMs, int graceSec,
                                  double commitShare, List<String> generatorHosts, double generatorIdlePct) {

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
                walWaitShare, readShare, p50Lift, queueDepth, awaitMs, graceSec, commitShare, hosts, generatorIdlePct);
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
