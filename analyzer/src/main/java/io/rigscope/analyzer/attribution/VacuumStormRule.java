package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code vacuum_storm}: an autovacuum (or VACUUM) writing a burst of WAL, mostly full-page images, while the
 * committers wait on WAL and the whole service slows (p50 lifts).
 * <ul>
 *   <li>attributed: a vacuum around the episode ({@code rig.pglog} completion overlapping it, or a
 *       {@code rig.db} progress row), at least {@code attribution_wal_wait_share} of the active sessions on
 *       {@code LWLock:WALWrite}, {@code LWLock:WALInsert}, {@code IO:WALWrite} or {@code IO:WALSync}, and the
 *       disk's view over the episode ({@code rig.os}: write IOPS, average request size, queue depth), which is
 *       defining evidence: without a {@code rig.os} record over the episode the finding is at most most likely,
 *       {@code rig.os} missing. Its values corroborate and are reported; they are not thresholds (on EBS-like
 *       volumes the request size collapses and the queue grows; on a local disk the size does not collapse);</li>
 *   <li>most likely: the vacuum and the WAL waits without {@code rig.os}; the vacuum with the p50 lifted, or
 *       with a burst of WAL ({@link Vacuums#walBurst()}), but no {@code rig.waits} over the episode; the vacuum's
 *       burst with the waits not on WAL while the disk is at its ceiling ({@link StorageRule} fits: storage is the
 *       vacuum's mechanism, ranked as its secondary by {@link Attribution}); or WAL waits with the p50 lifted while neither the log nor the sampler
 *       covered the episode (a vacuum could not be seen).</li>
 * </ul>
 */
final class VacuumStormRule implements CauseRule {

    @Override
    public Cause cause() {
        return Cause.VACUUM_STORM;
    }

    @Override
    public String fingerprint() {
        return "a vacuum around the episode (log completion or progress row) with >= attribution_wal_wait_share of "
                + "active sessions waiting on WAL, the disk's view (rig.os) over it; p50 lifts";
    }

    @Override
    public Optional<Finding> examine(EpisodeScene scene) {
        Vacuums vacuums = new Vacuums(scene);
        boolean waitsCovered = scene.covered(TelemetryStream.WAITS);
        WaitProfile waits = new WaitProfile(scene.around(TelemetryStream.WAITS, Waits.class));
        double walShare = waits.share(WaitProfile.WAL);
        boolean walWaits = walShare >= scene.settings().walWaitShare();
        List<Evidence> evidence = new ArrayList<>(vacuums.evidence);
        if (walShare > 0) {
            evidence.add(Evidence.measured("rig.waits", scene.startSec() * 1_000_000L, "wal_wait_share",
                    WaitProfile.round(walShare), "fraction", WaitProfile.round(waits.sessions(WaitProfile.WAL))
                            + " of " + WaitProfile.round(waits.total()) + " active sessions waiting on WAL ("
                            + waits.describe(WaitProfile.WAL) + "), " + scene.within(TelemetryStream.WAITS)));
        }
        evidence.add(new Evidence("rig.samples", null, "p50_lift", WaitProfile.round(scene.p50Lift()), "x",
                "episode p50 " + WaitProfile.round(scene.p50Lift()) + " x the repeat's, "
                        + Math.round(scene.slowShare() * 100) + " % of its requests slow"));
        Optional<Evidence> disk = diskView(scene);
        disk.ifPresent(evidence::add);
        if (vacuums.seen() && walWaits) {
            return Optional.of(disk.isPresent()
                    ? new Finding(Cause.VACUUM_STORM, Confidence.ATTRIBUTED, evidence, List.of())
                    : new Finding(Cause.VACUUM_STORM, Confidence.MOST_LIKELY, evidence, List.of("rig.os")));
        }
        if (vacuums.seen() && !waitsCovered && (scene.p50Lifted() || vacuums.walBurst())) {
            return Optional.of(new Finding(Cause.VACUUM_STORM, Confidence.MOST_LIKELY, evidence,
                    List.of("rig.waits")));
        }
        if (vacuums.walBurst()) {
            Optional<Finding> storage = new StorageRule().examine(scene);
            if (storage.isPresent()) {
                evidence.add(new Evidence("attribution", "the disk at its ceiling is the vacuum's WAL burst: storage is "
                        + "its mechanism (" + storage.get().evidence().get(0).text() + ")"));
                return Optional.of(new Finding(Cause.VACUUM_STORM, Confidence.MOST_LIKELY, evidence, List.of()));
            }
        }
        if (vacuums.blind() && walWaits && scene.p50Lifted()) {
            return Optional.of(new Finding(Cause.VACUUM_STORM, Confidence.MOST_LIKELY, evidence,
                    List.of("rig.pglog", "rig.db")));
        }
        return Optional.empty();
    }

    /**
     * The disk's view over the episode from {@code rig.os}: the busiest device's peak write IOPS, the range of its
     * average request size and its deepest queue; empty when no record covers the episode.
     */
    static Optional<Evidence> diskView(EpisodeScene scene) {
        List<OsMetrics> around = scene.around(TelemetryStream.OS, OsMetrics.class);
        OsMetrics.DiskIO busiest = null;
        long busiestTs = 0;
        double minReqSzKb = Double.MAX_VALUE;
        double maxReqSzKb = 0;
        double maxQueue = 0;
        for (OsMetrics os : around) {
            for (OsMetrics.DiskIO d : os.diskIO()) {
                if (busiest == null || d.writeIOsPS() > busiest.writeIOsPS()) {
                    busiest = d;
                    busiestTs = os.ts();
                }
            }
        }
        if (busiest == null) {
            return Optional.empty();
        }
        for (OsMetrics os : around) {
            for (OsMetrics.DiskIO d : os.diskIO()) {
                if (d.device().equals(busiest.device())) {
                    minReqSzKb = Math.min(minReqSzKb, d.avgReqSz());
                    maxReqSzKb = Math.max(maxReqSzKb, d.avgReqSz());
                    maxQueue = Math.max(maxQueue, d.avgQueueLen());
                }
            }
        }
        return Optional.of(Evidence.measured("rig.os", busiestTs, "write_iops", WaitProfile.round(
                busiest.writeIOsPS()), "IO/s", "disk " + busiest.device() + ": write IOPS up to "
                 + WaitProfile.round(busiest.writeIOsPS()) + ", average request " + WaitProfile.round(minReqSzKb)
                + "-" + WaitProfile.round(maxReqSzKb) + " KB, queue up to " + WaitProfile.round(maxQueue) + ", " + scene.within(
                TelemetryStream.OS)));
    }
}
