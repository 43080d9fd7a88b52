package io.rigscope.analyzer.series;

import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.attribution.Attributor;
import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.analyzer.repeat.RepeatJudge;
import io.rigscope.analyzer.repeat.RepeatTrack;
import io.rigscope.analyzer.second.ScenarioSeconds;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a live analysis shows before it is final: seconds still open (waiting for samples or a ledger) once event
 * time has passed them, and the running episode's cause with the telemetry so far. Replays decide none of these.
 * Not thread-safe: owned by one {@link SeriesAnalysis}.
 */
final class LiveProvisional {

    private final String series;
    private final Attributor attributor;
    private final TelemetryIndex telemetry;
    private final Supplier<Map<String, Object>> environment;

    /** @param environment the series' ENVIRONMENT facts so far (null or empty before the marker) */
    LiveProvisional(String series, Attributor attributor, TelemetryIndex telemetry,
                    Supplier<Map<String, Object>> environment) {
        this.series = series;
        this.attributor = attributor;
        this.telemetry = telemetry;
        this.environment = environment;
    }

    /**
     * The generator's health is a tick of event time: the repeat's seconds that ended before {@code beforeSec} and
     * are still open, each once, as provisional SECOND verdicts ({@code "final": false, "provisional": true}), so
     * a live dashboard sees a second that waits for its ledger.
     */
    List<Decision> openSeconds(RepeatTrack track, long beforeSec, FreezeRule rule) {
        List<Decision> out = new ArrayList<>();
        for (ScenarioSeconds s : track.scenarios().values()) {
            for (SecondStats stats : s.provisional(beforeSec, rule)) {
                out.add(new Decision.Second(series, track.rep(), s.scenario(), SeriesAnalysis.tsOf(stats.sec()), stats,
                        true));
            }
        }
        return out;
    }

    /**
     * The episode this freeze-second opens or extends (freeze-seconds {@code episode_gap_s} apart or closer join),
     * attributed with the telemetry so far.
     */
    Decision freeze(RepeatTrack t, String scenario, SecondStats s, AnalyzerSettings settings) {
        t.openEpisode(scenario, s.sec(), s.maxServiceUs() / 1000.0, settings.episodeGapSec());
        return episode(t, settings, true);
    }

    /**
     * Telemetry stamped {@code sec} that lands on a repeat's running episode (within a few seconds of its end) may
     * change its cause (the waits of a frozen second arrive after the second closed): a changed cause again.
     */
    List<Decision> revise(Collection<RepeatTrack> repeats, long sec, AnalyzerSettings settings) {
        List<Decision> out = new ArrayList<>();
        for (RepeatTrack t : repeats) {
            RepeatTrack.OpenEpisode open = t.currentEpisode();
            if (!t.judged() && open != null && sec >= open.startSec() - 2 && sec <= open.endSec() + 2) {
                Decision d = episode(t, settings, false);
                if (d != null) {
                    out.add(d);
                }
            }
        }
        return out;
    }

    private Decision episode(RepeatTrack t, AnalyzerSettings settings, boolean always) {
        RepeatTrack.OpenEpisode open = t.currentEpisode();
        String scenario = t.openScenario();
        Episode e = RepeatJudge.provisional(t, t.scenario(scenario), open, settings, attributor, telemetry,
                environment.get());
        boolean changed = t.provisionalChanged(e.cause().code() + "/" + e.confidence().code());
        return always || changed
                ? new Decision.EpisodeFound(series, t.rep(), scenario, SeriesAnalysis.tsOf(open.endSec() - 1), e, true)
                : null;
    }
}
