package io.rigscope.analyzer.decision;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.rigscope.analyzer.decision.Decision.TimingFigure;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

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
 * @param reconciled true when a reconciliation arrived and both reconciliation gates held, false when one failed (a
 *                   mismatch, or 0 events claimed for 0 rows gained), null when none arrived
 * @param provisionalSeconds seconds closed at the end of input, not by the ledger watermark
 * @param eventsClaimed events in the primary scenario's 2xx answers that passed their checks (what reconciliation
 *                      compares)
 * @param qtyClaimed Σ quantity sent in those answers
 * @param gates every gate, in order
 * @param episodes tail episodes, in time order
 * @param closing how its seconds closed: by the ledger's count, or by time (a source that counts nothing per
 *                second, k6 followed live; {@link SecondClosing})
 * @param lateSamples samples that came after the time watermark passed their second: in no figure; 0 when closed
 *                    by the ledger
 * @param aborted why the repeat stopped before its schedule ended ({@code repeat.RepeatJudge.AbortOnFail}), or null when it ran it
 * @param errors the primary scenario's failed requests by error kind code ({@code {"refused": 42}}), most first (ties
 *               in {@code ErrorKind} order); empty when none failed
 * @param serverTiming the primary scenario's Server-Timing per metric name (the service's own account of its time:
 *                     {@code {"db": {"p50_ms": 1.2, "p99_ms": 4.0}}}), in first-appearance order; empty (and left out
 *                     of the JSON) when no response carried the header
 * @param silence the silent generator that ended the repeat ({@code repeat.Liveness}), or null when none did; JSON
 *                {@code silence}, with {@code ended_by: generator_silent}; both absent otherwise
 * @param droppedByScenario requests dropped by each scenario (ledger), in the track's order; {@code dropped} is their
 *                          sum. Not in the JSON (the gate {@code dropped} holds the sum): the console's one count per
 *                          scenario
 */
@WireView
@JsonPropertyOrder({"rep", "kind", "scenario", "pass", "aborted", "ended_by", "silence", "samples", "dropped", "failed", "errors", "p50_ms", "p99_ms",
    "response_p99_ms", "drift", "span_s", "freeze_seconds", "freeze_per_10min", "freeze_cadence_s", "freeze_gaps_s",
    "windows", "median_10s_p99_ms", "worst_10s_p99_ms", "probe_p99_ms", "provisional_seconds", "events_claimed",
    "qty_claimed", "freeze_seconds_by_cause", "seconds_closed_by", "lateness_ms", "late_samples", "server_timing",
    "gates"})
