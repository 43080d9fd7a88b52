package io.rigscope.rig.export;

import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.analyzer.decision.SeriesReport.SeriesVerdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The samples one decision becomes (docs/export.md, the metric table): a closed second's native histogram, its
 * gauges and the running totals of its repeat; a freeze-second; a final episode; a judged repeat and its gates; the
 * series verdict. Provisional seconds and episodes become nothing (they will be decided again). Every sample is
 * stamped with the decision's own event time.
 *
 * <p>Not thread-safe: one instance per decision stream, called on that stream's thread.
 */
final class DecisionSamples {

    /** Running totals per series, rep and scenario: completed, failed, offered, sent, dropped, freeze-seconds. */
    private final Map<String, long[]> totals = new HashMap<>();

    List<TimeSeriesSample> of(Decision d) {
        List<TimeSeriesSample> out = new ArrayList<>();
        if (d instanceof Decision.Second s && !s.provisional()) {
            second(s, out);
        } else if (d instanceof Decision.Freeze f) {
            long ms = f.tsUs() / 1000;
            Map<String, String> labels = labels(f.series(), f.rep(), f.scenario());
            out.add(new TimeSeriesSample("rigscope_freeze_second", labels, 1, null, ms));
            long[] t = totals.computeIfAbsent(f.series() + '\0' + f.rep() + '\0' + f.scenario(), k -> new long[6]);
            t[5]++;
            out.add(new TimeSeriesSample("rigscope_freeze_seconds_total", labels, t[5], null, ms));
        } else if (d instanceof Decision.EpisodeFound e && !e.provisional()) {
            episode(e, out);
        } else if (d instanceof Decision.Repeat r) {
            repeat(r, out);
        } else if (d instanceof Decision.Series s) {
            series(s, out);
        }
        return out;
    }

    private void second(Decision.Second s, List<TimeSeriesSample> out) {
        long ms = s.tsUs() / 1000;
        SecondStats st = s.second();
        Map<String, String> labels = labels(s.series(), s.rep(), s.scenario());
        if (s.serviceHistogram() != null) {
            out.add(new TimeSeriesSample("rigscope_second_service_seconds", labels, 0,
                    NativeHistogram.ofMicros(s.serviceHistogram().decode()), ms));
        }
        gauge(out, "rigscope_second_service_p50_seconds", labels, st.p50ServiceUs() / 1e6, ms);
        gauge(out, "rigscope_second_service_p99_seconds", labels, st.p99ServiceUs() / 1e6, ms);
        gauge(out, "rigscope_second_service_max_seconds", labels, st.maxServiceUs() / 1e6, ms);
        gauge(out, "rigscope_second_response_p99_seconds", labels, st.p99ResponseUs() / 1e6, ms);
        gauge(out, "rigscope_second_completed_requests", labels, st.count(), ms);
        gauge(out, "rigscope_second_failed_requests", labels, st.failed(), ms);
        gauge(out, "rigscope_second_offered_requests", labels, st.ledger().scheduled(), ms);
        gauge(out, "rigscope_second_sent_requests", labels, st.ledger().sent(), ms);
        gauge(out, "rigscope_second_dropped_requests", labels, st.ledger().dropped(), ms);
        gauge(out, "rigscope_second_in_flight_requests", labels, st.ledger().inFlight(), ms);
        long[] t = totals.computeIfAbsent(s.series() + '\0' + s.rep() + '\0' + s.scenario(), k -> new long[6]);
        t[0] += st.count();
        t[1] += st.failed();
        t[2] += st.ledger().scheduled();
        t[3] += st.ledger().sent();
        t[4] += st.ledger().dropped();
        gauge(out, "rigscope_completed_requests_total", labels, t[0], ms);
        gauge(out, "rigscope_failed_requests_total", labels, t[1], ms);
        gauge(out, "rigscope_offered_requests_total", labels, t[2], ms);
        gauge(out, "rigscope_sent_requests_total", labels, t[3], ms);
        gauge(out, "rigscope_dropped_requests_total", labels, t[4], ms);
    }

