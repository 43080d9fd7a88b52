package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.episode.Cause;
import io.rigscope.analyzer.episode.Confidence;
import io.rigscope.analyzer.episode.Evidence;
import io.rigscope.analyzer.telemetry.TelemetryStream;
import io.rigscope.model.wire.Canary;
import java.util.List;
import java.util.Optional;

/**
 * {@code host_io}: the disk itself stops. The disk canary (a write+fsync every few ms on the data filesystem)
 * has a write+fsync of at least {@code attribution_canary_stall_ms} within its tolerance of the episode (its
 * stalled intervals, canary periods with no fsync completing, are reported beside it; a 15 ms fsync already
 * stalls two 5-ms intervals, so they are not a test on their own). It is attributed when the stall covers the
 * episode (at least {@code attribution_cover_share} of its worst request), most likely when shorter (the host
 * was struggling, but that alone does not explain the episode). Defining: rig.canary. {@link Attribution}
 * names it only when no Postgres cause is attributed (a vacuum's or checkpoint's own writes also slow the
 * canary).
 */
public final class HostIoRule implements CauseRule {

    @Override
    public Cause cause() {
        return Cause.HOST_IO;
    }

    @Override
    public String fingerprint() {
        return "a disk-canary write+fsync >= attribution_canary_stall_ms around the episode,"
                + " nothing in Postgres to explain it";
    }

    @Override
    public Optional<Finding> examine(EpisodeScene scene) {
        List<Canary> canary = scene.around(TelemetryStream.CANARY, Canary.class);
        Canary worst = null;
        int stalled = 0;
        for (Canary c : canary) {
            stalled += c.stalledIntervals();
            if (worst == null || c.fsyncMaxUs() > worst.fsyncMaxUs()) {
                worst = c;
            }
        }
        if (worst == null || worst.fsyncMaxUs() < scene.settings().canaryStallUs()) {
            return Optional.empty();
        }
        double ms = worst.fsyncMaxUs() / 1000.0;
        boolean covers = ms >= scene.settings().coverShare() * scene.episode().worstMs();
        return Optional.of(new Finding(Cause.HOST_IO, covers ? Confidence.ATTRIBUTED : Confidence.MOST_LIKELY,
                List.of(Evidence.measured("rig.canary", worst.ts(), "fsync_max_ms", ms, "ms", "disk canary write+fsync "
                        + ms + " ms, " + stalled + " stalled interval(s) on " + worst.path() + " ("
                        + scene.within(TelemetryStream.CANARY) + "), " + (covers ? "covering" : "short of")
                        + " the episode's worst request " + scene.episode().worstMs() + " ms")), List.of()));
    }
}
