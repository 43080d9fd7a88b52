package io.rigscope.rig.series;

import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.threshold.ThresholdExpression.Aggregation;
import io.rigscope.analyzer.threshold.ThresholdExpression.Comparison;
import io.rigscope.analyzer.threshold.Metric;
import io.rigscope.analyzer.threshold.Threshold;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a series plan cannot pass, known before any load: checked when the series file is read, so that a plan whose
 * every repeat must fail says so at once (exit 2 naming the key, or a warning with {@code run --allow}) instead of
 * after its last repeat. Only what is decidable from the plan alone:
 *
 * <ul>
 *   <li>{@code sustained.rate} x {@code sustained.duration} below {@code analyzer.min_samples}: every repeat fails
 *       its samples gate;</li>
 *   <li>a threshold on {@code http_reqs} (count or rate) above what the planned rates can send, or a
 *       {@code http_req_failed} rate below 0;</li>
 *   <li>a probe (a scenario with a rate of its own) whose rate x the probe gate's p99 ({@code analyzer.probe_p99_ms})
 *       exceeds its {@code max_in_flight}: answered within its own gate, it would still be dropped, and a drop fails
 *       the repeat.</li>
 * </ul>
 */
public final class PlanCheck {

    /**
     * One plan that cannot pass.
     *
     * @param key the series file's key to change
     * @param problem why, in one sentence with the figures
     */
    public record Problem(String key, String problem) {
        /** {@code key: problem}. */
        public String line() {
            return key + ": " + problem;
        }
    }

    private PlanCheck() {
    }

    /** Every problem of {@code plan}, in file order; empty when it can pass. */
    public static List<Problem> problems(SeriesPlan plan) {
        AnalyzerSettings settings = AnalyzerSettings.defaults().withConfig(plan.analyzer());
        List<Problem> out = new ArrayList<>();
        SeriesPlan.Sustained s = plan.sustained();
        double seconds = s.duration().toMillis() / 1000.0;
        long planned = (long) Math.floor(s.requestsPerSec() * seconds);
        if (planned < settings.minSamples()) {
            out.add(new Problem("sustained", String.format(Locale.ROOT, "%s req/s x %s s = %,d requests per repeat, "
                    + "fewer than min_samples %,d (analyzer.min_samples, default 1000): every repeat would fail its "
                    + "samples gate; raise sustained.rate or sustained.duration, or lower analyzer.min_samples",
                    number(s.requestsPerSec()), number(seconds), planned, settings.minSamples())));
        }
        List<Scenario> scenarios = SeriesRunner.scenariosOf(plan, s.requestsPerSec(), plan.load().maxInFlight(),
                LoopMode.OPEN);
        double othersPerSec = scenarios.stream().skip(1).mapToDouble(Scenario::requestsPerSec).sum();
        for (Threshold t : settings.thresholds()) {
            Problem p = threshold(t, s.requestsPerSec(), othersPerSec, seconds);
            if (p != null) {
                out.add(p);
            }
        }
        double probeP99Sec = settings.probeP99Us() / 1e6;
        for (int i = 1; i < scenarios.size(); i++) {
            Scenario sc = scenarios.get(i);
            double inFlight = sc.requestsPerSec() * probeP99Sec;
            if (inFlight > sc.maxInFlight()) {
                out.add(new Problem(plan.requests() == null ? "load.probe_rate" : scenarioKey(plan, sc.name()),
                        String.format(Locale.ROOT, "%s req/s with max_in_flight %d: answered at the probe gate's p99 "
                                + "(%s ms, analyzer.probe_p99_ms) it holds %.1f requests in flight, more than its cap, "
                                + "and each request it cannot start is a drop that fails the repeat; lower its rate "
                                + "or raise its max_in_flight to %d", number(sc.requestsPerSec()), sc.maxInFlight(),
                                number(settings.probeP99Us() / 1000.0), inFlight, (long) Math.ceil(inFlight))));
            }
        }
        return out;
    }

    /** A threshold no planned rate can meet, or null. */
    private static Problem threshold(Threshold t, double ingestPerSec, double othersPerSec, double seconds) {
        Aggregation.Kind kind = t.aggregation().kind();
        boolean atLeast = t.comparison() == Comparison.GT || t.comparison() == Comparison.GE;
        if (t.metric() == Metric.HTTP_REQS && atLeast) {
            // the most the plan can send: every scenario counted, whatever the threshold's filter
            double mostPerSec = ingestPerSec + othersPerSec;
            double most = kind == Aggregation.Kind.COUNT ? Math.floor(mostPerSec * seconds) : mostPerSec;
            boolean cannot = t.comparison() == Comparison.GT ? most <= t.limit() : most < t.limit();
            if (cannot) {
                return new Problem("thresholds", String.format(Locale.ROOT, "%s cannot hold: the plan sends at most "
                        + "%s %s per sustained repeat (sustained.rate %s req/s%s)", t.name(), number(most),
                        kind == Aggregation.Kind.COUNT ? "requests" : "req/s", number(ingestPerSec),
                        othersPerSec > 0 ? " and " + number(othersPerSec) + " req/s of other scenarios" : ""));
            }
        }
        if (t.metric() == Metric.HTTP_REQ_FAILED && kind == Aggregation.Kind.RATE
                && (t.comparison() == Comparison.LT && t.limit() <= 0 || t.comparison() == Comparison.LE && t.limit() < 0)) {
            return new Problem("thresholds", t.name() + " cannot hold: a failure rate is never below 0 (write rate<=0 "
                    + "or rate==0 for no failure at all)");
        }
        return null;
    }

    private static String scenarioKey(SeriesPlan plan, String name) {
        List<io.rigscope.rig.plan.ScenarioSpec> specs = plan.requests().specs();
        for (int i = 0; i < specs.size(); i++) {
            if (name.equals(specs.get(i).name())) {
                return "scenarios[" + i + "].rate";
            }
        }
        return "scenarios";
    }

    private static String number(double d) {
        return d == Math.rint(d) ? String.format(Locale.ROOT, "%,d", (long) d) : String.format(Locale.ROOT, "%.1f", d);
    }
}
