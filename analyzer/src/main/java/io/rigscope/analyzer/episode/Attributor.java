package io.rigscope.analyzer.episode;

import java.util.List;

/**
 * Names an episode's cause. Implementations join the episode, by time with a stated tolerance, with the
 * telemetry streams they hold, and return {@link Episode#attributed}; they never guess silently. Called on
 * the analysis thread when a repeat closes; must be deterministic (same input, same answer) so replays agree.
 */
@FunctionalInterface
public interface Attributor {

    /** The episode, attributed (or left unattributed with the reason in its evidence). */
    Episode attribute(Episode episode);

    /** Leaves every episode {@code unattributed}: no telemetry is joined yet. */
    static Attributor none() {
        return e -> e.attributed(Cause.UNATTRIBUTED, Confidence.UNATTRIBUTED, List.of(),
                List.of("rig.waits", "rig.db", "rig.pglog", "rig.os", "rig.vmstat", "rig.canary"));
    }
}
