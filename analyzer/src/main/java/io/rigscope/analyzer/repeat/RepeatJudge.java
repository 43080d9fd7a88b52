package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.freeze.FreezeRule;
import java.util.Set;
import java.util.HashSet;
import io.rigscope.analyzer.threshold.Threshold;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.decision.Abort;
import io.rigscope.analyzer.attribution.Attributor;
import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.RepeatSummary.Cadence;
import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.decision.RepeatSummary.Silence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;
import io.rigscope.analyzer.second.ScenarioSeconds;
import io.rigscope.analyzer.second.ScenarioSeconds.ClosedSeconds;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.telemetry.TelemetryIndex;
import io.rigscope.analyzer.decision.Window;
import io.rigscope.model.wire.ErrorKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Judges a repeat: takes its figures once ({@link RepeatFacts}), lists its freeze-seconds and cadence, its
 * windows and episodes, and runs its {@link GateSet} (docs/gates.md). Pure: the same track and settings give the
 * same summary, whatever order the records arrived in.
 */
public final class RepeatJudge {

    private RepeatJudge() {
    }

    /**
     * @param telemetry what the telemetry streams delivered, for attribution
     * @param configErrors problems with the series' CONFIG (each fails the {@code config} gate)
     * @param targetOf the URL a scenario's load went to, from the CONFIG markers (null when none names it); called
     *                 with null when the repeat has no primary scenario
     * @param environment the series' ENVIRONMENT facts (settings, RAM, CPUs) for the episodes' levers; empty when
     *                    none arrived
     */
    public static RepeatSummary judge(RepeatTrack track, AnalyzerSettings settings, Attributor attributor,
                                      TelemetryIndex telemetry, List<String> configErrors,
                                      Function<String, String> targetOf, Map<String, Object> environment) {
        String primaryName = primaryScenario(track, settings);
        ScenarioSeconds primary = primaryName == null ? null : track.scenarios().get(primaryName);
        ScenarioSeconds probe = track.scenarios().get(settings.probeScenario());

        long dropped = 0;
        long failed = 0;
        long late = 0;
        for (ScenarioSeconds s : track.scenarios().values()) {
            dropped += s.ledgerDropped();
            failed += s.totals().failed();
            late += s.totals().lateSamples();
        }
        List<SecondStats> seconds = primary == null ? List.of() : primary.closed().stats();
        long provisional = 0;
        List<Long> freezeSeconds = new ArrayList<>();
        List<EpisodeJoiner.Span> spans = new ArrayList<>();
        for (SecondStats s : seconds) {
            if (!s.exact()) {
                provisional++;
            }
            if (s.freeze()) {
                freezeSeconds.add(s.sec());
                spans.add(new EpisodeJoiner.Span(s.sec(), s.sec() + 1, false, 0, s.maxServiceUs() / 1000.0));
            }
        }
        long spanSec = seconds.isEmpty() ? 0 : seconds.get(seconds.size() - 1).sec() - seconds.get(0).sec() + 1;
        List<ClosedSeconds.Bucket> buckets = primary == null ? List.of() : primary.closed().buckets(settings.windowBucketSec());
        List<Window> windows = new WindowRule(settings.windowFactor(), settings.windowMinBuckets()).windows(buckets);
        for (Window w : windows) {
            spans.add(new EpisodeJoiner.Span(w.startSec(), w.endSec(), true, w.buckets(), w.worstP99Us() / 1000.0));
        }
        long worstBucket = buckets.stream().mapToLong(ClosedSeconds.Bucket::p99Us).max().orElse(-1);
        long probeP99 = probe == null || probe.totals().count() == 0 ? -1 : probe.totals().serviceAtPercentileUs(99);
        long samples = primary == null ? 0 : primary.totals().count();

        RepeatFacts facts = new RepeatFacts(track.kind(), primary, name -> track.scenarios().get(name), samples,
                primary == null ? 0 : primary.ledgerScheduled(),
                primary == null ? 0 : primary.totals().count() - primary.totals().failed(),
                dropped, failed, spanSec, DriftRule.thirds(primary), probeP99,
                primary == null ? new RepeatFacts.Claim(0, 0)
                        : new RepeatFacts.Claim(primary.totals().claimedEvents(), primary.totals().claimedQty(),
                                RepeatFacts.Unclaimed.of(primary.totals().errorsByKind(),
                                        primary.totals().failedEventsByKind())),
                track.gain(), configErrors, List.copyOf(track.scenarios().values()), targetOf.apply(primaryName));
        Map<String, GateResult> gates = GateSet.of(track.kind(), settings, track.k6Verdicts()).judge(facts);
        Abort aborted = track.aborted();
        if (aborted != null) {
            gates = abortFails(gates, aborted);
        }
        Silence silence = track.kind() == RepeatSummary.Kind.CEILING ? null : track.silence();
        if (silence != null) {
            gates = new LinkedHashMap<>(gates);
            // value: seconds of the schedule never offered; limit 0; the sentence says who and since when
            gates.put(Silence.ENDED_BY, new GateResult(Silence.ENDED_BY, false, silence.neverOfferedSec(), 0,
                    silence.describe()));
        }
        boolean pass = gates.values().stream().allMatch(GateResult::pass);
        // the reconciliation gates' own judgement (0 events claimed for 0 rows gained reconciles nothing)
        Boolean reconciled = track.gain() == null ? null
                : gates.values().stream().filter(g -> g.name().startsWith("reconciliation_")).allMatch(GateResult::pass);

        List<Episode> episodes = new ArrayList<>();
        Cadence cadence = FreezeRule.cadence(freezeSeconds);
        long repeatP50Us = primary == null ? 0 : primary.totals().serviceAtPercentileUs(50);
        for (Episode e : EpisodeJoiner.join(track.rep(), spans, settings.episodeGapSec())) {
            List<SecondStats> inside = seconds.stream()
                    .filter(s -> s.sec() >= e.startSec() && s.sec() < e.endSec()).toList();
            EpisodeScene scene = new EpisodeScene(withHealth(e, track), inside, repeatP50Us, track.healthBySec(),
                    telemetry, cadence, settings.attribution(), primary == null ? null : primary.serverTiming(),
                    environment, seconds.isEmpty() ? Long.MIN_VALUE : seconds.get(0).sec());
            LeverContext context = new LeverContext(environment,
                    seconds.isEmpty() ? e.startSec() : seconds.get(0).sec(),
                    seconds.isEmpty() ? e.endSec() : seconds.get(seconds.size() - 1).sec() + 1);
            Episode attributed = Attributor.withLever(attributor.attribute(scene), scene, context);
            episodes.add(attributed.withMissingSilentSince(telemetry.silentSince(attributed.missing(),
                    attributed.endSec())));
        }
        episodes = Attributor.onePerCause(episodes);
        return new RepeatSummary(track.rep(), track.kind(), primaryName, pass, samples, dropped, failed,
                primary == null ? 0 : primary.totals().serviceAtPercentileUs(50),
                primary == null ? 0 : primary.totals().serviceAtPercentileUs(99),
                primary == null ? 0 : primary.totals().responseAtPercentileUs(99), facts.drift(), spanSec, cadence,
                freezeSeconds, windows, WindowRule.medianP99Us(buckets), worstBucket, probeP99, reconciled, provisional,
                facts.claim().events(), facts.claim().qtySum(), gates, episodes, track.closing(), late, aborted,
                errors(primary), primary == null ? Map.of() : primary.serverTiming().figures(), silence,
                droppedByScenario(track));
    }

