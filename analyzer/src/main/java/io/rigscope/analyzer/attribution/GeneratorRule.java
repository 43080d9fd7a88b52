package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.Vmstat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code generator}: the instrument, not the server. A JVM pause or an event-loop lag of the generator of at
 * least {@code attribution_generator_pause_ms} in the seconds from one before the episode to its end
 * ({@code rig.health}). It covers the episode, and is attributed, when it is at least
 * {@code attribution_cover_share} of the episode's worst request: a stalled loop stamps its replies late by
 * about its stall, so a 130 ms pause cannot explain a 1.7 s request; a shorter stall is reported as most likely
 * (it also disturbed the instrument). Defining: rig.health. Without any health record over the episode, the
 * generator host's vmstat ({@code attribution_generator_hosts}) with CPU idle below
 * {@code attribution_generator_idle_pct} or any steal makes it most likely (a starved generator).
 */
final class GeneratorRule implements CauseRule {

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
        if (scene.health().subMap(scene.startSec() - 1, true, scene.endSec(), true).isEmpty()) {
            return starvedHost(scene);
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
                        + " ms: the instrument stalled")), List.of(), false, !covers, worstMs / episodeWorstMs));
    }

    /**
     * Without the generator's health: its host's vmstat ({@code attribution_generator_hosts}) within its tolerance
     * of the episode with CPU idle below {@code attribution_generator_idle_pct} or any steal: a starved generator
     * (k6 and other generators that publish no health) stamps its requests late. Most likely: a busy CPU does not
     * prove a stall.
     */
    private static Optional<Finding> starvedHost(EpisodeScene scene) {
        List<String> hosts = scene.settings().generatorHosts();
        if (hosts.isEmpty()) {
            return Optional.empty();
        }
        Vmstat worst = null;
        for (Vmstat v : scene.around(TelemetryStream.VMSTAT, Vmstat.class)) {
            int at = v.src().indexOf('@');
            if (at < 0 || !hosts.contains(v.src().substring(at + 1))) {
                continue;
            }
            boolean starved = v.id() < scene.settings().generatorIdlePct() || v.st() > 0;
            if (starved && (worst == null || v.id() - v.st() < worst.id() - worst.st())) {
                worst = v;
            }
        }
        if (worst == null) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Cause.GENERATOR, Confidence.MOST_LIKELY, List.of(Evidence.measured(
                "rig.vmstat", worst.ts(), "generator_host_idle_pct", worst.id(), "%", "the generator host "
                        + worst.src() + " had CPU idle " + worst.id() + " % (us " + worst.us() + ", sy " + worst.sy()
                        + ", steal " + worst.st() + " %, run queue " + worst.r() + "), "
                        + scene.within(TelemetryStream.VMSTAT) + ": the instrument may have been starved")),
                List.of("rig.health")));
    }
}
