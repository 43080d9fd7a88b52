package io.rigscope.rig.dashboard;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code /metrics}: the index in the Prometheus text exposition format (version 0.0.4). Every value is one the
 * analyzer published on {@code rig.verdicts}; units follow Prometheus' convention (seconds, base units) and sit in
 * the names. Pure: the same snapshots give the same text.
 */
final class PrometheusText {

    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {
    }

    static String render(List<SeriesIndex.Snapshot> series) {
        StringBuilder out = new StringBuilder();
        family(out, "rigscope_series_live", "gauge", "1 while the series runs (no SERIES verdict yet), 0 once judged.");
        series.forEach(s -> sample(out, "rigscope_series_live", Map.of("series", s.series()), s.archived() ? 0 : 1));
        family(out, "rigscope_series_passed_repeats", "gauge",
                "Sustained repeats that passed every gate (the series verdict's numerator).");
        series.forEach(s -> sample(out, "rigscope_series_passed_repeats", Map.of("series", s.series()), s.passedRepeats()));
        family(out, "rigscope_series_judged_repeats", "gauge",
                "Sustained repeats judged (the series verdict's denominator).");
        series.forEach(s -> sample(out, "rigscope_series_judged_repeats", Map.of("series", s.series()), s.judgedRepeats()));
        family(out, "rigscope_series_pass", "gauge", "1 when the series verdict is PASS, 0 otherwise; absent while live.");
        series.stream().filter(SeriesIndex.Snapshot::archived).forEach(s -> sample(out, "rigscope_series_pass",
                Map.of("series", s.series()), "PASS".equals(s.verdict()) ? 1 : 0));

        secondFamily(out, series, "rigscope_second_service_p99_seconds",
                "p99 service time of the latest closed second (the analyzer's SECOND decision).", "p99_ms", 1e-3);
        secondFamily(out, series, "rigscope_second_service_max_seconds",
                "Worst service time of the latest closed second.", "max_ms", 1e-3);
        secondFamily(out, series, "rigscope_second_offered_requests",
                "Requests due in the latest closed second (scheduled by intended start): the offered rate per second.",
                "scheduled", 1);
        secondFamily(out, series, "rigscope_second_completed_requests",
                "Requests that ended in the latest closed second: the delivered rate per second.", "count", 1);
        secondFamily(out, series, "rigscope_second_failed_requests",
                "Of those, failed requests.", "failed", 1);
        secondFamily(out, series, "rigscope_second_dropped_requests",
                "Requests that could not start in the latest closed second (open-loop drops).", "dropped", 1);
        secondFamily(out, series, "rigscope_second_in_flight_requests",
                "Requests sent but not ended at the end of the latest closed second.", "in_flight", 1);

        family(out, "rigscope_freeze_seconds_total", "counter", "Freeze-seconds decided (FREEZE verdicts).");
        series.forEach(s -> s.freezeSecondsByScenario().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> sample(out, "rigscope_freeze_seconds_total",
                        Map.of("series", s.series(), "scenario", e.getKey()), e.getValue())));
        family(out, "rigscope_episodes_total", "counter", "Final tail episodes by cause and confidence.");
        series.forEach(s -> s.episodesByCause().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> {
                    String[] parts = e.getKey().split("/", 2);
                    sample(out, "rigscope_episodes_total", Map.of("series", s.series(), "cause", parts[0],
                            "confidence", parts.length > 1 ? parts[1] : ""), e.getValue());
                }));
        family(out, "rigscope_gate_pass", "gauge", "1 when the repeat's gate held, 0 when it failed.");
        series.forEach(s -> s.gatesByRep().forEach((rep, gates) -> gates.forEach((gate, pass) ->
                sample(out, "rigscope_gate_pass", Map.of("series", s.series(), "rep", String.valueOf(rep),
                        "gate", gate), pass ? 1 : 0))));
        return out.toString();
    }

    private static void secondFamily(StringBuilder out, List<SeriesIndex.Snapshot> series, String name, String help,
                                     String key, double scale) {
        family(out, name, "gauge", help);
        for (SeriesIndex.Snapshot s : series) {
            s.lastSecondByScenario().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
                Object v = e.getValue().get(key);
                if (v instanceof Number n) {
                    sample(out, name, Map.of("series", s.series(), "scenario", e.getKey()), n.doubleValue() * scale);
                }
            });
        }
    }

    private static void family(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n"))
                .append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder out, String name, Map<String, String> labels, double value) {
        out.append(name);
        if (!labels.isEmpty()) {
            out.append('{');
            boolean first = true;
            for (String k : labels.keySet().stream().sorted().toList()) {
                out.append(first ? "" : ",").append(k).append("=\"").append(escape(labels.get(k))).append('"');
                first = false;
            }
            out.append('}');
        }
        out.append(' ').append(number(value)).append('\n');
    }

    static String number(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.valueOf((long) v);
        }
        return String.format(Locale.ROOT, "%s", v);
    }

    /** A label value as the format requires: backslash, double quote and line feed escaped. */
    static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
