package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.episode.Cause;
import io.rigscope.analyzer.episode.Confidence;
import io.rigscope.analyzer.episode.Evidence;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code generator}: the instrument, not the server. A JVM pause or an event-loop lag of the generator of at
 * least {@code attribution_generator_pause_ms} in the seconds from one before the episode to its end
 * ({@code rig.health}). It covers the episode, and is attributed, when it is at least
 * {@code attribution_cover_share} of the episode's worst request: a stalled loop stamps its replies late by
 * about its stall, so a 130 ms pause cannot explain a 1.7 s request; a shorter stall is reported as most likely
 * (it also disturbed the instrument). Defining: rig.health.
 */
public final class GeneratorRule implements CauseRule {

    @Override
    public Cause cause() {
        return Cause.GENERATOR;
    }

    @Override
    public String fingerprint() {
        return "the generator's JVM pause or event-loop lag >= attribution_generator_pause_ms within 1 s of the episode, "
                + ">= attribution_cover_share of its worst request";
    }

    @Override
    public Optional<Finding> examine(EpisodeScene scene) {
        double limitMs = scene.settings().generatorPauseUs() / 1000.0;
        long worstSec = 0;
        double worstMs = 0;
        String what = null;
        for (Map.Entry<Long, double[]> e : scene.health().subMap(scene.startSec() - 1, true, scene.endSec(), true)
                .entrySet()) {
            double pause = e.getValue()[0];
            double lag = e.getValue()[1];
            if (pause > worstMs) {
                worstMs = pause;
                worstSec = e.getKey();
                what = "jvm_pause_ms";
            }
            if (lag > worstMs) {
                worstMs = lag;
                worstSec = e.getKey();
                what = "loop_lag_ms";
            }
        }
        if (what == null || worstMs < limitMs) {
            return Optional.empty();
        }
        String kind = what.equals("jvm_pause_ms") ? "JVM pause" : "event-loop lag";
        double episodeWorstMs = scene.episode().worstMs();
        boolean covers = worstMs >= scene.settings().coverShare() * episodeWorstMs;
        return Optional.of(new Finding(Cause.GENERATOR, covers ? Confidence.ATTRIBUTED : Confidence.MOST_LIKELY,
                List.of(Evidence.measured("rig.health", worstSec * 1_000_000L, what, worstMs, "ms", "generator " + kind
                        + " " + WaitProfile.round(worstMs) + " ms in second " + worstSec + " (>= " + limitMs + " ms), "
                        + (covers ? "covering" : "short of") + " the episode's worst request " + episodeWorstMs
                        + " ms: the instrument stalled")), List.of()));
    }
}
