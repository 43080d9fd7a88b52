package io.rigscope.analyzer.series;

import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.episode.Attributor;
import io.rigscope.analyzer.episode.Episode;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.analyzer.repeat.RepeatJudge;
import io.rigscope.analyzer.repeat.RepeatSummary;
import io.rigscope.analyzer.repeat.RepeatTrack;
import io.rigscope.analyzer.second.ScenarioSeconds;
import io.rigscope.analyzer.second.SecondStats;
import io.rigscope.analyzer.window.Window;
import io.rigscope.model.wire.Health;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.Verdict;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * <p>Verdicts it emits (into the list passed in): {@code SECOND} and {@code FREEZE} as each second closes (and
 * a provisional {@code SECOND} for a second still open when a later health record arrives);
 * {@code WINDOW}, {@code EPISODE} and {@code REPEAT} when a repeat's data is complete (REPEAT_END, every last
 * ledger, no open second, and its reconciliation if one is required); {@code SERIES} from {@link #finish}.
 *
 * <p>Settings: the defaults, overridden by each CONFIG marker in turn (a marker sets only the keys it holds), overridden by {@code overrides} (the
 * command line). The CONFIG marker must precede the data it governs (the pipeline reads rig.markers first).
 *
 * <p>Not thread-safe: one thread feeds it; {@link #progress()} may be read from any thread.
 */
public final class SeriesAnalysis {

    /** The {@code src} of every verdict. */
    public static final String SRC = "analyzer";

    private final String series;
    private final AnalyzerSettings defaults;
    /** The defaults folded with every CONFIG marker so far (before the command line's overrides). */
    private AnalyzerSettings configured;
    /** The last ENVIRONMENT marker's data, or null. */
    private Map<String, Object> environment;
    private final UnaryOperator<AnalyzerSettings> overrides;
    private final Attributor attributor;
    private final TreeMap<Integer, RepeatTrack> repeats = new TreeMap<>();
    private final ArrayDeque<Histogram> pool = new ArrayDeque<>();
    private final List<String> configErrors = new ArrayList<>();
    private final Progress progress = new Progress();
    private AnalyzerSettings settings;
    private FreezeRule freezeRule;
    private boolean seriesEnded;
    private long records;
    private long samples;
    private long samplesOutside;
    private long closedSeconds;
    private long freezeSeconds;
    private long judged;
    private int currentRep;

    /**
     * @param series the series id; records of other series are ignored
     * @param defaults settings before the CONFIG marker
     * @param overrides applied after every CONFIG marker (identity when none)
     * @param attributor names episodes' causes
     */
    public SeriesAnalysis(String series, AnalyzerSettings defaults, UnaryOperator<AnalyzerSettings> overrides,
                          Attributor attributor) {
        this.series = Objects.requireNonNull(series, "series");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.overrides = Objects.requireNonNull(overrides, "overrides");
        this.attributor = Objects.requireNonNull(attributor, "attributor");
        this.configured = defaults;
        apply(overrides.apply(defaults));
    }

    /** The settings in force. */
    public AnalyzerSettings settings() {
        return settings;
    }

    /** Live counters. */
    public Progress progress() {
        return progress;
    }

    /** Feeds a batch of records; appends the verdicts they caused. */
    public void acceptAll(List<? extends WireRecord> batch, List<Verdict> out) {
        for (WireRecord r : batch) {
            accept(r, out);
        }
        progress.update(records, samples, closedSeconds, freezeSeconds, judged, currentRep);
    }

    /** Feeds one record; appends the verdicts it caused. */
    public void accept(WireRecord record, List<Verdict> out) {
        if (!series.equals(record.run())) {
            return;
        }
        records++;
        if (record instanceof SampleBatch batch) {
            onSamples(batch, out);
        } else if (record instanceof Ledger ledger) {
            onLedger(ledger, out);
        } else if (record instanceof Marker marker) {
            onMarker(marker, out);
        } else if (record instanceof Health health && health.rep() > 0) {
            onHealth(health, out);
        }
    }

    /** True when SERIES_END arrived and every repeat's data is complete: a live analysis may stop. */
    public boolean complete() {
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
     * Ends the analysis: closes every open second (as not final), judges every repeat not yet judged and
     * the series, appends those verdicts (the last is SERIES) and returns the report.
     */
    public SeriesReport finish(List<Verdict> out) {
        for (RepeatTrack t : repeats.values()) {
            for (ScenarioSeconds s : t.scenarios().values()) {
                emitSeconds(t.rep(), s.scenario(), s.closeAll(freezeRule), out);
            }
        }
        for (RepeatTrack t : repeats.values()) {
            if (!t.judged()) {
                emitRepeat(t, out);
            }
        }
        List<RepeatSummary> summaries = new ArrayList<>();
        for (RepeatTrack t : repeats.values()) {
            summaries.add(RepeatJudge.judge(t, settings, attributor, configErrors));
        }
        SeriesReport report = SeriesReport.of(series, summaries, settings.reconciliationRequired(), samplesOutside);
        Map<String, Object> body = report.toMap();
        if (environment != null) {
            // the figures' hardware and settings travel with them (from the ENVIRONMENT marker: replay-safe)
            body.put("environment", environment);
        }
        out.add(new Verdict(series, 0, SRC, tsOf(maxSecond()), Verdict.Kind.SERIES, null, body));
        progress.update(records, samples, closedSeconds, freezeSeconds, judged, currentRep);
        return report;
    }

    private void onSamples(SampleBatch batch, List<Verdict> out) {
        int n = batch.samples().size();
        samples += n;
        if (batch.rep() == 0) {
            samplesOutside += n;
            return;
        }
        RepeatTrack track = repeat(batch.rep());
        String gen = batch.src();
        long slowUs = settings.freezeSlowUs();
        String lastScenario = null;
        ScenarioSeconds seconds = null;
        List<ScenarioSeconds> touched = new ArrayList<>(2);
        for (Sample s : batch.samples()) {
            if (!s.scenario().equals(lastScenario)) {
                seconds = track.scenario(s.scenario());
                lastScenario = s.scenario();
                if (!touched.contains(seconds)) {
                    touched.add(seconds);
                }
            }
            seconds.record(gen, s, slowUs);
        }
        for (ScenarioSeconds s : touched) {
            emitSeconds(track.rep(), s.scenario(), s.settle(freezeRule), out);
        }
        maybeJudge(track, out);
    }

    private void onLedger(Ledger ledger, List<Verdict> out) {
        if (ledger.rep() == 0) {
            return;
        }
        RepeatTrack track = repeat(ledger.rep());
        ScenarioSeconds s = track.scenario(ledger.scenario());
        emitSeconds(track.rep(), s.scenario(), s.onLedger(ledger, freezeRule), out);
        maybeJudge(track, out);
    }

    /**
     * The generator's health: kept per second as episode evidence, and used as a tick of event time: seconds
     * that ended before this record and are still open are published once as provisional SECOND verdicts
     * ({@code "final": false, "provisional": true}), so a live dashboard sees a second that waits for its ledger.
     */
    private void onHealth(Health health, List<Verdict> out) {
        RepeatTrack track = repeat(health.rep());
        track.health(health);
        long beforeSec = Math.floorDiv(health.ts(), 1_000_000L);
        for (ScenarioSeconds s : track.scenarios().values()) {
            for (SecondStats stats : s.provisional(beforeSec, freezeRule)) {
                Map<String, Object> body = stats.toBody();
                body.put("provisional", true);
                out.add(new Verdict(series, track.rep(), SRC, tsOf(stats.sec()), Verdict.Kind.SECOND, s.scenario(),
                        body));
            }
        }
    }

    private void onMarker(Marker m, List<Verdict> out) {
        switch (m.kind()) {
            case CONFIG -> {
                try {
                    // Markers fold: a generator's CONFIG (its load plan) must not wipe the series' thresholds.
                    AnalyzerSettings next = configured.withConfig(m.data());
                    apply(overrides.apply(next));
                    configured = next;
                    configErrors.clear();
                } catch (IllegalArgumentException e) {
                    String error = "CONFIG marker: " + e.getMessage();
                    if (!configErrors.contains(error)) {
                        configErrors.add(error);
                    }
                }
            }
            case REPEAT_START -> {
                repeat(m.rep()).started(m.phase());
                currentRep = Math.max(currentRep, m.rep());
            }
            case REPEAT_END -> {
                RepeatTrack t = repeat(m.rep());
                t.ended();
                maybeJudge(t, out);
            }
            case RECONCILIATION -> {
                if (m.rep() > 0) {
                    RepeatTrack t = repeat(m.rep());
                    t.reconciled(m.data());
                    maybeJudge(t, out);
                }
            }
            case SERIES_END -> seriesEnded = true;
            case ENVIRONMENT -> environment = m.data();
            default -> {
                // phases, environment and gaps do not change a verdict yet
            }
        }
    }

    private void apply(AnalyzerSettings s) {
        settings = s;
        freezeRule = new FreezeRule(s.freezeWorstUs(), s.freezeSlowUs(), s.freezeSlowFraction());
    }

    private RepeatTrack repeat(int rep) {
        return repeats.computeIfAbsent(rep, r -> new RepeatTrack(r, pool));
    }

    private void maybeJudge(RepeatTrack t, List<Verdict> out) {
        if (!t.judged() && t.dataComplete() && (t.reconciliation() != null || !settings.reconciliationRequired())) {
            emitRepeat(t, out);
        }
    }

    private void emitRepeat(RepeatTrack t, List<Verdict> out) {
        RepeatSummary r = RepeatJudge.judge(t, settings, attributor, configErrors);
        long endUs = tsOf(lastSecond(t));
        for (Window w : r.windows()) {
            out.add(new Verdict(series, t.rep(), SRC, tsOf(w.endSec() - 1), Verdict.Kind.WINDOW, r.scenario(),
                    w.toMap()));
        }
        for (Episode e : r.episodes()) {
            out.add(new Verdict(series, t.rep(), SRC, tsOf(e.endSec() - 1), Verdict.Kind.EPISODE, r.scenario(),
                    e.toMap()));
        }
        out.add(new Verdict(series, t.rep(), SRC, endUs, Verdict.Kind.REPEAT, r.scenario(), r.toMap()));
        t.markJudged();
        judged++;
    }

    private void emitSeconds(int rep, String scenario, List<SecondStats> closed, List<Verdict> out) {
        for (SecondStats s : closed) {
            closedSeconds++;
            Map<String, Object> body = s.toBody();
            out.add(new Verdict(series, rep, SRC, tsOf(s.sec()), Verdict.Kind.SECOND, scenario, body));
            if (s.freeze()) {
                freezeSeconds++;
                Map<String, Object> freeze = new LinkedHashMap<>(body);
                freeze.put("rule", "worst > " + settings.freezeWorstUs() / 1000.0 + " ms and > "
                        + settings.freezeSlowFraction() * 100 + " % of requests > " + settings.freezeSlowUs() / 1000.0
                        + " ms");
                out.add(new Verdict(series, rep, SRC, tsOf(s.sec()), Verdict.Kind.FREEZE, scenario, freeze));
            }
        }
    }

    private long maxSecond() {
        long max = 0;
        for (RepeatTrack t : repeats.values()) {
            max = Math.max(max, lastSecond(t));
        }
        return max;
    }

    private static long lastSecond(RepeatTrack t) {
        long max = 0;
        for (ScenarioSeconds s : t.scenarios().values()) {
            List<SecondStats> secs = s.seconds();
            if (!secs.isEmpty()) {
                max = Math.max(max, secs.get(secs.size() - 1).sec());
            }
        }
        return max;
    }

    /** The verdict timestamp of a second: its end, epoch µs (event time, never the wall clock). */
    private static long tsOf(long sec) {
        return Math.max(1, (sec + 1) * 1_000_000L);
    }
}
