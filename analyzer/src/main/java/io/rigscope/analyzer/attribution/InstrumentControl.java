package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.Vmstat;
import java.util.ArrayList;
import java.util.List;

/**
 * The instrument control, checked before any server cause is named: was the load generator delivering the load
 * through the episode? Met by the first of these that holds (docs/attribution.md, Controls):
 * <ol>
 *   <li>the generator's own health ({@code rig.health}) from one second before the episode to its end;</li>
 *   <li>server-side evidence that load kept arriving, over the episode's runs of slow seconds (its freeze-seconds,
 *       consecutive ones joined; a window without one is one run): of the seconds from one before each run to its
 *       end, fewer than half with {@code rig.waits} active sessions (the second's records' mean, timers left out)
 *       at 0 or under {@link #LOAD_FLOOR_SHARE} of the load before the cause began ({@link LoadBaseline});</li>
 *   <li>or commits continuing: each run holds a whole {@code rig.db} sampler interval, and every interval wholly
 *       inside a run committed at least {@code attribution_commit_share} of the rate of the 10 s before the
 *       episode;</li>
 *   <li>the generator host's vmstat ({@code src} {@code vmstat@HOST}, HOST in {@code attribution_generator_hosts}):
 *       per-second lines over the episode, every one within the stream's tolerance with idle at least
 *       {@code attribution_generator_idle_pct} and steal 0.</li>
 * </ol>
 * A stalled generator stops the load: the server's sessions fall and its commits stop, so neither substitute is met
 * by a generator stall; the server stalling keeps them (requests pile up as sessions). Pure.
 */
final class InstrumentControl {

    /** How far before the episode its "before" level is taken, seconds. */
    static final int BEFORE_SEC = 10;

    private InstrumentControl() {
    }

    static Control check(EpisodeScene scene) {
        long start = scene.startSec();
        long end = scene.endSec();
        if (!scene.health().subMap(start - 1, true, end, true).isEmpty()) {
            return Control.byOwnStream();
        }
        List<String> why = new ArrayList<>();
        why.add("no generator health over the episode");
        Control sessions = sessions(scene, why);
        if (sessions != null) {
            return sessions;
        }
        Control commits = commits(scene, why);
        if (commits != null) {
            return commits;
        }
        Control vmstat = vmstat(scene, why);
        if (vmstat != null) {
            return vmstat;
        }
        return Control.notMet(new Evidence("rig.health", "control missing: " + String.join("; ", why)
                + ", the instrument cannot be ruled out"));
    }

    /**
     * The runs of the episode's slow seconds: its freeze-seconds (where requests were slow), consecutive ones
     * joined, each as {@code [first, last + 1)}; or the whole episode when it has none (a window).
     */
    static List<long[]> slowRuns(EpisodeScene scene) {
        List<long[]> runs = new ArrayList<>();
        for (SecondStats s : scene.seconds()) {
            if (!s.freeze()) {
                continue;
            }
            long[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last != null && last[1] == s.sec()) {
                last[1] = s.sec() + 1;
            } else {
                runs.add(new long[] {s.sec(), s.sec() + 1});
            }
        }
        if (runs.isEmpty()) {
            runs.add(new long[] {scene.startSec(), scene.endSec()});
        }
        return runs;
    }

    /**
     * A second counts as low when its active sessions are at or below 0 or under this share of the baseline
     * ({@link LoadBaseline}); the control fails when at least half of the judged seconds are low.
     */
    static final double LOAD_FLOOR_SHARE = 0.5;

