package io.rigscope.analyzer.episode;

import io.rigscope.analyzer.telemetry.TelemetryIndex;

/**
 * Names an episode's cause. Implementations join the episode, by time with a stated tolerance, with the
 * telemetry the series delivered, and return {@link Episode#attributed}; they never guess silently. Called on
 * the analysis thread when a repeat closes; must be deterministic (same input, same answer) so replays agree.
 */
@FunctionalInterface
public interface Attributor {

    /**
     * The episode, attributed (or left unattributed with the reason in its evidence).
     *
     * @param telemetry what each telemetry stream delivered, by second
     */
    Episode attribute(Episode episode, TelemetryIndex telemetry);

    /**
     * Leaves every episode {@code unattributed}, listing as missing only the telemetry streams that really had no
     * record over its span ({@link TelemetryIndex#lacking}).
     */
    static Attributor none() {
        return (e, telemetry) -> e.attributed(Cause.UNATTRIBUTED, Confidence.UNATTRIBUTED, java.util.List.of(),
                telemetry.lacking(e.startSec(), e.endSec()));
    }
}