    private static void episode(Decision.EpisodeFound e, List<TimeSeriesSample> out) {
        Episode ep = e.episode();
        Map<String, String> labels = labels(e.series(), e.rep(), e.scenario());
        labels.put("cause", ep.cause().code());
        labels.put("confidence", ep.confidence().code());
        long ms = e.tsUs() / 1000;
        gauge(out, "rigscope_episode_freeze_seconds", labels, ep.freezeSeconds(), ms);
        gauge(out, "rigscope_episode_window_buckets", labels, ep.windowBuckets(), ms);
        gauge(out, "rigscope_episode_worst_seconds", labels, ep.worstMs() / 1e3, ms);
    }

    private static void repeat(Decision.Repeat r, List<TimeSeriesSample> out) {
        RepeatSummary sum = r.summary();
        long ms = r.tsUs() / 1000;
        Map<String, String> labels = labels(r.series(), r.rep(), sum.scenario());
        Map<String, String> withKind = new LinkedHashMap<>(labels);
        withKind.put("kind", sum.kind().code());
        gauge(out, "rigscope_repeat_pass", withKind, sum.pass() ? 1 : 0, ms);
        gauge(out, "rigscope_repeat_samples", labels, sum.samples(), ms);
        gauge(out, "rigscope_repeat_dropped_requests", labels, sum.dropped(), ms);
        gauge(out, "rigscope_repeat_failed_requests", labels, sum.failed(), ms);
        gauge(out, "rigscope_repeat_events_claimed", labels, sum.eventsClaimed(), ms);
        gauge(out, "rigscope_repeat_service_p50_seconds", labels, sum.p50Us() / 1e6, ms);
        gauge(out, "rigscope_repeat_service_p99_seconds", labels, sum.p99Us() / 1e6, ms);
        gauge(out, "rigscope_repeat_freeze_seconds", labels, sum.freezeSeconds().size(), ms);
        sum.errors().forEach((kind, n) -> {
            Map<String, String> l = new LinkedHashMap<>(labels);
            l.put("error", kind);
            gauge(out, "rigscope_repeat_failed_requests_by_error", l, n, ms);
        });
        sum.freezeSecondsByCause().forEach((cause, n) -> {
            Map<String, String> l = new LinkedHashMap<>(labels);
            l.put("cause", cause);
            gauge(out, "rigscope_repeat_freeze_seconds_by_cause", l, n, ms);
        });
        for (GateResult g : sum.gates().values()) {
            Map<String, String> l = labels(r.series(), r.rep(), null);
            l.put("gate", g.name());
            gauge(out, "rigscope_gate_pass", l, g.pass() ? 1 : 0, ms);
        }
    }

    private static void series(Decision.Series s, List<TimeSeriesSample> out) {
        SeriesReport report = s.report();
        long ms = s.tsUs() / 1000;
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("series", s.series());
        Map<String, String> withVerdict = new LinkedHashMap<>(labels);
        withVerdict.put("verdict", report.verdict().name());
        gauge(out, "rigscope_series_pass", withVerdict, report.verdict() == SeriesVerdict.PASS ? 1 : 0, ms);
        gauge(out, "rigscope_series_passed_repeats", labels, report.passed(), ms);
        gauge(out, "rigscope_series_judged_repeats", labels, report.total(), ms);
        report.freezeSecondsByCause().forEach((cause, n) -> {
            Map<String, String> l = new LinkedHashMap<>(labels);
            l.put("cause", cause);
            gauge(out, "rigscope_series_freeze_seconds_by_cause", l, n, ms);
        });
    }

    private static Map<String, String> labels(String series, int rep, String scenario) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("series", series);
        labels.put("rep", String.valueOf(rep));
        if (scenario != null) {
            labels.put("scenario", scenario);
        }
        return labels;
    }

    private static void gauge(List<TimeSeriesSample> out, String name, Map<String, String> labels, double value,
                              long timestampMs) {
        out.add(new TimeSeriesSample(name, labels, value, null, timestampMs));
    }
}
