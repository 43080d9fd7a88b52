package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.second.ScenarioSeconds;
import io.rigscope.model.wire.DatabaseGain;
import io.rigscope.model.wire.ErrorKind;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What a repeat measured, taken once, for the gates to judge. Every gate reads these figures; none measures on
 * its own, so a figure in a gate's value is the figure in the report.
 *
 * @param kind sustained or ladder
 * @param primary the primary scenario's seconds, or null when the repeat had no non-probe samples
 * @param scenarios any scenario's seconds by name (null when absent), for thresholds that name one
 * @param samples requests of the primary scenario
 * @param scheduled requests the primary scenario's ledger scheduled
 * @param delivered requests of the primary scenario that did not fail
 * @param dropped requests dropped, every scenario (ledger)
 * @param failed requests failed, every scenario
 * @param spanSec seconds from the primary scenario's first closed second to its last, inclusive
 * @param driftThirds the primary scenario's first and last thirds and their p99s ({@link DriftRule}), or null when
 *                    drift cannot be measured
 * @param probeP99Us the probe scenario's p99 service time, or -1 without probe samples
 * @param claim what the primary scenario's samples claim was stored (2xx answers that passed their checks)
 * @param gained what the database gained, or null when no RECONCILIATION marker arrived
 * @param configErrors problems with the series' CONFIG, each a sentence
 * @param all every scenario's seconds (probe included), for thresholds without a scenario filter: k6 judges every
 *            point of a metric, all scenarios together
 * @param target the URL(s) the repeat's load was sent to, as the CONFIG markers name them (the scenarios' {@code url},
 *               else the series plan's {@code target}); null when no marker names one
 */
record RepeatFacts(RepeatSummary.Kind kind, ScenarioSeconds primary, Function<String, ScenarioSeconds> scenarios,
                          long samples, long scheduled, long delivered, long dropped, long failed, long spanSec,
                          DriftRule.Thirds driftThirds, long probeP99Us, Claim claim, DatabaseGain gained, List<String> configErrors,
                          List<ScenarioSeconds> all, String target) {

    public RepeatFacts {
        configErrors = List.copyOf(configErrors);
        all = List.copyOf(all);
    }

    /** p99 of the last third / p99 of the first third, or null when it cannot be measured. */
    public Double drift() {
        return driftThirds == null ? null : driftThirds.ratio();
    }

    /** Requests of every scenario (probe included). */
    public long requests() {
        return all.stream().mapToLong(s -> s.totals().count()).sum();
    }

    /** Failed requests of every scenario by error kind, in {@link ErrorKind} order, only kinds seen. */
    public Map<ErrorKind, Long> errorsByKind() {
        Map<ErrorKind, Long> out = new EnumMap<>(ErrorKind.class);
        all.forEach(s -> s.totals().errorsByKind().forEach((k, n) -> out.merge(k, n, Long::sum)));
        return out;
    }

    /** True when the repeat sent requests and every one of them was refused: nothing listens at the target. */
    public boolean unreachable() {
        long requests = requests();
        return requests > 0 && errorsByKind().getOrDefault(ErrorKind.REFUSED, 0L) == requests;
    }

    /** {@code target unreachable: every request was refused (URL ...)}: the sentence of an unreachable target. */
    public String unreachableSentence() {
        return "target unreachable: every request was refused (URL "
                + (target == null ? "unknown: no CONFIG marker names it" : target) + ")";
    }

    /**
     * What the load claims the database stored: the events in requests answered 2xx that passed their checks,
     * and their Σ quantity.
     *
     * @param events Σ batch size of the 2xx requests that did not fail
     * @param qtySum Σ quantity sent in them
     */
    public record Claim(long events, long qtySum, List<Unclaimed> unclaimed) {
        public Claim {
            unclaimed = List.copyOf(unclaimed);
        }

        /** A claim without the failed requests beside it. */
        public Claim(long events, long qtySum) {
            this(events, qtySum, List.of());
        }

        /**
         * Rows beyond the claims set against the failed requests that may have stored them: {@code 262 requests
         * (2,620 events) timed out: 2,620 events that may have been stored, which can explain the 1,780}; null when
         * no failed request could have stored anything.
         *
         * @param beyondRows rows the database gained beyond the claims (> 0)
         */
        public String explain(long beyondRows) {
            if (unclaimed.isEmpty()) {
                return null;
            }
            long events = unclaimed.stream().mapToLong(Unclaimed::events).sum();
            String kinds = String.join(", ", unclaimed.stream().map(Unclaimed::describe).toList());
            return String.format(Locale.ROOT, "%s: %,d events that may have been stored, %s", kinds, events,
                    events >= beyondRows ? String.format(Locale.ROOT, "which can explain the %,d", beyondRows)
                            : String.format(Locale.ROOT, "which cannot explain %,d of them", beyondRows - events));
        }
    }

    /**
     * Failed requests of one kind that may have stored their events all the same: the client gave up on them (timed
     * out, reset) or judged them failed (a 4xx or 5xx, a failed check) after the service had read them.
     *
     * @param kind why they failed
     * @param requests how many
     * @param events the events they carried (Σ batch)
     */
    public record Unclaimed(ErrorKind kind, long requests, long events) {

        /** The kinds that may have stored something (a refused connection sent nothing). */
        public static List<Unclaimed> of(Map<ErrorKind, Long> requestsByKind, Map<ErrorKind, Long> eventsByKind) {
            List<Unclaimed> out = new java.util.ArrayList<>();
            requestsByKind.forEach((kind, n) -> {
                if (kind != ErrorKind.REFUSED && kind != ErrorKind.NONE && n > 0) {
                    out.add(new Unclaimed(kind, n, eventsByKind.getOrDefault(kind, 0L)));
                }
            });
            return out;
        }

        /** {@code 262 requests of 10 events timed out}, or {@code 5 requests (37 events) failed their check}. */
        public String describe() {
            String what = switch (kind) {
                case TIMEOUT -> "timed out";
                case RESET -> "were reset";
                case HTTP_4XX -> "were answered 4xx";
                case HTTP_5XX -> "were answered 5xx";
                case CHECK -> "failed their check";
                default -> "failed (" + kind.code() + ")";
            };
            String size = requests > 0 && events % requests == 0
                    ? String.format(Locale.ROOT, "of %,d event%s", events / requests, events / requests == 1 ? "" : "s")
                    : String.format(Locale.ROOT, "(%,d events)", events);
            return String.format(Locale.ROOT, "%,d request%s %s %s", requests, requests == 1 ? "" : "s", size, what);
        }
    }
}
