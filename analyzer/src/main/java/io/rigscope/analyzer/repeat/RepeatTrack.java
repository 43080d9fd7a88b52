package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.RepeatSummary.Kind;
import io.rigscope.analyzer.decision.Abort;
import io.rigscope.analyzer.repeat.RepeatJudge.AbortOnFail;
import io.rigscope.analyzer.decision.RepeatSummary.Silence;
import io.rigscope.analyzer.second.ScenarioSeconds;
import io.rigscope.analyzer.decision.SecondClosing;
import io.rigscope.analyzer.second.RepeatTotals.TimeWatermark;
import io.rigscope.analyzer.threshold.K6Verdict;
import io.rigscope.model.wire.DatabaseGain;
import io.rigscope.model.wire.Health;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.RepeatStart;
import io.rigscope.model.wire.VerdictFacts;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * What the analyzer holds for one repeat while it runs: its markers, its scenarios' seconds and the
 * generator's health per second. Mutable; one owner thread.
 */
public final class RepeatTrack {

    private final int rep;
    private final ArrayDeque<Histogram> pool;
    private final TreeMap<String, ScenarioSeconds> scenarios = new TreeMap<>();
    private final TreeMap<Long, double[]> healthBySec = new TreeMap<>();
    /** Sources whose seconds close by time, with their watermark. */
    private final TreeMap<String, TimeWatermark> watermarks = new TreeMap<>();
    private SecondClosing.ByTime timeClosing;
    private String phase;
    private long scheduledMs;
    private long startEpochUs;
    private boolean abortDecided;
    private Abort aborted;
    private int expectedGenerators;
    private boolean started;
    private boolean ended;
    private List<K6Verdict> k6Verdicts = List.of();
    private DatabaseGain gain;
    private boolean judged;
    private OpenEpisode openEpisode;
    private String openScenario;
    private String provisionalCause;
    private final Liveness liveness = new Liveness();
    private Silence silence;

    /**
     * The live episode a run of freeze-seconds forms: its first second, its end (exclusive), its freeze-seconds
     * and its worst request, ms.
     */
    public record OpenEpisode(long startSec, long endSec, int freezeSeconds, double worstMs) {
    }

    /**
     * Opens or extends the live episode with a freeze-second of {@code scenario}: it joins the open one when it
     * starts no more than {@code gapSec} after its end. Returns the episode as it stands.
     */
    public OpenEpisode openEpisode(String scenario, long freezeSec, double worstMs, int gapSec) {
        openScenario = scenario;
        if (openEpisode != null && freezeSec >= openEpisode.startSec() && freezeSec - openEpisode.endSec() <= gapSec) {
            openEpisode = new OpenEpisode(openEpisode.startSec(), Math.max(openEpisode.endSec(), freezeSec + 1),
                    openEpisode.freezeSeconds() + 1, Math.max(openEpisode.worstMs(), worstMs));
        } else {
            openEpisode = new OpenEpisode(freezeSec, freezeSec + 1, 1, worstMs);
        }
        return openEpisode;
    }

    public RepeatTrack(int rep, ArrayDeque<Histogram> pool) {
        this.rep = rep;
        this.pool = pool;
    }

    public int rep() {
        return rep;
    }

    /** The scenario's seconds, created on first use. */
    public ScenarioSeconds scenario(String name) {
        ScenarioSeconds s = scenarios.get(name);
        if (s == null) {
            s = new ScenarioSeconds(name, pool);
            s.expectGenerators(expectedGenerators);
            for (var w : watermarks.entrySet()) {
                s.declare(w.getKey(), w.getValue());
            }
            scenarios.put(name, s);
        }
        return s;
    }

    /** Every scenario seen, by name. */
    public NavigableMap<String, ScenarioSeconds> scenarios() {
        return Collections.unmodifiableNavigableMap(scenarios);
    }

    /**
     * A REPEAT_START marker: its phase decides the kind.
     *
     * @param durationMs the scheduled duration it states ({@code duration_ms}), or 0
     * @param scheduleStartUs when its schedule starts ({@code start_epoch_us}), epoch µs, or 0
     */
    public void started(String markerPhase, long durationMs, long scheduleStartUs) {
        if (scheduleStartUs > 0 && (startEpochUs == 0 || scheduleStartUs < startEpochUs)) {
            startEpochUs = scheduleStartUs;
        }
        started = true;
        if (markerPhase != null && !markerPhase.isBlank()) {
            phase = markerPhase;
        }
        if (durationMs > 0) {
            scheduledMs = durationMs;
        }
    }