    /**
     * Server-side load kept arriving, or null (why added). Judged: every second from one before each slow run to the
     * run's end (the second before because a stalled open-loop generator sends its backlog the moment it resumes, in
     * the very second its late requests end; while it is stalled, before that, the sessions fall). A second is low
     * when its active sessions (the mean of its {@code rig.waits} records, timers left out) are 0 or below
     * {@link #LOAD_FLOOR_SHARE} of the baseline before the cause began ({@link LoadBaseline}); the control fails when
     * at least half of the judged seconds are low: a stalled generator empties the server for as long as it stalls,
     * while one second's noise at a run's edge (3.99 against 4.36) is neither low nor half of them.
     */
    private static Control sessions(EpisodeScene scene, List<String> why) {
        var t = scene.telemetry();
        long start = scene.startSec();
        long end = scene.endSec();
        if (!t.seen(TelemetryStream.WAITS)) {
            return null;
        }
        if (t.inGap(TelemetryStream.WAITS, start - 1, end)) {
            why.add("rig.waits had a gap over it");
            return null;
        }
        var found = LoadBaseline.before(t, scene.repeatStartSec(), start);
        if (found.isEmpty()) {
            why.add("no rig.waits in the " + LoadBaseline.REACH_SEC + " s before it to compare with");
            return null;
        }
        LoadBaseline base = found.get();
        double floor = LOAD_FLOOR_SHARE * base.level();
        double lowest = Double.MAX_VALUE;
        long lowestSec = start;
        int seconds = 0;
        int low = 0;
        for (long[] run : slowRuns(scene)) {
            for (long s = run[0] - 1; s < run[1]; s++) {
                var in = LoadBaseline.activeIn(t, s);
                if (in.isEmpty()) {
                    why.add("no rig.waits record in second " + s);
                    return null;
                }
                seconds++;
                double active = in.getAsDouble();
                if (active <= 0 || active < floor) {
                    low++;
                }
                if (active < lowest) {
                    lowest = active;
                    lowestSec = s;
                }
            }
        }
        String where = "in the quietest " + LoadBaseline.WINDOW_SEC + " s of the " + LoadBaseline.REACH_SEC
                + " s before the episode (from second " + base.fromSec() + ")";
        String floorWords = base.level() > 0
                ? WaitProfile.round(LOAD_FLOOR_SHARE * 100) + " % of " + WaitProfile.round(base.level()) + " (median) "
                        + where
                : "0 (no session active " + where + ")";
        if (2 * low >= seconds) {
            why.add("active sessions " + (base.level() > 0 ? "at 0 or under " + floorWords
                    : "at 0 (and none active " + where + ")") + " in " + low + " of the " + seconds + " second(s) "
                    + "from one before each slow run to its end, down to " + WaitProfile.round(lowest) + " in second "
                    + lowestSec + " (rig.waits): load may have stopped arriving");
            return null;
        }
        return Control.bySubstitute(Evidence.measured("rig.waits", lowestSec * 1_000_000L, "sessions_lowest",
                WaitProfile.round(lowest), "sessions", "instrument control by server-side load (rig.waits): "
                        + (seconds - low) + " of the " + seconds + " second(s) from one before each slow run to its "
                        + "end above " + floorWords + ", the lowest " + WaitProfile.round(lowest) + ": load kept "
                        + "arriving"));
    }

