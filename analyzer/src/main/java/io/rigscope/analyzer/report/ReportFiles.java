package io.rigscope.analyzer.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Renders a series report (the SERIES verdict's body) as JSON and as Markdown. Pure and deterministic: the
 * same body renders the same bytes (fields in the body's order, no clock).
 */
public final class ReportFiles {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private ReportFiles() {
    }

    /** Pretty-printed JSON, UTF-8, with a final newline. */
    public static byte[] json(Map<String, Object> report) {
        try {
            return (JSON.writeValueAsString(report) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the report as JSON", e);
        }
    }

    /** A Markdown page: verdict, figures, one row per repeat, failed gates, episodes. */
    @SuppressWarnings("unchecked")
    public static String markdown(Map<String, Object> report) {
        StringBuilder md = new StringBuilder();
        md.append("# Series ").append(report.get("series")).append(": ").append(report.get("verdict")).append("\n\n");
        md.append(report.get("headline")).append("\n\n");
        md.append("| figure | value |\n|---|---|\n");
        row(md, "scenario", report.get("scenario"));
        row(md, "passed / total", report.get("passed") + "/" + report.get("total"));
        row(md, "p50 (ms, median of passing repeats)", report.get("p50_ms"));
        row(md, "p99 (ms, median of passing repeats)", report.get("p99_ms"));
        row(md, "p99 range (ms, passing repeats)", report.get("p99_range_ms"));
        row(md, "worst 10-s p99 (ms)", report.get("worst_10s_p99_ms"));
        row(md, "reconciliation", report.get("reconciliation"));
        md.append("\n## Repeats\n\n");
        md.append("| rep | kind | pass | samples | dropped | failed | p50 ms | p99 ms | drift | freeze-s | "
                + "cadence s | windows |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        List<Map<String, Object>> repeats = (List<Map<String, Object>>) report.get("repeats");
        for (Map<String, Object> r : repeats) {
            List<?> freezes = (List<?>) r.get("freeze_seconds");
            List<Map<String, Object>> windows = (List<Map<String, Object>>) r.get("windows");
            StringBuilder w = new StringBuilder();
            for (Map<String, Object> win : windows) {
                w.append(w.length() == 0 ? "" : ", ").append(win.get("start")).append("-").append(win.get("end"));
            }
            md.append("| ").append(r.get("rep")).append(" | ").append(r.get("kind")).append(" | ")
                    .append(Boolean.TRUE.equals(r.get("pass")) ? "PASS" : "FAIL").append(" | ")
                    .append(r.get("samples")).append(" | ").append(r.get("dropped")).append(" | ")
                    .append(r.get("failed")).append(" | ").append(r.get("p50_ms")).append(" | ")
                    .append(r.get("p99_ms")).append(" | ").append(r.get("drift")).append(" | ")
                    .append(freezes.size()).append(" | ").append(r.get("freeze_cadence_s")).append(" | ")
                    .append(w.length() == 0 ? "-" : w).append(" |\n");
        }
        md.append("\n## Gates\n\n| rep | gate | pass | value | limit |\n|---|---|---|---|---|\n");
        for (Map<String, Object> r : repeats) {
            Map<String, Map<String, Object>> gates = (Map<String, Map<String, Object>>) r.get("gates");
            gates.forEach((name, g) -> md.append("| ").append(r.get("rep")).append(" | `").append(name).append("` | ")
                    .append(Boolean.TRUE.equals(g.get("pass")) ? "pass" : "**FAIL**").append(" | ")
                    .append(g.get("value")).append(" | ").append(g.get("limit")).append(" |\n"));
        }
        List<Map<String, Object>> episodes = (List<Map<String, Object>>) report.get("episodes");
        md.append("\n## Episodes\n\n");
        if (episodes.isEmpty()) {
            md.append("None.\n");
        } else {
            md.append("| rep | start | end | cause | confidence | evidence |\n|---|---|---|---|---|---|\n");
            for (Map<String, Object> e : episodes) {
                md.append("| ").append(e.get("rep")).append(" | ").append(e.get("start")).append(" | ")
                        .append(e.get("end")).append(" | ").append(e.get("cause")).append(" | ")
                        .append(e.get("confidence")).append(" | ")
                        .append(String.join("<br>", (List<String>) e.get("evidence")).replace("|", "\\|"))
                        .append(" |\n");
            }
        }
        if (report.get("environment") instanceof Map<?, ?> env && !env.isEmpty()) {
            md.append("\n## Environment\n\n| fact | value |\n|---|---|\n");
            env.forEach((k, v) -> row(md, String.valueOf(k), String.valueOf(v).replace("|", "\\|")));
        }
        return md.toString();
    }

    private static void row(StringBuilder md, String name, Object value) {
        md.append("| ").append(name).append(" | ").append(value == null ? "-" : value).append(" |\n");
    }
}