    /** When the repeat's schedule starts (the earliest REPEAT_START's {@code start_epoch_us}), epoch µs; 0 when unknown. */
    public long startEpochUs() {
        return startEpochUs;
    }

    /** True once {@link AbortOnFail} decided to stop this repeat (live; it decides once). */
    public boolean abortDecided() {
        return abortDecided;
    }

    void markAbortDecided() {
        abortDecided = true;
    }

    /** A REPEAT_END marker saying the repeat was stopped by {@code abortOnFail} (its {@code stopped} object). */
    public void aborted(Abort stop) {
        aborted = stop;
    }

    /** Why the repeat stopped early, from its REPEAT_END marker; null when it ran its schedule. */
    public Abort aborted() {
        return aborted;
    }

    /** The scheduled duration of the repeat from its REPEAT_START marker, ms; 0 when unknown. */
    public long scheduledMs() {
        return scheduledMs;
    }

    /**
     * A source's declared mode ({@link SecondClosing}, from its REPEAT_START): a time-closed source gets a watermark
     * every scenario of the repeat shares. Declaring it again changes nothing.
     */
    public void declare(String src, SecondClosing closing) {
        if (closing instanceof SecondClosing.ByTime byTime && !watermarks.containsKey(src)) {
            TimeWatermark w = new TimeWatermark(byTime);
            watermarks.put(src, w);
            timeClosing = byTime;
            for (ScenarioSeconds s : scenarios.values()) {
                s.declare(src, w);
            }
        }
    }

    /**
     * The repeat's schedule is shared by {@code n} generators (their REPEAT_START's {@code generators}, from
     * {@code generate --share K/N}): no second closes and the repeat is not complete until all {@code n} have
     * published, not only the ones seen so far. The largest declared count holds.
     */
    public void expectGenerators(int n) {
        if (n > expectedGenerators) {
            expectedGenerators = n;
            for (ScenarioSeconds s : scenarios.values()) {
                s.expectGenerators(n);
            }
        }
    }

    /** True when the source {@code src} closes its seconds by time in this repeat. */
    public boolean closesByTime(String src) {
        return watermarks.containsKey(src);
    }

    /**
     * A time-closed source's REPEAT_END: its stream ended, having published these samples per scenario (null:
     * it did not say). No-op for another source.
     */
    public void sourceEnded(String src, Map<String, Long> publishedByScenario) {
        TimeWatermark w = watermarks.get(src);
        if (w != null) {
            w.end(publishedByScenario);
        }
    }

    /** How the repeat's seconds closed: by time when a source declared it, else by the ledger. */
    public SecondClosing closing() {
        return timeClosing == null ? new SecondClosing.ByLedger() : timeClosing;
    }

    /** A REPEAT_END marker. */
    public void ended() {
        ended = true;
    }

    /** A REPEAT_END marker carrying an imported k6 run's thresholds as k6 judged them ({@code k6_thresholds}). */
    public void ended(List<K6Verdict> verdicts) {
        ended = true;
        k6Verdicts = List.copyOf(verdicts);
    }

    /** The k6 thresholds judged over an imported run (empty for rigscope's own runs). */
    public List<K6Verdict> k6Verdicts() {
        return k6Verdicts;
    }

    /** What the database gained in the repeat (a RECONCILIATION marker; the latest wins). */
    public void gained(DatabaseGain gained) {
        gain = gained;
    }

    /**
     * A health record of the generator: keeps the per-second worst pause, loop lag, oldest in-flight age and process
     * CPU.
     */
    public void health(Health h) {
        long sec = Math.floorDiv(h.ts(), 1_000_000L);
        double[] worst = healthBySec.computeIfAbsent(sec, s -> new double[4]);
        worst[0] = Math.max(worst[0], h.jvmPauseMs());
        worst[1] = Math.max(worst[1], h.loopLagMs());
        worst[2] = Math.max(worst[2], h.oldestInFlightMs());
        worst[3] = Math.max(worst[3], h.cpuPct());
    }

