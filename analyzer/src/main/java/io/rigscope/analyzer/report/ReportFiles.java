package io.rigscope.analyzer.report;

import io.rigscope.analyzer.decision.DecisionCodec;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.analyzer.decision.Window;
import java.util.List;
import java.util.Map;

/**
 * Renders a series report as JSON (through {@link DecisionCodec}, the one JSON form of every decision) and as
 * Markdown. Pure and deterministic: the same report renders the same bytes (no clock).
 */
public final class ReportFiles {

    private ReportFiles() {
    }

    /** Pretty-printed JSON, UTF-8, with a final newline: the SERIES verdict's body, field for field. */
    public static byte[] json(SeriesReport report) {
        return DecisionCodec.reportJson(report);
    }

    /** A Markdown page: verdict, figures, one row per repeat, every gate, episodes, environment. */
    public static String markdown(SeriesReport report) {
        StringBuilder md = new StringBuilder();
        md.append("# Series ").append(report.series()).append(": ").append(report.verdict()).append("\n\n");
        md.append(report.headline()).append("\n\n");
        measuredOn(report.environment()).ifPresent(line -> md.append(line).append("\n\n"));
        md.append("| figure | value |\n|---|---|\n");
        row(md, "scenario", report.scenario());
        row(md, "passed / total", report.passed() + "/" + report.total());
        row(md, "p50 (ms, median of passing repeats)", report.p50Ms());
        row(md, "p99 (ms, median of passing repeats)", report.p99Ms());
        row(md, "p99 range (ms, passing repeats)", report.p99RangeMs());
        row(md, "worst 10-s p99 (ms)", report.worst10sP99Ms());
        row(md, "reconciliation", report.reconciliation());
        md.append("\n## Repeats\n\n");
        md.append("| rep | kind | pass | samples | dropped | failed | p50 ms | p99 ms | drift | freeze-s | "
                + "cadence s | windows |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (RepeatSummary r : report.repeats()) {
            StringBuilder w = new StringBuilder();
            for (Window win : r.windows()) {
                w.append(w.length() == 0 ? "" : ", ").append(win.startSec()).append("-").append(win.endSec());
            }
            md.append("| ").append(r.rep()).append(" | ").append(r.kind().code()).append(" | ")
                    .append(r.pass() ? "PASS" : "FAIL").append(" | ")
                    .append(r.samples()).append(" | ").append(r.dropped()).append(" | ")
                    .append(r.failed()).append(" | ").append(r.p50Ms()).append(" | ")
                    .append(r.p99Ms()).append(" | ").append(r.driftRounded()).append(" | ")
                    .append(r.freezeSeconds().size()).append(" | ").append(r.cadence().dominantPeriodSec()).append(" | ")
                    .append(w.length() == 0 ? "-" : w).append(" |\n");
        }
        for (RepeatSummary r : report.repeats()) {
            if (r.latenessMs() != null) {
                md.append("\nRepeat ").append(r.rep()).append(": seconds closed by time, not by count (no ledger: each "
                        + "closed once its stream was ").append(r.latenessMs()).append(" ms past its end); ")
                        .append(r.wireLateSamples()).append(" late sample(s), in no figure.\n");
            }
            if (r.aborted() != null) {
                md.append("\nRepeat ").append(r.rep()).append(": ").append(r.aborted().describe())
                        .append("; that gate fails.\n");
            }
            if (r.silence() != null) {
                md.append("\nRepeat ").append(r.rep()).append(" ended by `").append(r.endedBy()).append("`: ")
                        .append(r.silence().describe()).append("; ").append(r.silence().lossLine()).append(".\n");
            }
            for (GateResult g : r.failedGates()) {
                if (g.reason() != null) {
                    md.append("\nRepeat ").append(r.rep()).append(", `").append(g.name()).append("`: ")
                            .append(g.reason()).append(".\n");
                }
            }
            for (GateResult g : r.heldGatesWithReason()) {
                md.append("\nRepeat ").append(r.rep()).append(", `").append(g.name()).append("` held: ")
                        .append(g.reason()).append(".\n");
            }
        }
        md.append("\n## Gates\n\n| rep | gate | pass | value | limit |\n|---|---|---|---|---|\n");
        for (RepeatSummary r : report.repeats()) {
            for (Map.Entry<String, GateResult> e : r.gates().entrySet()) {
                GateResult g = e.getValue();
                md.append("| ").append(r.rep()).append(" | `").append(e.getKey()).append("` | ")
                        .append(g.pass() ? "pass" : "**FAIL**").append(" | ")
                        .append(g.value()).append(" | ").append(g.limit()).append(" |\n");
            }
        }
        List<Episode> episodes = report.episodes();
        md.append("\n## Episodes\n\n");
        if (episodes.isEmpty()) {
            md.append("None.\n");
        } else {
            md.append("Freeze-seconds by cause: ").append(report.freezeSecondsByCauseLine()).append("; ")
                    .append(report.episodesLine()).append(".\n\n");
            md.append("| rep | start | end | cause | confidence | secondary | missing | evidence | lever |\n"
                    + "|---|---|---|---|---|---|---|---|---|\n");
            for (Episode e : episodes) {
                md.append("| ").append(e.rep()).append(" | ").append(e.startSec()).append(" | ")
                        .append(e.endSec()).append(" | ").append(e.cause().code()).append(" | ")
                        .append(e.confidence().code()).append(" | ")
                        .append(e.secondary() == null ? "-" : e.secondary().code()).append(" | ")
                        .append(e.missingLine()).append(" | ")
                        .append(String.join("<br>", e.evidence().stream().map(Evidence::text).toList())
                                .replace("|", "\\|"))
                        .append(" | ").append(leverCell(e)).append(" |\n");
            }
        }
        if (!report.failedSteps().isEmpty()) {
            md.append("\n## Steps that failed\n\n| step | what the rig said |\n|---|---|\n");
            report.failedSteps().forEach((step, line) -> row(md, step, line.replace("|", "\\|")));
        }
        if (!report.silentStreams().isEmpty()) {
            md.append("\n## Streams that fell silent\n\n| stream | silent since (UTC) | epoch s |\n|---|---|---|\n");
            report.silentStreams().forEach((topic, sec) -> md.append("| ").append(topic).append(" | ")
                    .append(java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss").withZone(java.time.ZoneOffset.UTC)
                            .format(java.time.Instant.ofEpochSecond(sec))).append(" | ").append(sec).append(" |\n"));
        }
        Map<String, Object> env = report.environment();
        if (env != null && !env.isEmpty()) {
            md.append("\n## Environment\n\n| fact | value |\n|---|---|\n");
            env.forEach((k, v) -> row(md, k, String.valueOf(v).replace("|", "\\|")));
        }
        return md.toString();
    }