    /**
     * A repeat stopped by {@code abortOnFail} fails: the threshold that stopped it fails its gate, whatever the
     * figure over the shortened repeat (which the gate keeps); a threshold no longer among the gates (the CONFIG
     * changed) fails a gate {@code aborted} holding its name.
     */
    private static Map<String, GateResult> abortFails(Map<String, GateResult> gates, Abort aborted) {
        Map<String, GateResult> out = new LinkedHashMap<>(gates);
        GateResult g = out.get(aborted.threshold());
        if (g != null) {
            out.put(g.name(), new GateResult(g.name(), false, g.value(), g.limit(), g.reason()));
        } else {
            out.put("aborted", new GateResult("aborted", false, aborted.threshold(), null));
        }
        return out;
    }

    /** The scenario's failed requests by error kind code, most first (ties in {@link ErrorKind} order). */
    private static Map<String, Long> errors(ScenarioSeconds primary) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (primary == null) {
            return out;
        }
        primary.totals().errorsByKind().entrySet().stream()
                .sorted(Comparator.comparingLong((Map.Entry<ErrorKind, Long> e) -> e.getValue()).reversed()
                        .thenComparing(Map.Entry::getKey))
                .forEach(e -> out.put(e.getKey().code(), e.getValue()));
        return out;
    }

    /**
     * The primary scenario: the configured one, else the non-probe scenario with the most samples (ties: the
     * first by name); null when there is none.
     */
    public static String primaryScenario(RepeatTrack track, AnalyzerSettings settings) {
        if (!settings.scenario().isEmpty()) {
            return settings.scenario();
        }
        String best = null;
        long most = -1;
        for (var e : track.scenarios().entrySet()) {
            if (!e.getKey().equals(settings.probeScenario()) && e.getValue().totals().count() > most) {
                most = e.getValue().totals().count();
                best = e.getKey();
            }
        }
        return best;
    }

    /**
     * A live, provisional episode: the open run of freeze-seconds attributed with the telemetry so far and the
     * series' ENVIRONMENT facts ({@code environment}, null or empty before they arrive), as {@link #judge} will.
     */
    public static Episode provisional(RepeatTrack track, ScenarioSeconds scenario, RepeatTrack.OpenEpisode open,
                                      AnalyzerSettings settings, Attributor attributor, TelemetryIndex telemetry,
                                      Map<String, Object> environment) {
        Episode e = new Episode(track.rep(), open.startSec(), open.endSec(), open.freezeSeconds(), 0, open.worstMs(),
                Cause.UNATTRIBUTED, Confidence.UNATTRIBUTED, List.of(new Evidence("rig.samples", open.freezeSeconds()
                        + " freeze-second(s) so far, worst request " + open.worstMs() + " ms")), List.of(), null);
        List<SecondStats> inside = new ArrayList<>();
        List<Long> freezes = new ArrayList<>();
        long firstSec = Long.MIN_VALUE;
        for (SecondStats s : scenario.closed().stats()) {
            firstSec = firstSec == Long.MIN_VALUE ? s.sec() : firstSec;
            if (s.sec() >= open.startSec() && s.sec() < open.endSec()) {
                inside.add(s);
            }
            if (s.freeze()) {
                freezes.add(s.sec());
            }
        }
        return attributor.attribute(new EpisodeScene(withHealth(e, track), inside, scenario.totals().serviceAtPercentileUs(50),
                track.healthBySec(), telemetry, FreezeRule.cadence(freezes), settings.attribution(), null, environment,
                firstSec));
    }

    private static Episode withHealth(Episode e, RepeatTrack track) {
        var health = track.healthBySec();
        if (health.isEmpty()) {
            return e.attributed(e.cause(), e.confidence(), List.of(), List.of("rig.health"));
        }
        double pause = 0;
        double lag = 0;
        double oldest = 0;
        int n = 0;
        for (double[] w : health.subMap(e.startSec() - 1, true, e.endSec(), true).values()) {
            pause = Math.max(pause, w[0]);
            lag = Math.max(lag, w[1]);
            oldest = Math.max(oldest, w[2]);
            n++;
        }
        String fact = n == 0 ? "no health record within 1 s of the episode"
                : "worst JVM pause " + pause + " ms, worst event-loop lag " + lag + " ms, oldest in flight "
                        + oldest + " ms (" + n + " s of records from " + (e.startSec() - 1) + " to " + e.endSec() + ")";
        return e.attributed(e.cause(), e.confidence(), List.of(new Evidence("rig.health", fact)), List.of());
    }

    private static Map<String, Long> droppedByScenario(RepeatTrack track) {
        Map<String, Long> out = new LinkedHashMap<>();
        track.scenarios().forEach((name, s) -> out.put(name, s.ledgerDropped()));
        return out;
    }

    /**
     * The {@code abortOnFail} rule: while a sustained repeat runs, each threshold that carries k6's {@code abortOnFail}
     * is measured as its gate measures it ({@link ThresholdGate#value}) over the seconds closed so far, once the last
     * of them ends at least its {@code delayAbortEval} into the repeat's schedule (event time: the REPEAT_START's
     * {@code start_epoch_us}); the first that fails, with something measured, stops the repeat. Decided once per repeat,
     * live only: a replay reads the stop from the REPEAT_END marker ({@link Abort}), so it reports what the live run
     * reported whatever order the records come in.
     *
     * <p>Like k6, which checks its thresholds every few seconds on what it has aggregated so far, the figure is the one
     * at that moment; the report's gate keeps the figure over the whole repeat.
     */
    public static final class AbortOnFail {

        private AbortOnFail() {
        }

        /**
         * The stop this repeat's closed seconds call for, or null: none of its thresholds carries abortOnFail, it is
         * not a sustained repeat, its end arrived, a stop was already decided, it is too early for every such
         * threshold, or each holds (or measures nothing yet).
         */
        public static Abort check(RepeatTrack track, AnalyzerSettings settings) {
            if (!track.startSeen() || track.endSeen() || track.abortDecided() || track.kind() != RepeatSummary.Kind.SUSTAINED) {
                return null;
            }
            List<Threshold> aborting = settings.thresholds().stream().filter(Threshold::abortOnFail).toList();
            if (aborting.isEmpty()) {
                return null;
            }
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            long closed = 0;
            for (ScenarioSeconds s : track.scenarios().values()) {
                if (s.closed().size() > 0) {
                    first = Math.min(first, s.closed().first());
                    last = Math.max(last, s.closed().last());
                    closed += s.closed().size();
                }
            }
            if (closed == 0) {
                return null;
            }
            long scheduleStartUs = track.startEpochUs();
            long startUs = scheduleStartUs > 0 ? scheduleStartUs : first * 1_000_000L;
            long atMs = Math.max(0, ((last + 1) * 1_000_000L - startUs) / 1000);
            String primaryName = RepeatJudge.primaryScenario(track, settings);
            ScenarioSeconds primary = primaryName == null ? null : track.scenarios().get(primaryName);
            long spanSec = primary == null || primary.closed().size() == 0 ? 0
                    : primary.closed().last() - primary.closed().first() + 1;
            List<ScenarioSeconds> all = List.copyOf(track.scenarios().values());
            for (Threshold t : aborting) {
                if (atMs < t.delayAbortEval().toMillis()) {
                    continue;
                }
                double value = new ThresholdGate(t, settings.thresholdsAllScenarios())
                        .value(primary, name -> track.scenarios().get(name), all, spanSec);
                if (!Double.isNaN(value) && !t.holds(value)) {
                    track.markAbortDecided();
                    return new Abort(t.name(), Gate.round(value, 4), t.limit(), atMs,
                            t.delayAbortEval().toMillis(), track.scheduledMs(), distinctSeconds(track));
                }
            }
            return null;
        }

        /** Seconds of the repeat closed so far, a second closed in several scenarios counted once. */
        private static long distinctSeconds(RepeatTrack track) {
            Set<Long> seconds = new HashSet<>();
            for (ScenarioSeconds s : track.scenarios().values()) {
                s.closed().stats().forEach(stats -> seconds.add(stats.sec()));
            }
            return seconds.size();
        }
    }
}
