package io.rigscope.rig.calibrate;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.decision.SeriesReport;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One case's outcome: what was expected, what the analyzer found, and what the telemetry shows happened.
 *
 * <p>{@code found} is the primary cause of the dominant episode (the one with the most freeze-seconds; ties: more
 * window buckets, then the worse latency), or {@code none} when the series had no episode. {@code evidence} is
 * that episode's evidence as the analyzer wrote it. {@code telemetry} and {@code provoked} are the case's own
 * measurements (the wire file's streams, and what the provocation did), never the analyzer's.
 *
 * @param caseName the case
 * @param expected the expected cause code, or a structural expectation ({@code 1 freeze-second, no window})
 * @param found what the analyzer found, in the same terms
 * @param confidence the dominant episode's confidence, or {@code -} without one
 * @param evidence the dominant episode's evidence, joined by {@code "; "}, or empty
 * @param freezeSeconds freeze-seconds of the sustained repeat (the warm-up rung is not judged)
 * @param windows 10-s tail windows of the sustained repeat
 * @param verdict the series verdict (PASS, FAIL, UNRECONCILED)
 * @param telemetry what the telemetry shows of the provocation
 * @param provoked what the provocation did
 * @param ok found matches expected
 */
@JsonPropertyOrder({"case", "expected", "found", "confidence", "evidence", "ok", "freeze_seconds", "windows",
    "verdict", "telemetry", "provoked"})
public record CaseResult(@JsonProperty("case") String caseName, String expected, String found, String confidence,
                         String evidence, @JsonProperty("freeze_seconds") long freezeSeconds, int windows,
                         String verdict, String telemetry, String provoked, boolean ok) {

    public CaseResult {
        Objects.requireNonNull(caseName, "caseName");
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(found, "found");
    }

    /** A result judged by the dominant episode's cause against {@code c.expected()}. */
    static CaseResult byCause(CalibrationCase c, SeriesReport report, String telemetry, String provoked) {
        Optional<Episode> top = dominant(report);
        String found = top.map(e -> e.cause().code()).orElse("none");
        boolean ok = found.equals(c.expected());
        if ("none".equals(c.expected())) {
            ok = ok && report.allGatesPassed() && freezeSeconds(report) == 0;
        }
        return new CaseResult(c.name(), c.expected(), found, top.map(e -> e.confidence().code()).orElse("-"),
                top.map(CaseResult::evidence).orElse(""), freezeSeconds(report), windows(report),
                report.verdict().name(), telemetry, provoked, ok);
    }

    /** This result with {@code ok} as a profile judged it ({@link CalibrationProfile#judge}). */
    CaseResult judged(boolean judgedOk) {
        return new CaseResult(caseName, expected, found, confidence, evidence, freezeSeconds, windows, verdict,
                telemetry, provoked, judgedOk);
    }

    /** The episode with the most freeze-seconds (then window buckets, then the worst latency). */
    static Optional<Episode> dominant(SeriesReport report) {
        return sustained(report).flatMap(r -> r.episodes().stream()).max(Comparator.comparingInt(Episode::freezeSeconds)
                .thenComparingInt(Episode::windowBuckets).thenComparingDouble(Episode::worstMs));
    }

    static String evidence(Episode e) {
        return e.evidence().stream().map(Evidence::text).collect(Collectors.joining("; "));
    }

    /** Freeze-seconds of the sustained repeats (the warm-up rung is not judged). */
    static long freezeSeconds(SeriesReport report) {
        return sustained(report).mapToLong(r -> r.freezeSeconds().size()).sum();
    }

    /** Windows of the sustained repeats. */
    static int windows(SeriesReport report) {
        return sustained(report).mapToInt(r -> r.windows().size()).sum();
    }

    private static java.util.stream.Stream<RepeatSummary> sustained(SeriesReport report) {
        return report.repeats().stream().filter(r -> r.kind() == RepeatSummary.Kind.SUSTAINED);
    }

    /** The repeats' freeze-seconds as {@code HH:mm:ss} UTC, comma-separated. */
    static String freezeClock(SeriesReport report) {
        return sustained(report).map(RepeatSummary::freezeSeconds).flatMap(java.util.List::stream)
                .map(s -> WireTelemetry.clock(s * 1_000_000L).substring(0, 8)).collect(Collectors.joining(","));
    }

    /** One console line: case, expected, found, confidence, freeze-seconds, windows, evidence, telemetry. */
    public String line() {
        return String.format(java.util.Locale.ROOT, "%-16s expected %-16s found %-16s %-12s %3d freeze-s %d windows  %s%n"
                        + "%18s telemetry: %s%n%18s provoked: %s%s",
                caseName, expected, found, confidence, freezeSeconds, windows, ok ? "ok" : "MISMATCH", "", telemetry,
                "", provoked, evidence.isEmpty() ? "" : String.format("%n%18s evidence: %s", "", evidence));
    }
}
