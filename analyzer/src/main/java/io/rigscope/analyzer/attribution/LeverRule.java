package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Lever;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;

/**
 * One cause's lever (docs/attribution.md, Levers): from an attributed episode, the scene it was attributed in and
 * the series' environment, what to change, with the arithmetic in {@link Lever#why()}. Each cause's row of
 * {@code io.rigscope.analyzer.attribution.CauseSpec} names its lever. Pure and deterministic.
 */
interface LeverRule {

    /** The episode's lever; {@link Lever#notMeasured} when its inputs were not measured. */
    Lever lever(Episode e, EpisodeScene scene, LeverContext context);
}
