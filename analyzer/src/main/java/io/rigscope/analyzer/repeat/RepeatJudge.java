package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.episode.Attributor;
import io.rigscope.analyzer.episode.Episode;
import io.rigscope.analyzer.episode.EpisodeJoiner;
import io.rigscope.analyzer.episode.Evidence;
import io.rigscope.analyzer.freeze.Cadence;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.analyzer.gate.GateResult;
import io.rigscope.analyzer.second.ScenarioSeconds;
import io.rigscope.analyzer.second.SecondStats;
import io.rigscope.analyzer.threshold.Aggregation;
import io.rigscope.analyzer.threshold.Threshold;
import io.rigscope.analyzer.window.Window;
import io.rigscope.analyzer.window.WindowRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges a repeat: figures, freeze-seconds and cadence, windows, episodes and gates (docs/gates.md). Pure: the
 * same track and settings give the same summary, whatever order the records arrived in.
 */
public final class RepeatJudge {

    /** The reconciliation marker's keys (docs/wire-format.md). */
    public static final String ROWS_WRITTEN = "rows_written";
    public static final String EVENTS_CLAIMED = "events_claimed";
    public static final String QTY_SUM_SENT = "qty_sum_sent";
    public static final String QTY_SUM_GAINED = "qty_sum_gained";

    private RepeatJudge() {
    }

    /**
     * @param configErrors problems with the series' CONFIG (each fails the {@code config} gate)
     */
    public static RepeatSummary judge(RepeatTrack track, AnalyzerSettings settings, Attributor attributor,
                                      List<String> configErrors) {
        String primaryName = primaryScenario(track, settings);
        ScenarioSeconds primary = primaryName == null ? null : track.scenarios().get(primaryName);
        ScenarioSeconds probe = track.scenarios().get(settings.probeScenario());
        FreezeRule rule = new FreezeRule(settings.freezeWorstUs(), settings.freezeSlowUs(), settings.freezeSlowFraction());

        long dropped = 0;
        long failed = 0;
        long provisional = 0;
        for (ScenarioSeconds s : track.scenarios().values()) {
            dropped += s.ledgerTotals()[2];
            failed += s.failed();
        }
        List<SecondStats> seconds = primary == null ? List.of() : primary.seconds();
        List<Long> freezeSeconds = new ArrayList<>();
        List<EpisodeJoiner.Span> spans = new ArrayList<>();
        for (SecondStats s : seconds) {
            if (!s.exact()) {
                provisional++;
            }
            if (rule.isFreeze(s.count(), s.slowCount(), s.maxServiceUs())) {
                freezeSeconds.add(s.sec());
                spans.add(new EpisodeJoiner.Span(s.sec(), s.sec() + 1, false, 0, s.maxServiceUs() / 1000.0));
            }
        }
        long spanSec = seconds.isEmpty() ? 0 : seconds.get(seconds.size() - 1).sec() - seconds.get(0).sec() + 1;
        List<ScenarioSeconds.Bucket> buckets = primary == null ? List.of() : primary.buckets(settings.windowBucketSec());
        WindowRule windowRule = new WindowRule(settings.windowFactor(), settings.windowMinBuckets());
        List<Window> windows = windowRule.windows(buckets);
        for (Window w : windows) {
            spans.add(new EpisodeJoiner.Span(w.startSec(), w.endSec(), true, w.buckets(), w.worstP99Us() / 1000.0));
        }
        long worstBucket = buckets.stream().mapToLong(ScenarioSeconds.Bucket::p99Us).max().orElse(-1);
        ScenarioSeconds.Thirds thirds = primary == null ? null : primary.thirds();
        Double drift = thirds == null ? null : thirds.ratio();
        long probeP99 = probe == null || probe.count() == 0 ? -1 : probe.serviceAtPercentileUs(99);

        Map<String, Object> rec = track.reconciliation();
        Boolean reconciled = rec == null ? null
                : equal(rec.get(ROWS_WRITTEN), rec.get(EVENTS_CLAIMED)) && equal(rec.get(QTY_SUM_GAINED), rec.get(QTY_SUM_SENT));

        Map<String, GateResult> gates = new LinkedHashMap<>();
        if (!configErrors.isEmpty()) {
            gates.put("config", new GateResult("config", false, String.join("; ", configErrors), null));
        }
        long samples = primary == null ? 0 : primary.count();
        if (track.kind() == RepeatTrack.Kind.LADDER) {
            long scheduled = primary == null ? 0 : primary.ledgerTotals()[0];
            long delivered = primary == null ? 0 : primary.count() - primary.failed();
            Double ratio = scheduled == 0 ? null : round((double) delivered / scheduled, 4);
            gates.put("delivered_ratio", new GateResult("delivered_ratio",
                    ratio != null && ratio >= settings.ladderMinDeliveredRatio(), ratio,
                    settings.ladderMinDeliveredRatio()));
            gates.put("dropped", new GateResult("dropped", dropped == 0, dropped, 0));
            reconciliationGates(rec, settings, gates);
        } else {
            for (Threshold t : settings.thresholds()) {
                ScenarioSeconds target = t.scenario() == null ? primary : track.scenarios().get(t.scenario());
                double value = measure(t, target, spanSec);
                gates.put(t.name(), new GateResult(t.name(), t.holds(value),
                        Double.isNaN(value) ? null : round(value, 4), t.limit()));
            }
            gates.put("dropped", new GateResult("dropped", dropped == 0, dropped, 0));
            gates.put("failed", new GateResult("failed", failed == 0, failed, 0));
            reconciliationGates(rec, settings, gates);
            gates.put("samples", new GateResult("samples", samples >= settings.minSamples(), samples,
                    settings.minSamples()));
            gates.put("drift", new GateResult("drift", drift != null && drift <= settings.driftBound(),
                    drift == null ? null : round(drift, 4), settings.driftBound()));
            if (probeP99 >= 0) {
                gates.put("probe_p99_ms", new GateResult("probe_p99_ms", probeP99 <= settings.probeP99Us(),
                        probeP99 / 1000.0, settings.probeP99Us() / 1000.0));
            }
        }
        boolean pass = gates.values().stream().allMatch(GateResult::pass);

        List<Episode> episodes = new ArrayList<>();
        for (Episode e : EpisodeJoiner.join(track.rep(), spans, settings.episodeGapSec())) {
            episodes.add(attributor.attribute(withHealth(e, track)));
        }
        return new RepeatSummary(track.rep(), track.kind(), primaryName, pass, samples, dropped, failed,
                primary == null ? 0 : primary.serviceAtPercentileUs(50),
                primary == null ? 0 : primary.serviceAtPercentileUs(99),
                primary == null ? 0 : primary.responseAtPercentileUs(99), drift, spanSec, Cadence.of(freezeSeconds),
                freezeSeconds, windows, WindowRule.medianP99Us(buckets), worstBucket, probeP99, reconciled, provisional,
                gates, episodes);
    }

