package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.episode.Cause;
import io.rigscope.analyzer.episode.Confidence;
import io.rigscope.analyzer.episode.Evidence;
import io.rigscope.analyzer.telemetry.TelemetryStream;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code wal_pool}: a backend creating a WAL segment: short commit freezes, recurring every few seconds, p50
 * flat.
 * <ul>
 *   <li>attributed: {@code IO:WALInitWrite} or {@code IO:WALInitSync} among the active sessions around the
 *       episode ({@code rig.waits}) and the WAL file count rising across it ({@code rig.db} walDir.files), with
 *       no vacuum around it (the control);</li>
 *   <li>most likely: one of the two with the other's stream missing; or both while a vacuum ran; or the file
 *       count rising in a rhythm of 3-12 s episodes without the waits stream.</li>
 * </ul>
 * The log's "N WAL file(s) added" counts only the checkpointer's preallocation, never a backend's own creation:
 * it is not used.
 */
public final class WalPoolRule implements CauseRule {

    @Override
    public Cause cause() {
        return Cause.WAL_POOL;
    }

    @Override
    public String fingerprint() {
        return "IO:WALInitWrite/IO:WALInitSync waits and the WAL file count rising around the episode, no vacuum";
    }

    @Override
    public Optional<Finding> examine(EpisodeScene scene) {
        WaitProfile waits = new WaitProfile(scene.around(TelemetryStream.WAITS, Waits.class));
        boolean waitsCovered = scene.covered(TelemetryStream.WAITS);
        boolean dbCovered = scene.covered(TelemetryStream.DB);
        boolean init = waits.sessions(WaitProfile.WAL_INIT) > 0;
        List<DbSample> db = scene.around(TelemetryStream.DB, DbSample.class);
        Integer firstFiles = null;
        Integer maxFiles = null;
        long risingTs = 0;
        for (DbSample d : db) {
            if (d.walDir() == null) {
                continue;
            }
            int files = d.walDir().files();
            if (firstFiles == null) {
                firstFiles = files;
            }
            if (maxFiles == null || files > maxFiles) {
                maxFiles = files;
                risingTs = d.ts();
            }
        }
        boolean rose = firstFiles != null && maxFiles > firstFiles;
        Long period = scene.cadence().dominantPeriodSec();
        boolean rhythm = period != null && period >= 3 && period <= 12;
        List<Evidence> evidence = new ArrayList<>();
        if (init) {
            evidence.add(Evidence.measured("rig.waits", scene.startSec() * 1_000_000L, "wal_init_sessions",
                    WaitProfile.round(waits.sessions(WaitProfile.WAL_INIT)), "sessions", "backends creating a WAL "
                            + "segment (" + waits.describe(WaitProfile.WAL_INIT) + "), others on WAL ("
                            + waits.describe(WaitProfile.WAL) + "), " + scene.within(TelemetryStream.WAITS)));
        }
        if (rose) {
            evidence.add(Evidence.measured("rig.db", risingTs, "wal_files", maxFiles, "files", "WAL files "
                    + firstFiles + " -> " + maxFiles + " across the episode, " + scene.within(TelemetryStream.DB)));
        }
        if (rhythm) {
            evidence.add(new Evidence("rig.samples", null, "freeze_cadence_s", (double) period, "s",
                    "freeze-seconds recur every " + period + " s in this repeat"));
        }
        Confidence confidence;
        List<String> lacking = new ArrayList<>();
        if (init && rose) {
            confidence = Confidence.ATTRIBUTED;
        } else if (init && !dbCovered) {
            confidence = Confidence.MOST_LIKELY;
            lacking.add("rig.db");
        } else if (rose && !waitsCovered && rhythm) {
            confidence = Confidence.MOST_LIKELY;
            lacking.add("rig.waits");
        } else if (init && rhythm) {
            confidence = Confidence.MOST_LIKELY;
        } else {
            return Optional.empty();
        }
        Finding finding = new Finding(Cause.WAL_POOL, confidence, evidence, lacking);
        Vacuums vacuums = new Vacuums(scene);
        if (vacuums.seen()) {
            finding = finding.capped(Confidence.MOST_LIKELY, new Evidence("rig.pglog", "control failed: a vacuum ran "
                    + "around the episode, whose WAL also fills segments"));
        }
        return Optional.of(finding);
    }
}
