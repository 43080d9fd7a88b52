package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;
import java.util.List;

/**
 * Names an episode's cause from its {@link EpisodeScene}. Implementations join the episode, by time with a
 * stated tolerance, with the telemetry the series delivered, and return {@link Episode#attributed}; they never
 * guess silently. Called on the analysis thread when a repeat is judged; must be deterministic (same input,
 * same answer) so replays agree.
 */
@FunctionalInterface
public interface Attributor {

    /** The scene's episode, attributed (or left unattributed with the reason in its evidence). */
    Episode attribute(EpisodeScene scene);

    /** Every rule of docs/attribution.md, with the controls ({@link Attribution}). The analyzer's default. */
    static Attributor standard() {
        return Attribution.standard()::attribute;
    }

    /**
     * Leaves every episode {@code unattributed}, listing as missing only the telemetry streams that really had no
     * record over its span. For measuring the analyzer without attribution.
     */
    static Attributor none() {
        return scene -> scene.episode().attributed(Cause.UNATTRIBUTED, Confidence.UNATTRIBUTED, List.of(),
                scene.telemetry().lacking(scene.startSec(), scene.endSec()));
    }

    /**
     * The episode with its lever, computed by its cause's row of {@link CauseSpec} from the scene it was attributed
     * in; unchanged when it has no cause (unattributed).
     */
    static Episode withLever(Episode attributed, EpisodeScene scene, LeverContext context) {
        return Attribution.withLever(attributed, scene, context);
    }

    /** One lever per cause across a repeat's episodes ({@link Levers#onePerCause}); the order of the list is kept. */
    static List<Episode> onePerCause(List<Episode> episodes) {
        return Levers.onePerCause(episodes);
    }
}
