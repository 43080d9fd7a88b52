package io.rigscope.analyzer.series;

import io.rigscope.analyzer.attribution.Attributor;
import io.rigscope.analyzer.decision.Ceiling;
import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Abort;
import io.rigscope.analyzer.repeat.RepeatJudge.AbortOnFail;
import io.rigscope.analyzer.decision.RepeatSummary.Silence;
import io.rigscope.analyzer.repeat.RepeatJudge;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.repeat.RepeatTrack;
import io.rigscope.analyzer.second.ScenarioSeconds;
import io.rigscope.analyzer.decision.SecondClosing;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import io.rigscope.analyzer.decision.Window;
import io.rigscope.model.wire.Config;
import io.rigscope.model.wire.DatabaseGain;
import io.rigscope.model.wire.Environment;
import io.rigscope.model.wire.Gap;
import io.rigscope.model.wire.Health;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.MarkerBody;
import io.rigscope.model.wire.PhaseEnd;
import io.rigscope.model.wire.Reconciliation;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.RepeatStart;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.SeriesEnd;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.HdrHistogram.Histogram;

/**
 * The analysis of one series, record by record: the pure core of the analyzer. It cuts samples into seconds,
 * closes seconds by the ledger watermark, judges each repeat when its data is complete and, at the end, the
 * series. No I/O, no clock: what it decides depends only on the records' content, so a replay decides what the
 * live run decided.
 *
 * <p>Decisions it emits (into the list passed in): {@link Decision.Second} and {@link Decision.Freeze} as each
 * second closes (and a provisional {@link Decision.Second} for a second still open when a later health record
 * arrives); live, a {@link Decision.Stop} when a threshold with {@code abortOnFail} fails ({@link AbortOnFail});
 * {@link Decision.TailWindow}, {@link Decision.EpisodeFound} and {@link Decision.Repeat} when a repeat's
 * data is complete (REPEAT_END, every last ledger, no open second, and its reconciliation if one is required);
 * {@link Decision.Series} from {@link #finish}.
 *
 * <p>Settings: the defaults, overridden by each CONFIG marker in turn (a marker sets only the keys it holds), overridden by {@code overrides} (the
 * command line). The CONFIG marker must precede the data it governs (the pipeline reads rig.markers first).
 *
 * <p>Not thread-safe: one thread feeds it; {@link #progress()} may be read from any thread.
 */
public final class SeriesAnalysis {

    private final String series;
    /** The settings in force, the markers' problems, the load's URLs, the environment and the denominator. */
    private final SeriesConfig config;
    /** The last ceiling decided, or null. */
    private Ceiling ceiling;
    private final Attributor attributor;
    private final TreeMap<Integer, RepeatTrack> repeats = new TreeMap<>();
    private final ArrayDeque<Histogram> pool = new ArrayDeque<>();
    private final Progress progress = new Progress();
    /** The verdicts decided and not yet handed over ({@link #drain}). */
    private final List<Decision> decided = new ArrayList<>();
    /** The report, once {@link #finish} made it. */
    private SeriesReport report;
    private final TelemetryIndex telemetry = new TelemetryIndex();
    /** Live only: open seconds and the running episode, before they are final. */
    private final LiveProvisional provisional;
    private boolean seriesEnded;
    private long records;
    private long samples;
    private long samplesOutside;
    private long closedSeconds;
    private long freezeSeconds;
    private long judged;
    private int currentRep;

    /** When repeats are judged. */
    public enum Judging {
        /**
         * Live: a repeat is judged once its data is complete (REPEAT_END, last ledgers, its reconciliation) and
         * every telemetry stream seen has passed its end plus its tolerance and the grace
         * ({@link TelemetryIndex#settled}), so its causes use all the telemetry that covers it.
         */
        AS_DATA_COMPLETES,
        /**
         * Replay: every repeat is judged in {@link #finish}, with everything read; the order the topics were read
         * in then cannot change a cause.
         */
        AT_FINISH
    }

    private final Judging judging;

    /**
     * A live analysis ({@link Judging#AS_DATA_COMPLETES}).
     *
     * @param series the series id; records of other series are ignored
     * @param defaults settings before the CONFIG marker
     * @param overrides applied after every CONFIG marker (identity when none)
     * @param attributor names episodes' causes
     */
    public SeriesAnalysis(String series, AnalyzerSettings defaults, UnaryOperator<AnalyzerSettings> overrides,
                          Attributor attributor) {
        this(series, defaults, overrides, attributor, Judging.AS_DATA_COMPLETES);
    }

