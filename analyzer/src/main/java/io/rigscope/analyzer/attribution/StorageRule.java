package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.CloudWatchPoint;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code storage}: the volume at its ceiling. An average disk queue of at least {@code attribution_queue_depth}
 * ({@code rig.os} avgQueueLen, or CloudWatch {@code DiskQueueDepth}) with requests taking at least
 * {@code attribution_await_ms} ({@code rig.os} await) around the episode.
 * <ul>
 *   <li>attributed: that, with Postgres writing data files at the time: {@code IO:DataFileSync} or
 *       {@code IO:DataFileFlush} among the active sessions, or a checkpoint completing around it;</li>
 *   <li>most likely: the queue and request time alone; or the queue from CloudWatch {@code DiskQueueDepth}, read
 *       only when no {@code rig.os} record covers the episode: a 60-s average cannot place itself in the
 *       episode's seconds, so that finding is at most most likely and {@link Finding#coarse() coarse} (it never
 *       outranks per-second or per-event evidence); or, with no {@code rig.os} over the episode, a checkpoint's
 *       logged sync phase over it with one file's fsync at least {@code attribution_cover_share} of the worst
 *       request ({@link #slowCheckpointSync}).</li>
 * </ul>
 */
final class StorageRule implements CauseRule {

    @Override
    public Cause cause() {
        return Cause.STORAGE;
    }

    @Override
    public String fingerprint() {
        return "disk queue >= attribution_queue_depth with await >= attribution_await_ms around the episode, "
                + "at a checkpoint's sync or data-file flush";
    }

    @Override
    public Optional<Finding> examine(EpisodeScene scene) {
        double queue = 0;
        double await = 0;
        long queueTs = 0;
        String device = null;
        for (OsMetrics os : scene.around(TelemetryStream.OS, OsMetrics.class)) {
            for (OsMetrics.DiskIO d : os.diskIO()) {
                if (d.avgQueueLen() > queue) {
                    queue = d.avgQueueLen();
                    queueTs = os.ts();
                    device = d.device();
                }
                await = Math.max(await, d.await());
            }
        }
        boolean fromCloudWatch = false;
        int cloudWatchPeriodSec = 0;
        boolean osCovered = scene.covered(TelemetryStream.OS);
        // a 60-s CloudWatch average never overrides the per-second device view: only without rig.os is it read
        for (CloudWatchPoint p : osCovered ? List.<CloudWatchPoint>of()
                : scene.around(TelemetryStream.CLOUDWATCH, CloudWatchPoint.class)) {
            if ("DiskQueueDepth".equals(p.metric()) && p.value() > queue) {
                queue = p.value();
                queueTs = p.ts();
                device = "CloudWatch DiskQueueDepth";
                fromCloudWatch = true;
                cloudWatchPeriodSec = p.periodSec();
            }
        }
        boolean awaitHigh = await >= scene.settings().awaitMs() || fromCloudWatch && !osCovered;
        if (queue < scene.settings().queueDepth() || !awaitHigh) {
            return osCovered ? Optional.empty() : slowCheckpointSync(scene);
        }
        List<Evidence> evidence = new ArrayList<>();
        evidence.add(Evidence.measured(fromCloudWatch ? "rig.cloudwatch" : "rig.os", queueTs, "queue_depth", queue,
                "requests", "disk queue " + WaitProfile.round(queue) + " on " + device + ", await "
                        + WaitProfile.round(await) + " ms, " + scene.within(fromCloudWatch ? TelemetryStream.CLOUDWATCH
                        : TelemetryStream.OS)));
        WaitProfile waits = new WaitProfile(scene.around(TelemetryStream.WAITS, Waits.class));
        boolean syncing = waits.sessions(WaitProfile.DATA_SYNC) > 0;
        if (syncing) {
            evidence.add(new Evidence("rig.waits", "sessions flushing data files (" + waits.describe(WaitProfile.DATA_SYNC)
                    + ")"));
        }
        for (PgLogEvent e : scene.around(TelemetryStream.PGLOG, PgLogEvent.class)) {
            if (e.kind() == PgLogEvent.Kind.CHECKPOINT_COMPLETE) {
                syncing = true;
                evidence.add(Evidence.measured("rig.pglog", e.ts(), "checkpoint_sync_s",
                        e.metrics().getOrDefault("sync_s", 0.0), "s", "checkpoint complete: " + e.message()));
            }
        }
        if (fromCloudWatch) {
            evidence.add(new Evidence("rig.cloudwatch", "a " + cloudWatchPeriodSec + "-s CloudWatch average cannot place the queue "
                    + "in the episode's seconds: at most most likely, ranked below per-second and per-event evidence"));
            return Optional.of(new Finding(Cause.STORAGE, Confidence.MOST_LIKELY, evidence, List.of("rig.os"), true));
        }
        return Optional.of(new Finding(Cause.STORAGE, syncing ? Confidence.ATTRIBUTED : Confidence.MOST_LIKELY,
                evidence, List.of()));
    }

    /**
     * Without a device view over the episode: a checkpoint whose sync phase ({@code [ts - sync_s, ts]} from its
     * "checkpoint complete" line) overlaps the episode and one of whose file fsyncs took at least
     * {@code attribution_cover_share} of the episode's worst request ({@code longest=}): the volume completed
     * Postgres's own writes that slowly while the requests froze. Per-event evidence, so not coarse; most likely
     * at best (the queue is not seen), {@code rig.os} missing.
     */
    private static Optional<Finding> slowCheckpointSync(EpisodeScene scene) {
        int tol = scene.telemetry().toleranceSec(TelemetryStream.PGLOG);
        long fromUs = (scene.startSec() - tol) * 1_000_000L;
        long toUs = (scene.endSec() + tol) * 1_000_000L;
        double needS = scene.settings().coverShare() * scene.episode().worstMs() / 1000.0;
        PgLogEvent slowest = null;
        for (PgLogEvent e : scene.telemetry().records(TelemetryStream.PGLOG, scene.startSec() - tol,
                scene.endSec() + tol + 600, PgLogEvent.class)) {
            double sync = e.metrics().getOrDefault("sync_s", 0.0);
            double longest = e.metrics().getOrDefault("sync_longest_s", 0.0);
            long syncStartUs = e.ts() - Math.round(sync * 1_000_000L);
            if (e.kind() == PgLogEvent.Kind.CHECKPOINT_COMPLETE && longest > 0 && longest >= needS
                    && syncStartUs <= toUs && e.ts() >= fromUs
                    && (slowest == null || longest > slowest.metrics().get("sync_longest_s"))) {
                slowest = e;
            }
        }
        if (slowest == null) {
            return Optional.empty();
        }
        List<Evidence> evidence = new ArrayList<>();
        double longest = slowest.metrics().get("sync_longest_s");
        evidence.add(Evidence.measured("rig.pglog", slowest.ts(), "checkpoint_sync_longest_s", longest, "s",
                "a checkpoint's sync phase over the episode: one file's fsync took " + longest + " s (sync "
                        + slowest.metrics().getOrDefault("sync_s", 0.0) + " s in all, ending at its log line), "
                        + "the volume completing Postgres's own writes that slowly (" + scene.within(TelemetryStream.PGLOG)
                        + ")"));
        for (CloudWatchPoint p : scene.around(TelemetryStream.CLOUDWATCH, CloudWatchPoint.class)) {
            if (p.metric().equals("DiskQueueDepth") || p.metric().equals("WriteLatency")) {
                evidence.add(new Evidence("rig.cloudwatch", p.metric() + " " + WaitProfile.round(p.value()) + " over "
                        + p.periodSec() + " s (a 60-s average: corroborates, never decides)"));
            }
        }
        return Optional.of(new Finding(Cause.STORAGE, Confidence.MOST_LIKELY, evidence, List.of("rig.os")));
    }
}
