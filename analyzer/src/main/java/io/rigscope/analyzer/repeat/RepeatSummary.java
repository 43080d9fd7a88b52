package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.episode.Episode;
import io.rigscope.analyzer.freeze.Cadence;
import io.rigscope.analyzer.gate.GateResult;
import io.rigscope.analyzer.window.Window;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The judgement of one repeat. Immutable.
 *
 * @param rep repeat number
 * @param kind sustained or ladder
 * @param scenario the primary scenario, or null when the repeat had no non-probe samples
 * @param pass every gate held
 * @param samples requests of the primary scenario
 * @param dropped requests dropped, all scenarios (ledger)
 * @param failed requests failed, all scenarios
 * @param p50Us primary scenario's median service time
 * @param p99Us primary scenario's p99 service time
 * @param responseP99Us primary scenario's p99 response time ({@code t2 - t0})
 * @param drift p99 last third / first third, or null when it cannot be measured
 * @param spanSec seconds from the first closed second of the primary scenario to the last, inclusive
 * @param cadence freeze-seconds' spacing
 * @param freezeSeconds the primary scenario's freeze-seconds, epoch seconds, ascending
 * @param windows tail windows
 * @param medianBucketP99Us the median 10-s bucket p99
 * @param worstBucketP99Us the worst 10-s bucket p99, or -1 with no buckets
 * @param probeP99Us the probe's p99 service time, or -1 without probe samples
 * @param reconciled true when a reconciliation arrived and matched, false when it mismatched, null when none arrived
 * @param provisionalSeconds seconds closed at the end of input, not by the ledger watermark
 * @param gates every gate, in order
 * @param episodes tail episodes, in time order
 */
public record RepeatSummary(int rep, RepeatTrack.Kind kind, String scenario, boolean pass, long samples, long dropped,
                            long failed, long p50Us, long p99Us, long responseP99Us, Double drift, long spanSec,
                            Cadence cadence, List<Long> freezeSeconds, List<Window> windows, double medianBucketP99Us,
                            long worstBucketP99Us, long probeP99Us, Boolean reconciled, long provisionalSeconds,
                            Map<String, GateResult> gates, List<Episode> episodes) {

    public RepeatSummary {
        freezeSeconds = List.copyOf(freezeSeconds);
        windows = List.copyOf(windows);
        gates = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(gates));
        episodes = List.copyOf(episodes);
    }

    /** Freeze-seconds per 10 minutes of the repeat's span, 3 decimals. */
    public double freezePer10Min() {
        return spanSec == 0 ? 0 : Math.round(freezeSeconds.size() * 600_000.0 / spanSec) / 1000.0;
    }

    /** The report's {@code repeats[]} element. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rep", rep);
        m.put("kind", kind.code());
        m.put("scenario", scenario);
        m.put("pass", pass);
        m.put("samples", samples);
        m.put("dropped", dropped);
        m.put("failed", failed);
        m.put("p50_ms", samples == 0 ? null : p50Us / 1000.0);
        m.put("p99_ms", samples == 0 ? null : p99Us / 1000.0);
        m.put("response_p99_ms", samples == 0 ? null : responseP99Us / 1000.0);
        m.put("drift", drift == null ? null : Math.round(drift * 1000.0) / 1000.0);
        m.put("span_s", spanSec);
        m.put("freeze_seconds", freezeSeconds);
        m.put("freeze_per_10min", freezePer10Min());
        m.put("freeze_cadence_s", cadence.dominantPeriodSec());
        m.put("freeze_gaps_s", cadence.gapsSec());
        m.put("windows", windows.stream().map(Window::toMap).toList());
        m.put("median_10s_p99_ms", Math.round(medianBucketP99Us) / 1000.0);
        m.put("worst_10s_p99_ms", worstBucketP99Us < 0 ? null : worstBucketP99Us / 1000.0);
        m.put("probe_p99_ms", probeP99Us < 0 ? null : probeP99Us / 1000.0);
        m.put("provisional_seconds", provisionalSeconds);
        Map<String, Object> g = new LinkedHashMap<>();
        gates.forEach((name, result) -> g.put(name, result.toMap()));
        m.put("gates", g);
        return m;
    }
}
