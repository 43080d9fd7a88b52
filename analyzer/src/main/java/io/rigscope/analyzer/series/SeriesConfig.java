package io.rigscope.analyzer.series;

import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.model.wire.Config;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * What a series' markers say about how to judge it: the settings in force (the defaults, each CONFIG marker
 * folded in turn, a marker setting only the keys it holds, then the command line's overrides) and their freeze
 * rule; the problems found in its markers (each fails the {@code config} gate of every repeat); the URLs its load
 * went to; its ENVIRONMENT facts and its denominator. Not thread-safe: owned by one {@link SeriesAnalysis}.
 */
final class SeriesConfig {

    private final UnaryOperator<AnalyzerSettings> overrides;
    /** The defaults folded with every CONFIG marker so far (before the command line's overrides). */
    private AnalyzerSettings configured;
    private AnalyzerSettings settings;
    private FreezeRule freezeRule;
    private final List<String> errors = new ArrayList<>();
    /** Scenario -> the URL its load went to, from the CONFIG markers' {@code scenarios} (the last one wins). */
    private final Map<String, String> scenarioUrls = new TreeMap<>();
    /** The series plan's {@code target} from a CONFIG marker's {@code series_plan}, or null. */
    private String planTarget;
    /** The last ENVIRONMENT marker's facts, or null. */
    private Map<String, Object> environment;
    /** The denominator phase's rows/s (pgbench), or null. */
    private Double denominatorRowsPerSec;

    SeriesConfig(AnalyzerSettings defaults, UnaryOperator<AnalyzerSettings> overrides) {
        this.overrides = Objects.requireNonNull(overrides, "overrides");
        this.configured = Objects.requireNonNull(defaults, "defaults");
        apply(overrides.apply(defaults));
    }

    /** A CONFIG marker: its settings folded in (a bad one is a config error, the settings in force kept). */
    void config(Config config) {
        scenarioUrls.putAll(config.scenarioUrls());
        if (config.seriesTarget() != null) {
            planTarget = config.seriesTarget();
        }
        try {
            // Markers fold: a generator's CONFIG (its load plan) must not wipe the series' thresholds.
            AnalyzerSettings next = configured.withConfig(config.settings());
            apply(overrides.apply(next));
            configured = next;
            errors.clear();
        } catch (IllegalArgumentException e) {
            error("CONFIG marker: " + e.getMessage());
        }
    }

    private void apply(AnalyzerSettings s) {
        settings = s;
        freezeRule = FreezeRule.of(s);
    }

    /** Records a problem with the series' markers once; each fails the {@code config} gate of every repeat. */
    void error(String error) {
        if (!errors.contains(error)) {
            errors.add(error);
        }
    }

    /** The problems found in the series' markers, in the order found (live: the caller's list, kept current). */
    List<String> errors() {
        return errors;
    }

    AnalyzerSettings settings() {
        return settings;
    }

    FreezeRule freezeRule() {
        return freezeRule;
    }

    /**
     * The URL the scenario's load went to: its own, else the series plan's target, else every scenario's URL
     * (comma-separated); null when no CONFIG marker named one. What is on the wire, never asked of a generator.
     */
    String targetOf(String scenario) {
        if (scenario != null && scenarioUrls.containsKey(scenario)) {
            return scenarioUrls.get(scenario);
        }
        if (planTarget != null) {
            return planTarget;
        }
        return scenarioUrls.isEmpty() ? null : String.join(", ", new LinkedHashSet<>(scenarioUrls.values()));
    }

    /** The last ENVIRONMENT marker's facts. */
    void environment(Map<String, Object> facts) {
        environment = facts;
    }

    /** The last ENVIRONMENT marker's facts, or null. */
    Map<String, Object> environment() {
        return environment;
    }

    /** The denominator phase's rows/s. */
    void denominator(double rowsPerSec) {
        denominatorRowsPerSec = rowsPerSec;
    }

    /** Steps that failed (a phase whose PHASE_END carries {@code failed}): phase -> the rig's one line. */
    private final java.util.Map<String, String> failedSteps = new java.util.LinkedHashMap<>();

    /** A phase ended: the denominator's rows/s, or the line of a step that failed. */
    void phaseEnded(String phase, io.rigscope.model.wire.PhaseEnd end) {
        if ("denominator".equals(phase) && end.rowsPerSec() != null) {
            denominator(end.rowsPerSec());
        }
        if (phase != null && end.other().get("failed") instanceof String line) {
            failedSteps.put(phase, line);
        }
    }

    /** The steps that failed, in the order they ended. */
    java.util.Map<String, String> failedSteps() {
        return java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(failedSteps));
    }

    /** The denominator phase's rows/s (pgbench), or null. */
    Double denominatorRowsPerSec() {
        return denominatorRowsPerSec;
    }
}