public record RepeatSummary(@JsonProperty("rep") int rep, RepeatSummary.Kind kind,
                            @JsonProperty("scenario") String scenario, @JsonProperty("pass") boolean pass,
                            @JsonProperty("samples") long samples, @JsonProperty("dropped") long dropped,
                            @JsonProperty("failed") long failed, long p50Us, long p99Us, long responseP99Us,
                            Double drift, @JsonProperty("span_s") long spanSec, Cadence cadence,
                            @JsonProperty("freeze_seconds") List<Long> freezeSeconds,
                            @JsonProperty("windows") List<Window> windows, double medianBucketP99Us,
                            long worstBucketP99Us, long probeP99Us, Boolean reconciled,
                            @JsonProperty("provisional_seconds") long provisionalSeconds,
                            @JsonProperty("events_claimed") long eventsClaimed,
                            @JsonProperty("qty_claimed") long qtyClaimed,
                            @JsonProperty("gates") Map<String, GateResult> gates, List<Episode> episodes,
                            SecondClosing closing, long lateSamples,
                            @JsonProperty("aborted") @JsonInclude(JsonInclude.Include.NON_NULL) Abort aborted,
                            @JsonProperty("errors") @JsonInclude(JsonInclude.Include.NON_EMPTY)
                            Map<String, Long> errors,
                            @JsonProperty("server_timing") @JsonInclude(JsonInclude.Include.NON_EMPTY)
                            Map<String, TimingFigure> serverTiming,
                            @JsonProperty("silence") @JsonInclude(JsonInclude.Include.NON_NULL) Silence silence,
                            @com.fasterxml.jackson.annotation.JsonIgnore Map<String, Long> droppedByScenario) {

    /**
     * The reason both reconciliation gates fail with when a repeat claimed 0 events and the database gained 0 rows
     * (the reconciliation gates of docs/gates.md): it measured nothing and proves nothing.
     */
    public static final String NOTHING_MEASURED = "nothing was written, nothing was measured";

    public RepeatSummary {
        freezeSeconds = List.copyOf(freezeSeconds);
        windows = List.copyOf(windows);
        gates = Collections.unmodifiableMap(new LinkedHashMap<>(gates));
        episodes = List.copyOf(episodes);
        closing = closing == null ? new SecondClosing.ByLedger() : closing;
        errors = errors == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(errors));
        serverTiming = serverTiming == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(serverTiming));
        droppedByScenario = droppedByScenario == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(droppedByScenario));
    }

    /** Requests dropped by {@code scenario} (its ledger), 0 when it had none or did not run. */
    public long droppedIn(String scenarioName) {
        return droppedByScenario.getOrDefault(scenarioName, 0L);
    }

    /** {@code generator_silent} when a silent generator ended the repeat, else null (absent from the JSON). */
    @JsonProperty("ended_by")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public String endedBy() {
        return silence == null ? null : Silence.ENDED_BY;
    }

    /** The primary scenario's failed requests, every kind. */
    public long primaryFailed() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** {@code ledger} or {@code time}: how the repeat's seconds closed (time: no count per second existed). */
    @JsonProperty("seconds_closed_by")
    public String secondsClosedBy() {
        return closing.code();
    }

    /** The time watermark's lateness, ms; null when the seconds closed by the ledger. */
    @JsonProperty("lateness_ms")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Double latenessMs() {
        return closing instanceof SecondClosing.ByTime t ? t.latenessMs() : null;
    }

    /** Late samples when the seconds closed by time, else null (a ledger-closed second reopens instead). */
    @JsonProperty("late_samples")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Long wireLateSamples() {
        return closing instanceof SecondClosing.ByTime ? lateSamples : null;
    }

    /** Freeze-seconds per 10 minutes of the repeat's span, 3 decimals. */
    public double freezePer10Min() {
        return spanSec == 0 ? 0 : Math.round(freezeSeconds.size() * 600_000.0 / spanSec) / 1000.0;
    }

    /**
     * Freeze-seconds by the cause of the episode holding them, cause codes in {@link Cause} order, only causes
     * with at least one: {@code {"wal_pool": 14, "unattributed": 1}}.
     */
    @JsonProperty("freeze_seconds_by_cause")
    public Map<String, Integer> freezeSecondsByCause() {
        return byCause(episodes);
    }

    /** Freeze-seconds of these episodes by cause, in {@link Cause} order. */
    public static Map<String, Integer> byCause(List<Episode> episodes) {
        Map<Cause, Integer> counts = new java.util.EnumMap<>(Cause.class);
        for (Episode e : episodes) {
            if (e.freezeSeconds() > 0) {
                counts.merge(e.cause(), e.freezeSeconds(), Integer::sum);
            }
        }
        Map<String, Integer> out = new LinkedHashMap<>();
        counts.forEach((c, n) -> out.put(c.code(), n));
        return out;
    }

    /**
     * The gates that held although their value is beyond their limit, each with the reason it held (a drift its
     * requests do not show beyond chance), in order.
     */
    public List<GateResult> heldGatesWithReason() {
        return gates.values().stream().filter(g -> g.pass() && g.reason() != null).toList();
    }

    /** The gates that did not hold, in order. */
    public List<GateResult> failedGates() {
        return gates.values().stream().filter(g -> !g.pass()).toList();
    }

    /** The primary scenario's p50 service time, ms; null without samples. */
    @JsonProperty("p50_ms")
    public Double p50Ms() {
        return samples == 0 ? null : p50Us / 1000.0;
    }

    /** The primary scenario's p99 service time, ms; null without samples. */
    @JsonProperty("p99_ms")
    public Double p99Ms() {
        return samples == 0 ? null : p99Us / 1000.0;
    }

    @JsonProperty("response_p99_ms")
    Double responseP99Ms() {
        return samples == 0 ? null : responseP99Us / 1000.0;
    }

    /** Drift rounded to 3 decimals, as reports show it; null when it could not be measured. */
    @JsonProperty("drift")
    public Double driftRounded() {
        return drift == null ? null : Math.round(drift * 1000.0) / 1000.0;
    }

    @JsonProperty("kind")
    String wireKind() {
        return kind.code();
    }

    @JsonProperty("freeze_per_10min")
    double wireFreezePer10Min() {
        return freezePer10Min();
    }

    @JsonProperty("freeze_cadence_s")
    Long wireCadence() {
        return cadence.dominantPeriodSec();
    }

    @JsonProperty("freeze_gaps_s")
    List<Long> wireGaps() {
        return cadence.gapsSec();
    }

    @JsonProperty("median_10s_p99_ms")
    double medianBucketP99Ms() {
        return Math.round(medianBucketP99Us) / 1000.0;
    }

    /** The worst 10-s bucket p99, ms; null without buckets. */
    @JsonProperty("worst_10s_p99_ms")
    public Double worstBucketP99Ms() {
        return worstBucketP99Us < 0 ? null : worstBucketP99Us / 1000.0;
    }

    @JsonProperty("probe_p99_ms")
    Double probeP99Ms() {
        return probeP99Us < 0 ? null : probeP99Us / 1000.0;
    }

    /** How a repeat is judged. */
    public enum Kind {
        /** A sustained repeat: every gate. */
        SUSTAINED("sustained"),
        /** A ladder rung: delivered rate, drops and reconciliation only; drift is noted, not gated. */
        LADDER("ladder"),
        /** A closed-loop ceiling: figures only ({@link io.rigscope.analyzer.decision.Ceiling}), no gate, no verdict. */
        CEILING("ceiling");

        private final String code;

        Kind(String code) {
            this.code = code;
        }

        /** As reports write it. */
        public String code() {
            return code;
        }
    }

    /**
     * The spacing of freeze-seconds, as {@code freeze.FreezeRule.cadence} computes it. Consecutive freeze-seconds (no gap) are one freeze event, starting at
     * its first second; the gaps are the differences between consecutive event starts, in seconds; the
     * dominant period is the most frequent gap (ties: the smallest) when it occurs at least twice, else null: one gap
     * between two freezes, or gaps that never repeat, are no rhythm.
     *
     * @param events first second of each freeze event, ascending
     * @param gapsSec the gaps between consecutive events
     * @param dominantPeriodSec the most frequent gap when it repeats, or null
     */
    public record Cadence(List<Long> events, List<Long> gapsSec, Long dominantPeriodSec) {

        public Cadence {
            events = List.copyOf(events);
            gapsSec = List.copyOf(gapsSec);
        }
    }

    /**
     * Why a repeat ended before its schedule without an end marker: one of its generators fell silent
     * ({@code repeat.Liveness}). Immutable; a report's {@code repeats[].silence}, beside {@code ended_by: generator_silent}.
     *
     * @param generator the silent generator's id (the first to fall silent; ties by name)
     * @param sinceSec the first second it was not heard in: the one after its last record of the repeat, epoch s
     * @param lastLedgerSec the last second its ledger covered, epoch s; -1 when it published no ledger
     * @param scheduledSec the repeat's scheduled duration (its REPEAT_START's {@code duration_ms}), s, rounded
     * @param neverOfferedSec seconds of the schedule after the last second its ledger covered: load never offered
     * @param ledgerCoveredToSec every generator of the repeat -> the last second its ledger covered (epoch s, -1: none);
     *                           samples completed after that second may be missing
     */
    @WireView
    @JsonPropertyOrder({"generator", "since_sec", "last_ledger_sec", "scheduled_s", "never_offered_s",
        "ledger_covered_to_sec", "note"})
    public record Silence(@JsonProperty("generator") String generator, @JsonProperty("since_sec") long sinceSec,
                          @JsonProperty("last_ledger_sec") long lastLedgerSec, @JsonProperty("scheduled_s") long scheduledSec,
                          @JsonProperty("never_offered_s") long neverOfferedSec,
                          @JsonProperty("ledger_covered_to_sec") Map<String, Long> ledgerCoveredToSec) {

        /** The {@code ended_by} code of a repeat a silent generator ended. */
        public static final String ENDED_BY = "generator_silent";

        private static final DateTimeFormatter HH_MM_SS = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

        public Silence {
            Objects.requireNonNull(generator, "generator");
            ledgerCoveredToSec = Collections.unmodifiableMap(new TreeMap<>(ledgerCoveredToSec));
        }

        /** What may be lost, in words (the report's {@code note}). */
        @JsonProperty("note")
        public String note() {
            return "samples completed after a generator's last ledger second may be missing";
        }

        /**
         * {@code generator gen-1 silent since 19:59:20: 20 of 30 s of the schedule never offered} (UTC).
         */
        public String describe() {
            return String.format(Locale.ROOT, "generator %s silent since %s: %d of %d s of the schedule never offered",
                    generator, HH_MM_SS.format(Instant.ofEpochSecond(sinceSec)), neverOfferedSec, scheduledSec);
        }

        /** Each generator's last ledger second, and what that means for the samples after it. */
        public String lossLine() {
            StringBuilder b = new StringBuilder("ledger covered up to ");
            String sep = "";
            for (var e : ledgerCoveredToSec.entrySet()) {
                b.append(sep).append(e.getKey()).append(' ')
                        .append(e.getValue() < 0 ? "no second" : HH_MM_SS.format(Instant.ofEpochSecond(e.getValue())));
                sep = ", ";
            }
            return b.append(": samples completed after it may be missing").toString();
        }
    }
}