    /**
     * What the figures were measured on, when the ENVIRONMENT facts name it ({@code hardware}, {@code configuration},
     * {@code cost_per_hour}, each with its {@code *_source}: a series against RDS): one line under the headline.
     */
    static java.util.Optional<String> measuredOn(Map<String, Object> env) {
        if (env == null || !(env.get("hardware") instanceof String hardware)) {
            return java.util.Optional.empty();
        }
        StringBuilder line = new StringBuilder("Measured on ").append(hardware);
        if (env.get("hardware_source") != null) {
            line.append(" (").append(env.get("hardware_source")).append(")");
        }
        if (env.get("configuration") != null) {
            line.append("; ").append(env.get("configuration"));
        }
        Object cost = env.get("cost_per_hour");
        boolean priced = String.valueOf(env.get("cost_source")).startsWith("price table");
        line.append("; ").append(cost == null ? "no known hourly cost" : cost + (priced ? " USD/h" : " per hour"));
        if (env.get("cost_source") != null) {
            line.append(" (").append(env.get("cost_source")).append(")");
        }
        return java.util.Optional.of(line.append('.').toString());
    }

    /** {@code **min_wal_size=16GB**: why}, the action, or {@code not computed: why}; {@code -} without a lever. */
    private static String leverCell(Episode e) {
        if (e.lever() == null) {
            return "-";
        }
        var l = e.lever();
        String cell = l.computed() ? "**" + l.headline() + "**: " + l.why() : "not computed: " + l.why();
        return cell.replace("|", "\\|");
    }

    private static void row(StringBuilder md, String name, Object value) {
        md.append("| ").append(name).append(" | ").append(value == null ? "-" : value).append(" |\n");
    }
}
