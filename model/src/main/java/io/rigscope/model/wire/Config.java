package io.rigscope.model.wire;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link Marker.Kind#CONFIG}: the full config snapshot, kept whole and in its writer's order (a series file's
 * analyzer settings come in the file's order): a map by nature. The keys rigscope reads have typed accessors
 * here; the analyzer's settings are keyed by the analyzer's settings table ({@code AnalyzerSetting}, docs/gates.md),
 * read from {@link #analyzerSettings()}.
 *
 * @param settings the snapshot, never null
 */
public record Config(Map<String, Object> settings) implements MarkerBody {

    static final String SOURCE = "source";
    static final String RECONCILIATION_REQUIRED = "reconciliation_required";
    static final String THRESHOLDS_ALL_SCENARIOS = "thresholds_all_scenarios";
    static final String THRESHOLDS = "thresholds";
    static final String ANALYZER = "analyzer";
    static final String SCENARIOS = "scenarios";
    static final String SERIES_PLAN = "series_plan";

    public Config {
        settings = BodyFields.copy(settings);
    }

    /**
     * An importer's CONFIG: who wrote it, whether reconciliation is required, thresholds judged over every
     * scenario (as k6 does), the thresholds (metric -> expressions) and analyzer settings (either null or empty:
     * left out), in that order.
     */
    public static Config imported(String source, boolean reconciliationRequired, Map<String, ?> thresholds,
                                  Map<String, ?> analyzer) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(SOURCE, source);
        m.put(RECONCILIATION_REQUIRED, reconciliationRequired);
        m.put(THRESHOLDS_ALL_SCENARIOS, true);
        if (thresholds != null && !thresholds.isEmpty()) {
            m.put(THRESHOLDS, thresholds);
        }
        if (analyzer != null && !analyzer.isEmpty()) {
            m.put(ANALYZER, analyzer);
        }
        return new Config(m);
    }

    /**
     * The orchestrator's CONFIG: the analyzer settings at the top level (as a series file gives them), then the
     * series plan under {@code series_plan}.
     */
    public static Config ofSeries(Map<String, ?> analyzerSettings, Map<String, ?> seriesPlan) {
        Map<String, Object> m = new LinkedHashMap<>(analyzerSettings);
        m.put(SERIES_PLAN, seriesPlan);
        return new Config(m);
    }

    @Override
    public Marker.Kind kind() {
        return Marker.Kind.CONFIG;
    }

    @Override
    public Map<String, Object> toData() {
        return settings;
    }

    /**
     * The snapshot with the keys of its {@code "analyzer"} object (if any) laid over the top-level ones, as the
     * analyzer reads its settings; the {@code "analyzer"} entry itself stays in the map.
     */
    public Map<String, Object> analyzerSettings() {
        Map<String, Object> flat = new LinkedHashMap<>(settings);
        if (settings.get(ANALYZER) instanceof Map<?, ?> nested) {
            nested.forEach((k, v) -> flat.put(String.valueOf(k), v));
        }
        return flat;
    }

    /**
     * The thresholds object (metric -> list of k6 expressions, or k6's {@code {threshold, abortOnFail, ...}}
     * objects), after the analyzer override, or null when there is none or it is not an object.
     */
    public Map<String, Object> thresholds() {
        return analyzerSettings().get(THRESHOLDS) instanceof Map<?, ?> m ? BodyFields.stringKeys(m) : null;
    }

    /** The top-level thresholds object (not the analyzer override's), or null. */
    public Map<String, Object> ownThresholds() {
        return settings.get(THRESHOLDS) instanceof Map<?, ?> m ? BodyFields.stringKeys(m) : null;
    }

    /** A load plan's scenarios' URLs by name (a generator's CONFIG), in order; empty when there are none. */
    public Map<String, String> scenarioUrls() {
        Map<String, String> out = new LinkedHashMap<>();
        if (settings.get(SCENARIOS) instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> sc && sc.get("name") instanceof String name
                        && sc.get("url") instanceof String url) {
                    out.put(name, url);
                }
            }
        }
        return out;
    }

    /** The series plan's target URL (the orchestrator's CONFIG), or null. */
    public String seriesTarget() {
        return settings.get(SERIES_PLAN) instanceof Map<?, ?> plan && plan.get("target") instanceof String target
                ? target : null;
    }
}
