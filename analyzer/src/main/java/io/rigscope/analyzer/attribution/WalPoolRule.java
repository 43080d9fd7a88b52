package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
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
 *       no vacuum around it (the control); or, where a 1-s session sampler missed the init wait, the count
 *       rising between two 1-s readings in the episode's seconds with no checkpoint completing and the
 *       committers on WAL waits then ({@link #segmentCreated}); or the init wait in this episode, one of a 3-12 s
 *       rhythm's freezes, and in most of them, with or without a file count ({@link #initInFreezes});</li>
 *   <li>most likely: one of the two with the other's stream missing; or both while a vacuum ran; or the file
 *       count rising in a rhythm of 3-12 s episodes without the waits stream; or, with neither the init wait nor
 *       the DB sampler, a device write burst of half a segment in the episode, in step with the rhythm
 *       ({@link #deviceBurst}).</li>
 * </ul>
 * The log's "N WAL file(s) added" counts only the checkpointer's preallocation, never a backend's own creation:
 * it is not used.
 */
final class WalPoolRule implements CauseRule {

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
        SegmentCreated created = init ? null : segmentCreated(scene, db);
        Long period = scene.cadence().dominantPeriodSec();
        boolean rhythm = period != null && period >= 3 && period <= 12;
        List<Evidence> evidence = new ArrayList<>();
        if (init) {
            evidence.add(Evidence.measured("rig.waits", scene.startSec() * 1_000_000L, "wal_init_sessions",
                    WaitProfile.round(waits.sessions(WaitProfile.WAL_INIT)), "sessions", "backends creating a WAL "
                            + "segment (" + waits.describe(WaitProfile.WAL_INIT) + "), others on WAL ("
                            + waits.describe(WaitProfile.WAL) + "), " + scene.within(TelemetryStream.WAITS)));
        }
        if (created != null) {
            evidence.add(Evidence.measured("rig.db", created.atUs(), "wal_files", created.files(), "files",
                    "WAL files " + (created.files() - 1) + " -> " + created.files() + " between two 1-s samples that "
                            + "meet the episode's seconds, no checkpoint completing between them (checkpoint "
                            + "counters unchanged): a segment created on the write path"));
            if (created.committersOnWal()) {
                evidence.add(Evidence.measured("rig.waits", created.atUs(), "wal_wait_share",
                        WaitProfile.round(created.waits().share(WaitProfile.WAL)), "fraction", "committers waiting on "
                                + "WAL while it was created (" + created.waits().describe(WaitProfile.WAL) + " of "
                                + WaitProfile.round(created.waits().total()) + " active sessions); a 1-s session "
                                + "sample did not catch IO:WALInitWrite/IO:WALInitSync, which last less than its "
                                + "interval"));
            } else {
                evidence.add(new Evidence("rig.waits", "the 1-s session samples around it showed no committer on "
                        + "WAL (" + WaitProfile.round(created.waits().total()) + " active sessions): a freeze shorter "
                        + "than the sampling interval can fall between two samples, so the creation is placed by the "
                        + "file count and the freeze rhythm only"));
            }
        } else if (rose) {
            evidence.add(Evidence.measured("rig.db", risingTs, "wal_files", maxFiles, "files", "WAL files "
                    + firstFiles + " -> " + maxFiles + " across the episode, " + scene.within(TelemetryStream.DB)));
        }
        if (rhythm) {
            evidence.add(new Evidence("rig.samples", null, "freeze_cadence_s", (double) period, "s",
                    "freeze-seconds recur every " + period + " s in this repeat"));
        }
        int[] inFreezes = init && rhythm && inRhythm(scene) ? initInFreezes(scene) : new int[] {0, 0};
        boolean initRhythm = inFreezes[1] >= 2 && 2 * inFreezes[0] > inFreezes[1];
        if (initRhythm) {
            evidence.add(Evidence.measured("rig.waits", scene.startSec() * 1_000_000L, "wal_init_freezes",
                    inFreezes[0], "freezes", "sessions on IO:WALInitWrite/IO:WALInitSync in " + inFreezes[0] + " of "
                            + "the " + inFreezes[1] + " freezes on the repeat's " + period + "-s rhythm with session "
                            + "samples (±1 s): a backend initialising a WAL segment at each freeze"));
        }
        Confidence confidence;
        List<String> lacking = new ArrayList<>();
        Vacuums vacuums = new Vacuums(scene);
        if (init && rose || created != null && created.committersOnWal() || initRhythm) {
            confidence = Confidence.ATTRIBUTED;
        } else if (created != null && rhythm && risesInStep(scene, created.atUs(), period)) {
            confidence = Confidence.MOST_LIKELY;
        } else if (init && !dbCovered) {
            confidence = Confidence.MOST_LIKELY;
            lacking.add("rig.db");
        } else if (rose && !waitsCovered && rhythm) {
            confidence = Confidence.MOST_LIKELY;
            lacking.add("rig.waits");
        } else if (init && rhythm) {
            confidence = Confidence.MOST_LIKELY;
        } else if (!init && created == null && !rose && rhythm && !dbCovered) {
            List<Evidence> burst = deviceBurst(scene, period, vacuums);
            if (burst.isEmpty()) {
                return Optional.empty();
            }
            evidence.addAll(burst);
            confidence = Confidence.MOST_LIKELY;
            lacking.add("rig.db");
        } else {
            return Optional.empty();
        }
        Finding finding = new Finding(Cause.WAL_POOL, confidence, evidence, lacking);
        if (vacuums.seen()) {
            finding = finding.capped(Confidence.MOST_LIKELY, new Evidence("rig.pglog", "control failed: a vacuum ran "
                    + "around the episode, whose WAL also fills segments"));
        }
        return Optional.of(finding);
    }

    /**
     * The freezes of the repeat's rhythm (the cadence's freeze events, each named by its first second; those
     * starting one or two periods, ±1 s, from another's start) and in how many of them a session waited on
     * {@code IO:WALInitWrite} or {@code IO:WALInitSync} in a {@code rig.waits} record of {@code [first - 1,
     * first + 2)}: {in, of}, counting only freezes with a session sample there. Freezes out of step (another
     * cause's) are not counted. A backend initialising a segment in most freezes of a rhythm is the mechanism
     * itself, whether or not a sampler counted the files.
     */
    private static int[] initInFreezes(EpisodeScene scene) {
        List<Long> starts = scene.cadence().events();
        long period = scene.cadence().dominantPeriodSec();
        int in = 0;
        int of = 0;
        for (long f : starts) {
            if (!inStep(starts, f, period)) {
                continue;
            }
            List<Waits> w = scene.telemetry().records(TelemetryStream.WAITS, f - 1, f + 2, Waits.class);
            if (w.isEmpty()) {
                continue;
            }
            of++;
            in += new WaitProfile(w).sessions(WaitProfile.WAL_INIT) > 0 ? 1 : 0;
        }
        return new int[] {in, of};
    }

    /** True when a freeze of the episode keeps the repeat's rhythm ({@link #inStep}). */
    private static boolean inRhythm(EpisodeScene scene) {
        List<Long> starts = scene.cadence().events();
        for (long f : starts) {
            if (f >= scene.startSec() && f < scene.endSec() && inStep(starts, f, scene.cadence().dominantPeriodSec())) {
                return true;
            }
        }
        return false;
    }

    /** True when another freeze starts one or two periods (±1 s) from this one's start: it keeps the rhythm. */
    private static boolean inStep(List<Long> starts, long f, long periodSec) {
        for (long g : starts) {
            long apart = Math.abs(g - f);
            if (g != f && (Math.abs(apart - periodSec) <= 1 || Math.abs(apart - 2 * periodSec) <= 1)) {
                return true;
            }
        }
        return false;
    }

    /** The smallest default {@code wal_segment_size} (initdb's; RDS's is 64 MB): half of it is the least burst counted. */
    static final long DEFAULT_SEGMENT_FLOOR_BYTES = 16L << 20;

    /**
     * Where neither the session sampler caught the init wait nor a DB sampler counted the files (RDS with
     * Performance Insights at 1 s, no DB sampler: the walwriter's own creations never show {@code IO:WALInitWrite},
     * and a 0.5-s creation falls between two 1-s samples about half the time), the device view places the
     * creation: a zero-filled segment is a burst of device writes. Most likely, never attributed (a device write
     * burst has other writers), when all of these hold:
     * <ul>
     *   <li>in the {@code rig.os} records of the episode's seconds (±1 s), one device wrote at least half a WAL
     *       segment ({@code wal_segment_size} from the ENVIRONMENT facts, else 16 MB, the smallest default) more
     *       than its median rate over the 10 s before;</li>
     *   <li>another such burst lies one or two freeze periods (±1 s) away: the bursts keep the freezes' rhythm;</li>
     *   <li>the session samples of those seconds show no more sessions waiting on locks or data files (another
     *       cause's fingerprint) than on WAL (CPU and the client are no cause's wait);</li>
     *   <li>no checkpoint completed and no vacuum burst ran around the episode (the Postgres log): both write
     *       bursts of their own.</li>
     * </ul>
     * The evidence to print, empty when any of these fails.
     */
    private static List<Evidence> deviceBurst(EpisodeScene scene, long periodSec, Vacuums vacuums) {
        long segment = scene.settingBytes("wal_segment_size").orElse(0);
        String segmentSource = segment > 0 ? "wal_segment_size " + (segment >> 20) + " MB"
                : "16 MB (wal_segment_size not in the environment; the smallest default)";
        long needKb = Math.max(segment, DEFAULT_SEGMENT_FLOOR_BYTES) / 2 / 1024;
        Burst now = burstAt(scene, scene.startSec() - 1, scene.endSec() + 1, needKb);
        if (now == null) {
            return List.of();
        }
        Long stepSec = null;
        for (int k = 1; k <= 2 && stepSec == null; k++) {
            for (int sign : new int[] {-1, 1}) {
                long centre = now.atSec() + sign * k * periodSec;
                Burst other = burstAt(scene, centre - 1, centre + 2, needKb);
                if (other != null) {
                    stepSec = other.atSec();
                    break;
                }
            }
        }
        if (stepSec == null) {
            return List.of();
        }
        WaitProfile waits = new WaitProfile(scene.telemetry().records(TelemetryStream.WAITS, scene.startSec() - 1,
                scene.endSec() + 1, Waits.class));
        double onWal = waits.sessions(WaitProfile.WAL);
        double onOtherCause = waits.sessions(WaitProfile.LOCK) + waits.sessions(WaitProfile.DATA_READ)
                + waits.sessions(WaitProfile.DATA_SYNC);
        if (onOtherCause > onWal) {
            return List.of();
        }
        for (PgLogEvent e : scene.around(TelemetryStream.PGLOG, PgLogEvent.class)) {
            if (e.kind() == PgLogEvent.Kind.CHECKPOINT_COMPLETE) {
                return List.of();
            }
        }
        if (vacuums.walBurst) {
            return List.of();
        }
        List<Evidence> evidence = new ArrayList<>();
        evidence.add(Evidence.measured("rig.os", now.atSec() * 1_000_000L, "device_write_burst_mb",
                WaitProfile.round(now.excessKb() / 1024.0), "MB", now.device() + " wrote "
                        + Math.round(now.excessKb() / 1024.0) + " MB above its median rate of the 10 s before, in "
                        + "the episode's seconds: at least half a WAL segment (" + segmentSource + ") zero-filled"));
        evidence.add(Evidence.measured("rig.os", stepSec * 1_000_000L, "device_burst_step_s",
                (double) Math.abs(stepSec - now.atSec()), "s", "another such burst " + Math.abs(stepSec - now.atSec())
                        + " s away, in step with the freezes every " + periodSec + " s"));
        evidence.add(new Evidence("rig.waits", onWal > 0
                ? "committers on WAL in the session samples of those seconds (" + waits.describe(WaitProfile.WAL)
                        + " of " + WaitProfile.round(waits.total()) + " active sessions), fewer on locks or data "
                        + "files, no IO:WALInitWrite caught"
                : "no session waiting in the session samples of those seconds (" + WaitProfile.round(waits.total())
                        + " active): a freeze shorter than the sampling interval fell between two samples"));
        evidence.add(new Evidence("rig.pglog", "no checkpoint completing and no vacuum burst around it"));
        return evidence;
    }

    /** A device's write burst: where, when (the record's second) and how much above its baseline, KB. */
    private record Burst(String device, long atSec, double excessKb) {
    }

    /**
     * The largest write burst of one device in the {@code rig.os} records of {@code [fromSec, toSec)}: its KB
     * written above its median rate over the 10 s before {@code fromSec}, summed over those records (each record
     * an interval of its own length, 1 s when the records are 1 s apart), when at least {@code needKb}.
     */
    private static Burst burstAt(EpisodeScene scene, long fromSec, long toSec, long needKb) {
        List<OsMetrics> before = scene.telemetry().records(TelemetryStream.OS, fromSec - 10, fromSec,
                OsMetrics.class);
        List<OsMetrics> in = scene.telemetry().records(TelemetryStream.OS, fromSec, toSec, OsMetrics.class);
        if (before.size() < 3 || in.isEmpty()) {
            return null;
        }
        Burst best = null;
        for (OsMetrics.DiskIO d : in.get(0).diskIO()) {
            String device = d.device();
            double[] base = before.stream().flatMap(o -> o.diskIO().stream()).filter(x -> x.device().equals(device))
                    .mapToDouble(OsMetrics.DiskIO::writeKbPS).sorted().toArray();
            if (base.length < 3) {
                continue;
            }
            double median = base[base.length / 2];
            double excess = 0;
            long peakSec = 0;
            double peak = -1;
            long prevUs = before.get(before.size() - 1).ts();
            for (OsMetrics o : in) {
                double intervalSec = Math.min(Math.max((o.ts() - prevUs) / 1e6, 0.5), 60);
                prevUs = o.ts();
                for (OsMetrics.DiskIO x : o.diskIO()) {
                    if (x.device().equals(device)) {
                        double over = Math.max(0, x.writeKbPS() - median) * intervalSec;
                        excess += over;
                        if (over > peak) {
                            peak = over;
                            peakSec = Math.floorDiv(o.ts(), 1_000_000L);
                        }
                    }
                }
            }
            if (excess >= needKb && (best == null || excess > best.excessKb())) {
                best = new Burst(device, peakSec, excess);
            }
        }
        return best;
    }

    /** A segment created in the episode, seen by 1-s samples: the sample that showed it and the waits then. */
    private record SegmentCreated(long atUs, int files, WaitProfile waits, boolean committersOnWal) {
    }

    /**
     * The segment's creation located in time without its own wait: the WAL file count rose between two DB
     * sampler readings at most 2 s apart whose interval meets the episode's seconds (±1 s), the checkpoint
     * counters did not change between them (a completing checkpoint preallocates files too), and in the
     * {@code rig.waits} records of that interval (±1 s) at least {@code attribution_wal_wait_share} of the active
     * sessions waited on WAL: the committers stood behind the one creating it. A session sampler at 1 s catches
     * {@code IO:WALInitWrite} only in proportion to how long it lasts (Performance Insights samples once a
     * second), so on RDS this is how the creation is seen. A rise without committers on WAL in those samples is
     * returned too ({@code committersOnWal} false: with the freeze rhythm and another rise in step with it
     * ({@link #risesInStep}) it is most likely, never attributed)
     * when no rise with them is found. Null when no such rise.
     */
    private static SegmentCreated segmentCreated(EpisodeScene scene, List<DbSample> db) {
        long fromUs = (scene.startSec() - 1) * 1_000_000L;
        long toUs = (scene.endSec() + 1) * 1_000_000L;
        SegmentCreated silent = null;
        for (Rise r : rises(db)) {
            if (r.before().ts() >= toUs || r.after().ts() <= fromUs) {
                continue;
            }
            long from = Math.floorDiv(r.before().ts(), 1_000_000L) - 1;
            long to = Math.floorDiv(r.after().ts(), 1_000_000L) + 2;
            WaitProfile waits = new WaitProfile(scene.telemetry().records(TelemetryStream.WAITS, from, to,
                    Waits.class));
            boolean onWal = waits.total() > 0 && waits.share(WaitProfile.WAL) >= scene.settings().walWaitShare();
            if (onWal) {
                return new SegmentCreated(r.after().ts(), r.after().walDir().files(), waits, true);
            }
            silent = silent != null ? silent
                    : new SegmentCreated(r.after().ts(), r.after().walDir().files(), waits, false);
        }
        return silent;
    }

    /**
     * True when another rise of the WAL file count ({@link #rises}) lies one or two freeze periods (±1.5 s) from
     * the one at {@code atUs}: the segments are created in step with the freezes, not once by chance beside them
     * (a fresh cluster creating its second segment in a noisy repeat is not a rhythm of creations).
     */
    private static boolean risesInStep(EpisodeScene scene, long atUs, long periodSec) {
        long reachSec = 2 * periodSec + 2;
        long atSec = Math.floorDiv(atUs, 1_000_000L);
        for (Rise r : rises(scene.telemetry().records(TelemetryStream.DB, atSec - reachSec - 2,
                atSec + reachSec + 2, DbSample.class))) {
            double apart = Math.abs(r.after().ts() - atUs) / 1e6;
            for (int k = 1; r.after().ts() != atUs && k <= 2; k++) {
                if (Math.abs(apart - k * periodSec) <= 1.5) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Two consecutive sampler readings between which the WAL file count rose. */
    private record Rise(DbSample before, DbSample after) {
    }

    /**
     * The rises of the WAL file count that place a segment's creation: between two consecutive readings with the
     * file count and checkpoint counters, at most 2 s apart, with no checkpoint completing between them.
     */
    private static List<Rise> rises(List<DbSample> db) {
        List<Rise> out = new ArrayList<>();
        DbSample prev = null;
        for (DbSample d : db) {
            if (d.walDir() == null || d.checkpoints() == null) {
                prev = null;
                continue;
            }
            if (prev != null && d.walDir().files() > prev.walDir().files() && d.ts() - prev.ts() <= 2_000_000L
                    && sameCheckpoints(prev.checkpoints(), d.checkpoints())) {
                out.add(new Rise(prev, d));
            }
            prev = d;
        }
        return out;
    }

    private static boolean sameCheckpoints(DbSample.Checkpoints a, DbSample.Checkpoints b) {
        return a.timed() == b.timed() && a.requested() == b.requested() && a.buffersWritten() == b.buffersWritten();
    }
}
