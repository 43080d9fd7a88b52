package io.rigscope.analyzer.decision;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.Collections;
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
 *
 * <p>JSON (the report file and the SERIES verdict's body): the {@code @JsonProperty} names below, in order;
 * {@code environment} only when an ENVIRONMENT marker arrived.
 *
 * @param ceiling the closed-loop ceiling with its denominator, or null when the series ran none
 * @param environment the ENVIRONMENT marker's facts (hardware, settings), or null when none arrived
 * @param silentStreams telemetry streams that had been publishing and fell silent while the load still ran -> the
 *                      first second they were silent, epoch s; JSON {@code silent_streams}, absent when none
 * @param failedSteps steps of the series that failed without costing it its verdict (a denominator pgbench could not
 *                    run) -> the rig's one line (its PHASE_END's {@code failed}); JSON {@code failed_steps}, absent
 *                    when none
 */
@WireView
@JsonPropertyOrder({"series", "verdict", "passed", "total", "headline", "scenario", "p50_ms", "p99_ms",
    "p99_range_ms", "worst_10s_p99_ms", "reconciliation", "samples_outside_repeats", "repeats", "episodes",
    "freeze_seconds_by_cause", "ceiling", "environment", "silent_streams"})
public record SeriesReport(@JsonProperty("series") String series, SeriesVerdict verdict,
                           @JsonProperty("passed") int passed, @JsonProperty("total") int total,
                           @JsonProperty("scenario") String scenario, @JsonProperty("p50_ms") Double p50Ms,
                           @JsonProperty("p99_ms") Double p99Ms, @JsonProperty("p99_range_ms") List<Double> p99RangeMs,
                           @JsonProperty("worst_10s_p99_ms") Double worst10sP99Ms,
                           @JsonProperty("reconciliation") String reconciliation,
                           @JsonProperty("repeats") List<RepeatSummary> repeats,
                           @JsonProperty("samples_outside_repeats") long samplesOutsideRepeats,
                           @JsonProperty("ceiling") @JsonInclude(JsonInclude.Include.NON_NULL) Ceiling ceiling,
                           @JsonProperty("environment") @JsonInclude(JsonInclude.Include.NON_EMPTY)
                           Map<String, Object> environment,
                           @JsonProperty("silent_streams") @JsonInclude(JsonInclude.Include.NON_EMPTY)
                           Map<String, Long> silentStreams,
                           @JsonProperty("failed_steps") @JsonInclude(JsonInclude.Include.NON_EMPTY)
                           Map<String, String> failedSteps) {

    public SeriesReport {
        p99RangeMs = p99RangeMs == null ? null : List.copyOf(p99RangeMs);
        repeats = List.copyOf(repeats);
        environment = environment == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        silentStreams = silentStreams == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(silentStreams));
        failedSteps = failedSteps == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(failedSteps));
    }

    /** This report with the steps that failed (phase -> the rig's line: a denominator pgbench could not run). */
    public SeriesReport withFailedSteps(Map<String, String> failed) {
        return new SeriesReport(series, verdict, passed, total, scenario, p50Ms, p99Ms, p99RangeMs, worst10sP99Ms,
                reconciliation, repeats, samplesOutsideRepeats, ceiling, environment, silentStreams, failed);
    }

    /** This report with the telemetry streams that fell silent while the load ran (topic -> epoch s). */
    public SeriesReport withSilentStreams(Map<String, Long> silent) {
        return new SeriesReport(series, verdict, passed, total, scenario, p50Ms, p99Ms, p99RangeMs, worst10sP99Ms,
                reconciliation, repeats, samplesOutsideRepeats, ceiling, environment, silent, failedSteps);
    }

    /** This report with the series' environment facts (the ENVIRONMENT marker's data), or null. */
    public SeriesReport withEnvironment(Map<String, Object> facts) {
        return new SeriesReport(series, verdict, passed, total, scenario, p50Ms, p99Ms, p99RangeMs, worst10sP99Ms,
                reconciliation, repeats, samplesOutsideRepeats, ceiling, facts, silentStreams, failedSteps);
    }

    /** This report with the series' ceiling, or null. */
    public SeriesReport withCeiling(Ceiling measured) {
        return new SeriesReport(series, verdict, passed, total, scenario, p50Ms, p99Ms, p99RangeMs, worst10sP99Ms,
                reconciliation, repeats, samplesOutsideRepeats, measured, environment, silentStreams, failedSteps);
    }

    /** Builds the report of these repeat summaries (in repeat order). */
    public static SeriesReport of(String series, List<RepeatSummary> repeats, boolean reconciliationRequired,
                                  long samplesOutsideRepeats) {
        // A configuration is reported by its sustained repeats; ladder rungs find the knee and are listed, not
        // counted (a rung failing is what a ladder is for). A series with no sustained repeat is judged by its rungs.
        List<RepeatSummary> judged = repeats.stream().filter(r -> r.kind() == RepeatSummary.Kind.SUSTAINED).toList();
        if (judged.isEmpty()) {
            judged = repeats;
        }
        int passed = (int) judged.stream().filter(RepeatSummary::pass).count();
        List<String> problems = new ArrayList<>();
        for (RepeatSummary r : repeats) {
            if (r.reconciled() == null && reconciliationRequired) {
                problems.add("repeat " + r.rep() + ": no reconciliation");
            } else if (Boolean.FALSE.equals(r.reconciled())) {
                problems.add("repeat " + r.rep() + ": " + describe(r));
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
                    reconciliation, repeats, samplesOutsideRepeats, null, null, Map.of(), Map.of());
        }
        List<Long> p50 = judged.stream().filter(RepeatSummary::pass).map(RepeatSummary::p50Us).sorted().toList();
        List<Long> p99 = judged.stream().filter(RepeatSummary::pass).map(RepeatSummary::p99Us).sorted().toList();
        long worst = judged.stream().mapToLong(RepeatSummary::worstBucketP99Us).max().orElse(-1);
        return new SeriesReport(series, verdict, passed, judged.size(), scenario, medianMs(p50), medianMs(p99),
                p99.isEmpty() ? null : List.of(p99.get(0) / 1000.0, p99.get(p99.size() - 1) / 1000.0),
                worst < 0 ? null : worst / 1000.0, reconciliation, repeats, samplesOutsideRepeats, null, null, Map.of(), Map.of());
    }

    /**
     * Why a repeat did not reconcile: each failed reconciliation gate's reason (once: 0 vs 0 gives both gates the
     * same one), then its figures, e.g. {@code the database gained 12 rows beyond the 240 events claimed
     * (rows_written 252 != events_claimed 240)}.
     */
    private static String describe(RepeatSummary r) {
        var rows = r.gates().get("reconciliation_rows");
        var qty = r.gates().get("reconciliation_qty");
        List<String> reasons = new ArrayList<>();
        List<String> figures = new ArrayList<>();
        if (rows != null && !rows.pass()) {
            if (rows.reason() != null) {
                reasons.add(rows.reason());
            }
            figures.add("rows_written " + rows.value() + " != events_claimed " + rows.limit());
        }
        if (qty != null && !qty.pass()) {
            if (qty.reason() != null && !reasons.contains(qty.reason())) {
                reasons.add(qty.reason());
            }
            figures.add("qty_sum_gained " + qty.value() + " != qty_sum_sent " + qty.limit());
        }
        if (reasons.contains(RepeatSummary.NOTHING_MEASURED)) {
            return RepeatSummary.NOTHING_MEASURED + " (0 events claimed, 0 rows gained)";
        }
        String f = String.join(", ", figures);
        return reasons.isEmpty() ? f : String.join(", ", reasons) + " (" + f + ")";
    }

    /**
     * Why nothing of the load got through, when every primary-scenario request of the judged repeats failed: the
     * unreachable target's sentence when every one was refused, else the most common error kind and its count;
     * null when any request succeeded (or none was sent).
     */
    public String everyRequestFailed() {
        List<RepeatSummary> judged = repeats.stream().filter(r -> r.kind() == RepeatSummary.Kind.SUSTAINED).toList();
        if (judged.isEmpty()) {
            judged = repeats;
        }
        long samples = judged.stream().mapToLong(RepeatSummary::samples).sum();
        long failed = judged.stream().mapToLong(RepeatSummary::primaryFailed).sum();
        if (samples == 0 || failed < samples) {
            return null;
        }
        for (RepeatSummary r : judged) {
            var gate = r.gates().get("failed");
            if (gate == null) {
                gate = r.gates().get("delivered_ratio");
            }
            if (gate != null && gate.reason() != null && gate.reason().startsWith("target unreachable")) {
                return gate.reason() + ", " + samples + " of " + samples + " " + scenarioName() + " requests";
            }
        }
        Map<String, Long> byKind = new LinkedHashMap<>();
        judged.forEach(r -> r.errors().forEach((k, n) -> byKind.merge(k, n, Long::sum)));
        var top = byKind.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
        return "every " + scenarioName() + " request failed, most often " + top.getKey() + " (" + top.getValue()
                + " of " + samples + ")";
    }

    private String scenarioName() {
        return scenario == null ? "load" : scenario;
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

    /** Freeze-seconds of every repeat by the cause of their episode ({@link RepeatSummary#byCause}). */
    @JsonProperty("freeze_seconds_by_cause")
    public Map<String, Integer> freezeSecondsByCause() {
        return RepeatSummary.byCause(episodes());
    }

    /** {@code vacuum_storm 3, wal_pool 14, unattributed 1}, or {@code none}. */
    /**
     * The episodes in one line: {@code 3 episode(s), 1 unattributed}: how many the analyzer could not explain.
     */
    public String episodesLine() {
        List<io.rigscope.analyzer.decision.Episode> all = episodes();
        long unattributed = all.stream()
                .filter(e -> e.cause() == io.rigscope.analyzer.decision.Cause.UNATTRIBUTED).count();
        return all.size() + " episode(s), " + unattributed + " unattributed";
    }

    public String freezeSecondsByCauseLine() {
        Map<String, Integer> m = freezeSecondsByCause();
        if (m.isEmpty()) {
            return "none";
        }
        StringBuilder b = new StringBuilder();
        m.forEach((c, n) -> b.append(b.length() == 0 ? "" : ", ").append(c).append(' ').append(n));
        return b.toString();
    }

    /**
     * One line: {@code 4/5 passed, p99 22.6 ms (21.9-24.0), p50 3.1 ms}, or why there are no figures
     * ({@code UNRECONCILED: repeat 1: nothing was written, ...}); when every request of the load failed, why
     * ({@link #everyRequestFailed()}).
     */
    public String headline() {
        String why = everyRequestFailed();
        if (verdict == SeriesVerdict.UNRECONCILED) {
            return "UNRECONCILED: " + reconciliation + (why == null ? "" : "; " + why);
        }
        String head = passed + "/" + total + " passed";
        if (why != null) {
            return head + ": " + why;
        }
        if (p99Ms == null) {
            return head;
        }
        return head + ", p99 " + p99Ms + " ms (" + p99RangeMs.get(0) + "-" + p99RangeMs.get(1) + "), p50 " + p50Ms
                + " ms" + (worst10sP99Ms == null ? "" : ", worst 10-s p99 " + worst10sP99Ms + " ms");
    }

    @JsonProperty("verdict")
    String wireVerdict() {
        return verdict.name();
    }

    @JsonProperty("headline")
    String wireHeadline() {
        return headline();
    }

    @JsonProperty("episodes")
    List<Episode> wireEpisodes() {
        return episodes();
    }

    /** A series' verdict. */
    public enum SeriesVerdict {
        /** Every repeat passed every gate. */
        PASS,
        /** At least one repeat failed a gate (or there was no repeat). */
        FAIL,
        /** Sent and stored could not be reconciled: no figures are published. */
        UNRECONCILED
    }
}