    /**
     * @param judging when repeats are judged
     */
    public SeriesAnalysis(String series, AnalyzerSettings defaults, UnaryOperator<AnalyzerSettings> overrides,
                          Attributor attributor, Judging judging) {
        this.judging = Objects.requireNonNull(judging, "judging");
        this.series = Objects.requireNonNull(series, "series");
        this.config = new SeriesConfig(defaults, overrides);
        this.attributor = Objects.requireNonNull(attributor, "attributor");
        this.provisional = new LiveProvisional(series, attributor, telemetry, config::environment);
    }

    /** The settings in force. */
    public AnalyzerSettings settings() {
        return config.settings();
    }

    /** Live counters. */
    public Progress progress() {
        return progress;
    }

    /** Feeds a batch of records; returns the verdicts they caused, in order. */
    public List<Decision> acceptAll(List<? extends WireRecord> batch) {
        for (WireRecord r : batch) {
            take(r);
        }
        progress.update(records, samples, closedSeconds, freezeSeconds, judged, currentRep);
        return drain();
    }

    /** Feeds one record; returns the verdicts it caused, in order. */
    public List<Decision> accept(WireRecord record) {
        take(record);
        return drain();
    }

    /** The report of a finished analysis ({@link #finish}). */
    public SeriesReport report() {
        if (report == null) {
            throw new IllegalStateException("the analysis of " + series + " is not finished");
        }
        return report;
    }

    /** The verdicts decided since the last call, handed over once. */
    private List<Decision> drain() {
        if (decided.isEmpty()) {
            return List.of();
        }
        List<Decision> out = List.copyOf(decided);
        decided.clear();
        return out;
    }

    private void take(WireRecord record) {
        if (!series.equals(record.run())) {
            return;
        }
        records++;
        if (record instanceof SampleBatch batch) {
            onSamples(batch);
        } else if (record instanceof Ledger ledger) {
            onLedger(ledger);
        } else if (record instanceof Marker marker) {
            onMarker(marker);
        } else if (record instanceof Health health) {
            if (health.rep() > 0) {
                onHealth(health);
            }
        } else {
            if (telemetry.accept(record)) {
                if (judging == Judging.AS_DATA_COMPLETES) {
                    decided.addAll(provisional.revise(repeats.values(), Math.floorDiv(record.ts(), 1_000_000L),
                            config.settings()));
                }
                for (RepeatTrack t : repeats.values()) {
                    maybeJudge(t);
                }
            }
        }
    }

    /**
     * True when SERIES_END arrived, every repeat's data is complete and every telemetry stream seen has passed
     * the last repeat's end (plus its tolerance and the grace): a live analysis may stop.
     */
    public boolean complete() {
        return dataComplete() && telemetry.settled(maxSecond() + 1, config.settings().attribution().graceSec());
    }

