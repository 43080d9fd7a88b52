package io.rigscope.analyzer.series;

import io.rigscope.analyzer.episode.Episode;
import io.rigscope.analyzer.repeat.RepeatSummary;
import io.rigscope.analyzer.repeat.RepeatTrack;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A series' final report: verdict, passed/total, figures over the passing repeats, every repeat and episode.
 * Holds no wall-clock time, so the same input always renders the same bytes.
 *
 * <p>Figures: p50 and p99 are the medians of the passing repeats' p50 and p99 (an even count takes the mean of
 * the two middle values); the p99 range is their min and max; the worst 10-s p99 is the worst bucket of any
 * repeat. Failed repeats are in none of these except the worst bucket. When the series is
 * {@link SeriesVerdict#UNRECONCILED}, every figure is null.
 */
public record SeriesReport(String series, SeriesVerdict verdict, int passed, int total, String scenario,
                           Double p50Ms, Double p99Ms, List<Double> p99RangeMs, Double worst10sP99Ms,
                           String reconciliation, List<RepeatSummary> repeats, long samplesOutsideRepeats) {

    public SeriesReport {
        p99RangeMs = p99RangeMs == null ? null : List.copyOf(p99RangeMs);
        repeats = List.copyOf(repeats);
    }

    /** Builds the report of these repeat summaries (in repeat order). */
    public static SeriesReport of(String series, List<RepeatSummary> repeats, boolean reconciliationRequired,
                                  long samplesOutsideRepeats) {
        // A configuration is reported by its sustained repeats; ladder rungs find the knee and are listed, not
        // counted (a rung failing is what a ladder is for). A series with no sustained repeat is judged by its rungs.
        List<RepeatSummary> judged = repeats.stream().filter(r -> r.kind() == RepeatTrack.Kind.SUSTAINED).toList();
        if (judged.isEmpty()) {
            judged = repeats;
        }
        int passed = (int) judged.stream().filter(RepeatSummary::pass).count();
        List<String> problems = new ArrayList<>();
        for (RepeatSummary r : repeats) {
            if (r.reconciled() == null && reconciliationRequired) {
                problems.add("rep " + r.rep() + ": no reconciliation");
            } else if (Boolean.FALSE.equals(r.reconciled())) {
                problems.add("rep " + r.rep() + ": " + describe(r));
            }
        }
        SeriesVerdict verdict = !problems.isEmpty() ? SeriesVerdict.UNRECONCILED
                : !judged.isEmpty() && passed == judged.size() ? SeriesVerdict.PASS : SeriesVerdict.FAIL;
        String reconciliation = problems.isEmpty()
                ? (repeats.stream().allMatch(r -> Boolean.TRUE.equals(r.reconciled())) ? "reconciled" : "not required")
                : String.join("; ", problems);
        String scenario = repeats.stream().map(RepeatSummary::scenario).filter(s -> s != null).findFirst().orElse(null);
        if (verdict == SeriesVerdict.UNRECONCILED) {
            return new SeriesReport(series, verdict, passed, judged.size(), scenario, null, null, null, null,
                    reconciliation, repeats, samplesOutsideRepeats);
        }
        List<Long> p50 = judged.stream().filter(RepeatSummary::pass).map(RepeatSummary::p50Us).sorted().toList();
        List<Long> p99 = judged.stream().filter(RepeatSummary::pass).map(RepeatSummary::p99Us).sorted().toList();
        long worst = judged.stream().mapToLong(RepeatSummary::worstBucketP99Us).max().orElse(-1);
        return new SeriesReport(series, verdict, passed, judged.size(), scenario, medianMs(p50), medianMs(p99),
                p99.isEmpty() ? null : List.of(p99.get(0) / 1000.0, p99.get(p99.size() - 1) / 1000.0),
                worst < 0 ? null : worst / 1000.0, reconciliation, repeats, samplesOutsideRepeats);
    }

    private static String describe(RepeatSummary r) {
        StringBuilder b = new StringBuilder();
        var rows = r.gates().get("reconciliation_rows");
        var qty = r.gates().get("reconciliation_qty");
        if (rows != null && !rows.pass()) {
            b.append("rows_written ").append(rows.value()).append(" != events_claimed ").append(rows.limit());
        }
        if (qty != null && !qty.pass()) {
            b.append(b.length() == 0 ? "" : ", ").append("qty_sum_gained ").append(qty.value())
                    .append(" != qty_sum_sent ").append(qty.limit());
        }
        return b.toString();
    }

    private static Double medianMs(List<Long> sortedUs) {
        if (sortedUs.isEmpty()) {
            return null;
        }
        int n = sortedUs.size();
        double us = n % 2 == 1 ? sortedUs.get(n / 2) : (sortedUs.get(n / 2 - 1) + sortedUs.get(n / 2)) / 2.0;
        return Math.round(us) / 1000.0;
    }

    /** True when the verdict is PASS (exit 0); anything else exits 99. */
    public boolean allGatesPassed() {
        return verdict == SeriesVerdict.PASS;
    }

    /** Every episode of every repeat, in repeat and time order. */
    public List<Episode> episodes() {
        List<Episode> all = new ArrayList<>();
        repeats.forEach(r -> all.addAll(r.episodes()));
        return all;
    }

    /** One line: {@code 4/5 passed, p99 22.6 ms (21.9-24.0), p50 3.1 ms}, or why there are no figures. */
    public String headline() {
        if (verdict == SeriesVerdict.UNRECONCILED) {
            return "UNRECONCILED: " + reconciliation;
        }
        String head = passed + "/" + total + " passed";
        if (p99Ms == null) {
            return head;
        }
        return head + ", p99 " + p99Ms + " ms (" + p99RangeMs.get(0) + "-" + p99RangeMs.get(1) + "), p50 " + p50Ms
                + " ms" + (worst10sP99Ms == null ? "" : ", worst 10-s p99 " + worst10sP99Ms + " ms");
    }

    /** The report JSON's fields, in order. Also the SERIES verdict's body. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("series", series);
        m.put("verdict", verdict.name());
        m.put("passed", passed);
        m.put("total", total);
        m.put("headline", headline());
        m.put("scenario", scenario);
        m.put("p50_ms", p50Ms);
        m.put("p99_ms", p99Ms);
        m.put("p99_range_ms", p99RangeMs);
        m.put("worst_10s_p99_ms", worst10sP99Ms);
        m.put("reconciliation", reconciliation);
        m.put("samples_outside_repeats", samplesOutsideRepeats);
        m.put("repeats", repeats.stream().map(RepeatSummary::toMap).toList());
        m.put("episodes", episodes().stream().map(Episode::toMap).toList());
        return m;
    }
}
