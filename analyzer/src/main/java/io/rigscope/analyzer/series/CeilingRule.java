package io.rigscope.analyzer.series;

import io.rigscope.analyzer.decision.Ceiling;
import io.rigscope.analyzer.second.ScenarioSeconds;

/** Takes a ceiling's figures from its repeat's primary scenario ({@link Ceiling} states the rule). Pure. */
final class CeilingRule {

    private CeilingRule() {
    }

    /**
     * @param rep the ceiling's repeat number
     * @param primary the primary scenario's seconds, or null (then every rate is 0)
     * @param scheduledMs the run's scheduled duration from its REPEAT_START marker, or 0 when unknown
     */
    public static Ceiling of(int rep, ScenarioSeconds primary, long scheduledMs) {
        if (primary == null || primary.totals().count() == 0) {
            return new Ceiling(rep, primary == null ? null : primary.scenario(), scheduledMs / 1000.0, 0, 0,
                    primary == null ? 0 : primary.totals().failed(), null);
        }
        double sec = scheduledMs > 0 ? scheduledMs / 1000.0
                : Math.max(1e-6, (primary.totals().lastEndUs() - primary.totals().firstIntendedStartUs()) / 1e6);
        return new Ceiling(rep, primary.scenario(), sec, (primary.totals().count() - primary.totals().failed()) / sec,
                primary.totals().claimedEvents() / sec, primary.totals().failed(), null);
    }
}