    /** True when SERIES_END arrived and every repeat's data is complete (the telemetry may still be coming). */
    public boolean dataComplete() {
        if (!seriesEnded) {
            return false;
        }
        for (RepeatTrack t : repeats.values()) {
            if (!t.dataComplete()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Live: the analyzer's clock reads {@code nowUs} (epoch µs; the pipeline ticks it every second). A repeat with a
     * generator silent by {@link io.rigscope.analyzer.repeat.Liveness#live} ends there: its open seconds close as
     * not final and it is judged at once, failing with {@code ended_by: generator_silent} (the telemetry is not
     * waited for: the generator will not end it). The verdict names the generator and the second it fell silent
     * from its records alone, as a replay does. No-op in {@link Judging#AT_FINISH}. Returns the verdicts it caused.
     */
    public List<Decision> checkLiveness(long nowUs) {
        if (judging != Judging.AS_DATA_COMPLETES) {
            return List.of();
        }
        for (RepeatTrack t : repeats.values()) {
            if (t.judged() || t.kind() == RepeatSummary.Kind.CEILING) {
                continue;
            }
            Silence silence = t.liveness().live(nowUs, config.settings().generatorSilenceSec());
            if (silence != null) {
                t.silenced(silence);
                for (ScenarioSeconds s : t.scenarios().values()) {
                    emitClosed(t, s, s.closeAll(config.freezeRule()));
                }
                emitRepeat(t);
            }
        }
        progress.update(records, samples, closedSeconds, freezeSeconds, judged, currentRep);
        return drain();
    }

    /**
     * True when every repeat is judged and a silent generator ended one of them: nothing will end the series (its
     * generator is gone), so a live analysis may stop once its input is quiet.
     */
    public boolean endedBySilence() {
        boolean any = false;
        for (RepeatTrack t : repeats.values()) {
            if (!t.judged()) {
                return false;
            }
            any |= t.silence() != null;
        }
        return any;
    }

    /**
     * Ends the analysis: closes every open second (as not final), judges every repeat not yet judged and
     * the series, and returns those verdicts (the last is SERIES, holding the report: also {@link #report()}).
     */
    public List<Decision> finish() {
        for (RepeatTrack t : repeats.values()) {
            // every report applies the silence rule to everything read: a replay's and the live run's agree
            if (t.kind() != RepeatSummary.Kind.CEILING) {
                t.silenced(t.liveness().atFinish(config.settings().generatorSilenceSec()));
            }
        }
        for (RepeatTrack t : repeats.values()) {
            for (ScenarioSeconds s : t.scenarios().values()) {
                emitSeconds(t, s, s.closeAll(config.freezeRule()));
            }
        }
        for (RepeatTrack t : repeats.values()) {
            if (!t.judged()) {
                emitRepeat(t);
            }
        }
        List<RepeatSummary> summaries = new ArrayList<>();
        for (RepeatTrack t : repeats.values()) {
            if (t.kind() != RepeatSummary.Kind.CEILING) {
                summaries.add(RepeatJudge.judge(t, config.settings(), attributor, telemetry, config.errors(), config::targetOf,
                config.environment()));
            }
        }
        // the figures' hardware and settings travel with them (from the ENVIRONMENT marker: replay-safe)
        SeriesReport report = SeriesReport.of(series, summaries, config.settings().reconciliationRequired(), samplesOutside)
                .withCeiling(ceiling == null ? null : ceiling.withDenominator(config.denominatorRowsPerSec()))
                .withEnvironment(config.environment()).withFailedSteps(config.failedSteps())
                .withSilentStreams(telemetry.silentBefore(maxSecond(), config.settings().attribution().graceSec()));
        this.report = report;
        decided.add(new Decision.Series(series, tsOf(maxSecond()), report));
        progress.update(records, samples, closedSeconds, freezeSeconds, judged, currentRep);
        return drain();
    }

    private void onSamples(SampleBatch batch) {
        int n = batch.samples().size();
        samples += n;
        if (batch.rep() == 0) {
            samplesOutside += n;
            return;
        }
        RepeatTrack track = repeat(batch.rep());
        track.liveness().heard(batch.src(), batch.ts());
        String gen = batch.src();
        long slowUs = config.settings().freezeSlowUs();
        String lastScenario = null;
        ScenarioSeconds seconds = null;
        List<ScenarioSeconds> touched = new ArrayList<>(2);
        for (Sample s : batch.samples()) {
            if (!s.scenario().equals(lastScenario)) {
                lastScenario = s.scenario();
                seconds = ScenarioSeconds.named(touched, lastScenario); // the repeat is asked once per scenario
                if (seconds == null) {
                    seconds = track.scenario(lastScenario);
                    touched.add(seconds);
                }
            }
            seconds.record(gen, s, slowUs);
        }
        if (track.closesByTime(gen)) {
            settleAll(track); // the watermark moved: any scenario's second may have passed
        } else {
            for (ScenarioSeconds s : touched) {
                emitSeconds(track, s, s.settle(config.freezeRule()));
            }
        }
        maybeJudge(track);
    }

    private void settleAll(RepeatTrack track) {
        for (ScenarioSeconds s : track.scenarios().values()) {
            emitSeconds(track, s, s.settleAll(config.freezeRule()));
        }
    }

    private void onLedger(Ledger ledger) {
        if (ledger.rep() == 0) {
            return;
        }
        RepeatTrack track = repeat(ledger.rep());
        var liveness = track.liveness();
        liveness.heard(ledger.src(), ledger.ts());
        liveness.ledger(ledger.src(), ledger.sec());
        ScenarioSeconds s = track.scenario(ledger.scenario());
        emitSeconds(track, s, s.onLedger(ledger, config.freezeRule()));
        maybeJudge(track);
    }

    /**
     * The generator's health: kept per second as episode evidence, and used as a tick of event time: seconds
     * that ended before this record and are still open are published once as provisional SECOND verdicts
     * ({@code "final": false, "provisional": true}), so a live dashboard sees a second that waits for its ledger.
     */
    private void onHealth(Health health) {
        RepeatTrack track = repeat(health.rep());
        track.liveness().heard(health.src(), health.ts());
        track.health(health);
        decided.addAll(provisional.openSeconds(track, Math.floorDiv(health.ts(), 1_000_000L), config.freezeRule()));
    }

    private void onMarker(Marker m) {
        MarkerBody body = m.body();
        if (body instanceof Config c) {
            config.config(c);
        } else if (body instanceof RepeatStart start) {
            RepeatTrack t = repeat(m.rep());
            t.start(m.src(), m.ts(), m.phase(), start);
            try {
                SecondClosing closing = SecondClosing.declaredBy(m.src(), start);
                if (closing != null) {
                    t.declare(m.src(), closing);
                    settleAll(t);
                }
            } catch (IllegalArgumentException e) {
                config.error(e.getMessage());
            }
            currentRep = Math.max(currentRep, m.rep());
        } else if (body instanceof RepeatEnd end) {
            RepeatTrack t = repeat(m.rep());
            t.end(m.src(), m.ts(), end, config::error);
            if (t.closesByTime(m.src())) {
                try {
                    t.sourceEnded(m.src(), SecondClosing.publishedBy(m.src(), end));
                } catch (IllegalArgumentException e) {
                    config.error(e.getMessage());
                    t.sourceEnded(m.src(), null);
                }
                settleAll(t);
            }
            maybeJudge(t);
        } else if (body instanceof Reconciliation) {
            if (m.rep() > 0) {
                RepeatTrack t = repeat(m.rep());
                try {
                    t.gained(DatabaseGain.of(m));
                } catch (IllegalArgumentException e) {
                    config.error(e.getMessage());
                }
                maybeJudge(t);
            }
        } else if (body instanceof SeriesEnd) {
            seriesEnded = true;
        } else if (body instanceof PhaseEnd end) {
            config.phaseEnded(m.phase(), end);
        } else if (body instanceof Environment environmentFacts) {
            config.environment(environmentFacts.facts());
        } else if (body instanceof Gap) {
            telemetry.acceptGap(m);
        }
        // SERIES_START, PHASE_START: phases do not change a verdict
    }

    private RepeatTrack repeat(int rep) {
        return repeats.computeIfAbsent(rep, r -> new RepeatTrack(r, pool));
    }

    private void maybeJudge(RepeatTrack t) {
        if (judging == Judging.AS_DATA_COMPLETES && !t.judged() && t.dataComplete()
                && (t.gain() != null || !config.settings().reconciliationRequired() || t.kind() == RepeatSummary.Kind.CEILING)
                && telemetry.settled(t.lastClosedSecond() + 1, config.settings().attribution().graceSec())) {
            emitRepeat(t);
        }
    }

    private void emitRepeat(RepeatTrack t) {
        if (t.kind() == RepeatSummary.Kind.CEILING) {
            String primary = RepeatJudge.primaryScenario(t, config.settings());
            ceiling = CeilingRule.of(t.rep(), primary == null ? null : t.scenarios().get(primary), t.scheduledMs());
            decided.add(new Decision.CeilingFound(series, t.rep(), primary, tsOf(t.lastClosedSecond()), ceiling));
            t.markJudged();
            return;
        }
        RepeatSummary r = RepeatJudge.judge(t, config.settings(), attributor, telemetry, config.errors(), config::targetOf,
                config.environment());
        long endUs = tsOf(t.lastClosedSecond());
        for (Window w : r.windows()) {
            decided.add(new Decision.TailWindow(series, t.rep(), r.scenario(), tsOf(w.endSec() - 1), w));
        }
        for (Episode e : r.episodes()) {
            decided.add(new Decision.EpisodeFound(series, t.rep(), r.scenario(), tsOf(e.endSec() - 1), e, false));
        }
        decided.add(new Decision.Repeat(series, t.rep(), r.scenario(), endUs, r));
        t.markJudged();
        judged++;
    }

    private void emitSeconds(RepeatTrack t, ScenarioSeconds seconds, List<SecondStats> closed) {
        emitClosed(t, seconds, closed);
        if (judging == Judging.AS_DATA_COMPLETES && !closed.isEmpty()) {
            Abort stop = AbortOnFail.check(t, config.settings());
            if (stop != null) {
                decided.add(new Decision.Stop(series, t.rep(), null, tsOf(closed.get(closed.size() - 1).sec()), stop));
            }
        }
    }

    private void emitClosed(RepeatTrack t, ScenarioSeconds seconds, List<SecondStats> closed) {
        String scenario = seconds.scenario();
        for (SecondStats s : closed) {
            closedSeconds++;
            decided.add(new Decision.Second(series, t.rep(), scenario, tsOf(s.sec()), s, false,
                    seconds.closed().serviceHistogram(s.sec()), seconds.serverTiming().second(s.sec())));
            if (s.freeze()) {
                if (!scenario.equals(config.settings().probeScenario())) {
                    freezeSeconds++; // the console's count: the load's freeze-seconds, never the probe's
                }
                decided.add(new Decision.Freeze(series, t.rep(), scenario, tsOf(s.sec()), s, config.freezeRule().describe()));
                if (judging == Judging.AS_DATA_COMPLETES && s.exact() && !scenario.equals(config.settings().probeScenario())) {
                    decided.add(provisional.freeze(t, scenario, s, config.settings()));
                }
            }
        }
    }

    private long maxSecond() {
        long max = 0;
        for (RepeatTrack t : repeats.values()) {
            max = Math.max(max, t.lastClosedSecond());
        }
        return max;
    }

    /** The verdict timestamp of a second: its end, epoch µs (event time, never the wall clock). */
    static long tsOf(long sec) {
        return Math.max(1, (sec + 1) * 1_000_000L);
    }
}