    /**
     * The primary scenario: the configured one, else the non-probe scenario with the most samples (ties: the
     * first by name); null when there is none.
     */
    static String primaryScenario(RepeatTrack track, AnalyzerSettings settings) {
        if (!settings.scenario().isEmpty()) {
            return settings.scenario();
        }
        String best = null;
        long most = -1;
        for (var e : track.scenarios().entrySet()) {
            if (!e.getKey().equals(settings.probeScenario()) && e.getValue().count() > most) {
                most = e.getValue().count();
                best = e.getKey();
            }
        }
        return best;
    }

    private static void reconciliationGates(Map<String, Object> rec, AnalyzerSettings settings,
                                            Map<String, GateResult> gates) {
        if (rec == null && !settings.reconciliationRequired()) {
            return;
        }
        Object rows = rec == null ? null : rec.get(ROWS_WRITTEN);
        Object claimed = rec == null ? null : rec.get(EVENTS_CLAIMED);
        Object gained = rec == null ? null : rec.get(QTY_SUM_GAINED);
        Object sent = rec == null ? null : rec.get(QTY_SUM_SENT);
        gates.put("reconciliation_rows", new GateResult("reconciliation_rows", equal(rows, claimed), rows, claimed));
        gates.put("reconciliation_qty", new GateResult("reconciliation_qty", equal(gained, sent), gained, sent));
    }

    private static boolean equal(Object a, Object b) {
        if (!(a instanceof Number x) || !(b instanceof Number y)) {
            return false;
        }
        return x.doubleValue() == y.doubleValue();
    }

    private static double measure(Threshold t, ScenarioSeconds s, long spanSec) {
        if (s == null || s.count() == 0 && t.aggregation().kind() != Aggregation.Kind.COUNT) {
            return Double.NaN;
        }
        double perSec = spanSec == 0 ? Double.NaN : 1.0 / spanSec;
        return switch (t.metric()) {
            case HTTP_REQ_DURATION -> switch (t.aggregation().kind()) {
                case AVG -> s.meanServiceUs() / 1000.0;
                case MIN -> s.minServiceUs() / 1000.0;
                case MAX -> s.maxServiceUs() / 1000.0;
                case MED -> s.serviceAtPercentileUs(50) / 1000.0;
                case PERCENTILE -> s.serviceAtPercentileUs(t.aggregation().percentile()) / 1000.0;
                default -> Double.NaN;
            };
            case HTTP_REQ_FAILED -> (double) s.failed() / s.count();
            case HTTP_REQS -> t.aggregation().kind() == Aggregation.Kind.COUNT ? s.count() : s.count() * perSec;
            case DROPPED_ITERATIONS -> t.aggregation().kind() == Aggregation.Kind.COUNT ? s.ledgerTotals()[2]
                    : s.ledgerTotals()[2] * perSec;
        };
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

    private static double round(double v, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.round(v * f) / f;
    }
}