    /** Per second: {worst JVM pause ms, worst loop lag ms, worst oldest in-flight ms, highest process CPU %}. */
    public NavigableMap<Long, double[]> healthBySec() {
        return Collections.unmodifiableNavigableMap(healthBySec);
    }

    /** Ladder or ceiling when the REPEAT_START marker's phase says so, else sustained. */
    public Kind kind() {
        if ("ladder".equalsIgnoreCase(phase)) {
            return Kind.LADDER;
        }
        return "ceiling".equalsIgnoreCase(phase) ? Kind.CEILING : Kind.SUSTAINED;
    }

    public boolean startSeen() {
        return started;
    }

    public boolean endSeen() {
        return ended;
    }

    /** What the database gained, or null when no RECONCILIATION marker arrived. */
    public DatabaseGain gain() {
        return gain;
    }

    /**
     * True when all of the repeat's data is in: REPEAT_END arrived and every scenario is
     * {@linkplain ScenarioSeconds#complete() complete} (last ledgers, every counted request, no open second).
     */
    public boolean dataComplete() {
        if (!ended || scenarios.isEmpty()) {
            return false;
        }
        for (ScenarioSeconds s : scenarios.values()) {
            if (!s.complete()) {
                return false;
            }
        }
        return true;
    }

    /** The live episode as it stands, or null before the first freeze-second of the repeat. */
    public OpenEpisode currentEpisode() {
        return openEpisode;
    }

    /** The scenario of the live episode, or null. */
    public String openScenario() {
        return openScenario;
    }

    /**
     * Remembers the provisional cause last published for the live episode ({@code cause/confidence}); true when
     * it differs from the one before (it is worth publishing again).
     */
    public boolean provisionalChanged(String causeAndConfidence) {
        boolean changed = !causeAndConfidence.equals(provisionalCause);
        provisionalCause = causeAndConfidence;
        return changed;
    }

    /**
     * A REPEAT_START of {@code src} stamped {@code tsUs}: the schedule (its phase, duration and start), a rigscope
     * generator taking part ({@link Liveness}), and the generators sharing the schedule ({@code generate --share}).
     */
    public void start(String src, long tsUs, String phase, RepeatStart start) {
        long durationMs = start.durationMs() == null ? 0 : start.durationMs();
        long startUs = start.startEpochUs() == null ? 0 : start.startEpochUs();
        started(phase, durationMs, startUs);
        if (startUs > 0) {
            liveness.started(src, tsUs, startUs, durationMs);
        }
        if (start.generators() != null && start.generators() > 1) {
            expectGenerators(start.generators()); // generate --share K/N: wait for all N
        }
    }

    /**
     * A REPEAT_END of {@code src} stamped {@code tsUs}: its part ends, with k6's own verdicts and the stop it carries
     * when it does; a stop that cannot be read goes to {@code problems} (the config gate).
     */
    public void end(String src, long tsUs, RepeatEnd end, Consumer<String> problems) {
        liveness.heard(src, tsUs);
        liveness.ended(src);
        if (end.k6Thresholds() != null) {
            ended(end.k6Thresholds().stream().map(K6Verdict::of).toList());
        } else {
            ended();
        }
        try {
            VerdictFacts.Abort stop = end.stop();
            if (stop != null) {
                aborted(Abort.of(stop));
            }
        } catch (IllegalArgumentException e) {
            problems.accept(e.getMessage());
        }
    }

    /** The last second closed in any of its scenarios, epoch s; 0 when none. */
    public long lastClosedSecond() {
        long max = 0;
        for (ScenarioSeconds s : scenarios.values()) {
            if (s.closed().size() > 0) {
                max = Math.max(max, s.closed().last());
            }
        }
        return max;
    }

    /** Which of its generators are still heard from. */
    public Liveness liveness() {
        return liveness;
    }

    /** Ends the repeat by a silent generator (null: it was not ended so); its judgement fails with it. */
    public void silenced(Silence s) {
        silence = s;
    }

    /** The silence that ended the repeat, or null. */
    public Silence silence() {
        return silence;
    }

    /** Whether the REPEAT verdict was emitted. */
    public boolean judged() {
        return judged;
    }

    public void markJudged() {
        judged = true;
    }
}