    /**
     * Commits continuing (rig.db): every run of slow seconds holds at least one whole sampler interval, and every
     * interval wholly inside a run committed at least {@code attribution_commit_share} of the rate of the 10 s
     * before the episode; or null (why added). Only whole intervals count: an open-loop generator that stalled
     * sends its backlog when it resumes, so an interval that straddles the stall's end commits as many as ever.
     */
    private static Control commits(EpisodeScene scene, List<String> why) {
        var t = scene.telemetry();
        long start = scene.startSec();
        long end = scene.endSec();
        if (!t.seen(TelemetryStream.DB)) {
            return null;
        }
        if (t.inGap(TelemetryStream.DB, start, end)) {
            why.add("rig.db had a gap over it");
            return null;
        }
        long fromUs = start * 1_000_000L;
        long beforeCommits = 0;
        long beforeMs = 0;
        List<DbSample> samples = new ArrayList<>();
        for (DbSample d : t.records(TelemetryStream.DB, start - BEFORE_SEC - 1, end + 1, DbSample.class)) {
            if (d.database() == null || d.intervalMs() <= 0) {
                continue;
            }
            long intervalStartUs = d.ts() - d.intervalMs() * 1000L;
            if (d.ts() <= fromUs - 1_000_000L && intervalStartUs >= fromUs - (BEFORE_SEC + 1) * 1_000_000L) {
                beforeCommits += d.database().commits();
                beforeMs += d.intervalMs();
            } else {
                samples.add(d);
            }
        }
        if (beforeMs == 0 || beforeCommits == 0) {
            why.add("no commits in rig.db in the " + BEFORE_SEC + " s before it to compare with");
            return null;
        }
        double beforePerSec = beforeCommits * 1000.0 / beforeMs;
        double lowest = Double.MAX_VALUE;
        long lowestTs = 0;
        for (long[] run : slowRuns(scene)) {
            boolean whole = false;
            for (DbSample d : samples) {
                if (d.ts() - d.intervalMs() * 1000L >= run[0] * 1_000_000L && d.ts() <= run[1] * 1_000_000L) {
                    whole = true;
                    double rate = d.database().commits() * 1000.0 / d.intervalMs();
                    if (rate < lowest) {
                        lowest = rate;
                        lowestTs = d.ts();
                    }
                }
            }
            if (!whole) {
                why.add("no whole rig.db interval inside its slow second(s) " + run[0] + "-" + (run[1] - 1));
                return null;
            }
        }
        if (lowest < scene.settings().commitShare() * beforePerSec) {
            why.add("commits fell to " + WaitProfile.round(lowest) + "/s from " + WaitProfile.round(beforePerSec)
                    + "/s before it (rig.db)");
            return null;
        }
        return Control.bySubstitute(Evidence.measured("rig.db", lowestTs, "commits_per_s_lowest",
                WaitProfile.round(lowest), "commits/s", "instrument control by commits continuing (rig.db): at least "
                        + WaitProfile.round(lowest) + " commits/s in every sampler interval inside the episode's slow "
                        + "seconds, " + WaitProfile.round(beforePerSec) + "/s in the " + BEFORE_SEC + " s before it: "
                        + "load kept arriving"));
    }

    /** The generator host's vmstat: CPU not saturated, no steal, or null (why added). */
    private static Control vmstat(EpisodeScene scene, List<String> why) {
        var t = scene.telemetry();
        long start = scene.startSec();
        long end = scene.endSec();
        if (!t.seen(TelemetryStream.VMSTAT)) {
            return null;
        }
        List<String> hosts = scene.settings().generatorHosts();
        if (hosts.isEmpty()) {
            why.add("vmstat is not known to be the generator host's (attribution_generator_hosts names none)");
            return null;
        }
        if (t.toleranceSec(TelemetryStream.VMSTAT) > 2) {
            why.add("vmstat lines are coarser than the episode's seconds");
            return null;
        }
        List<Vmstat> lines = new ArrayList<>();
        for (Vmstat v : scene.around(TelemetryStream.VMSTAT, Vmstat.class)) {
            int at = v.src().indexOf('@');
            if (at >= 0 && hosts.contains(v.src().substring(at + 1))) {
                lines.add(v);
            }
        }
        boolean inside = lines.stream().anyMatch(v -> v.ts() >= start * 1_000_000L && v.ts() < (end + 2) * 1_000_000L);
        if (!inside) {
            why.add("no vmstat line of the generator host (" + String.join(", ", hosts) + ") over it");
            return null;
        }
        int lowestIdle = 100;
        int worstSteal = 0;
        Vmstat at = lines.get(0);
        for (Vmstat v : lines) {
            if (v.id() < lowestIdle) {
                lowestIdle = v.id();
                at = v;
            }
            worstSteal = Math.max(worstSteal, v.st());
        }
        if (lowestIdle < scene.settings().generatorIdlePct() || worstSteal > 0) {
            why.add("the generator host " + at.src() + " had CPU idle down to " + lowestIdle + " % and steal up to "
                    + worstSteal + " % (vmstat)");
            return null;
        }
        return Control.bySubstitute(Evidence.measured("rig.vmstat", at.ts(), "generator_host_idle_pct", lowestIdle, "%",
                "instrument control by the generator host's vmstat (" + at.src() + "): CPU idle at least " + lowestIdle
                        + " %, steal 0, " + scene.within(TelemetryStream.VMSTAT)));
    }
}
