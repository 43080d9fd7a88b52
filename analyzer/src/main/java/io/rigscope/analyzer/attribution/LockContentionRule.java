package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.Waits;
import java.util.List;
import java.util.Optional;

/**
 * {@code lock_contention}: a hot row. At least {@code attribution_lock_share} of the active sessions around
 * the episode wait on {@code Lock:transactionid}, {@code Lock:tuple}, {@code Lock:relation} or
 * {@code LWLock:LockManager} ({@code rig.waits}). Defining: rig.waits.
 */
final class LockContentionRule implements CauseRule {

    @Override
    public Cause cause() {
        return Cause.LOCK_CONTENTION;
    }

    @Override
    public String fingerprint() {
        return "lock waits (Lock:transactionid, Lock:tuple, Lock:relation, LWLock:LockManager) >= "
                + "attribution_lock_share of active sessions around the episode";
    }

    @Override
    public Optional<Finding> examine(EpisodeScene scene) {
        WaitProfile waits = new WaitProfile(scene.around(TelemetryStream.WAITS, Waits.class));
        if (waits.empty() || waits.total() <= 0) {
            return Optional.empty();
        }
        double share = waits.share(WaitProfile.LOCK);
        if (share < scene.settings().lockShare()) {
            return Optional.empty();
        }
        long ts = scene.startSec() * 1_000_000L;
        return Optional.of(new Finding(Cause.LOCK_CONTENTION, Confidence.ATTRIBUTED, List.of(Evidence.measured(
                "rig.waits", ts, "lock_share", WaitProfile.round(share), "fraction",
                WaitProfile.round(waits.sessions(WaitProfile.LOCK)) + " of " + WaitProfile.round(waits.total())
                        + " active sessions on locks (" + waits.describe(WaitProfile.LOCK) + "), "
                        + scene.within(TelemetryStream.WAITS))), List.of()));
    }
}
