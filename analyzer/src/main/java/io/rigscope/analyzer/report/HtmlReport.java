package io.rigscope.analyzer.report;

import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.DecisionCodec;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.codec.WireLine;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The series report as one self-contained HTML file ({@code --report-html}): per-second p50/p99/max (the SECOND
 * decisions), where the service says each second's time went (the SECOND decisions' Server-Timing), freeze-seconds, 10-s windows, episodes with cause, confidence and evidence, the gate table of each
 * repeat, the series verdict, the ceiling and denominator, and the environment. The decisions are inlined as
 * their {@code rig.verdicts} wire lines ({@link DecisionCodec}) and drawn by {@link SeriesPage}, the dashboard's
 * page: every figure is the analyzer's.
 *
 * <p>Pure and deterministic: the same decisions render the same bytes (no clock).
 *
 * <pre>{@code
 * List<Decision> kept = new ArrayList<>();
 * analyzer.replay(input).filter(HtmlReport::keeps).doOnNext(kept::add).blockLast();
 * Files.writeString(file, HtmlReport.render(report, kept));
 * }</pre>
 */
public final class HtmlReport {

    private HtmlReport() {
    }

    /**
     * Whether the report keeps a decision: every final one. Provisional seconds and episodes are decided again
     * when final, so a report (written after the series) never needs them; an abortOnFail stop is live only (its
     * repeat's REPEAT body carries it as {@code aborted}), so a replay's page is the live run's.
     */
    public static boolean keeps(Decision d) {
        if (d instanceof Decision.Stop) {
            return false;
        }
        if (d instanceof Decision.Second s) {
            return !s.provisional();
        }
        if (d instanceof Decision.EpisodeFound e) {
            return !e.provisional();
        }
        return true;
    }

    /** The HTML page without telemetry panels' data ({@link #render(SeriesReport, List, List)}). */
    public static String render(SeriesReport report, List<Decision> decisions) {
        return render(report, decisions, List.of());
    }

    /**
     * The HTML page.
     *
     * @param report the series report (the SERIES decision's); it is the page's verdict even when
     *     {@code decisions} does not hold the SERIES decision
     * @param decisions the analysis' decisions in the order they were made; provisional ones are left out
     * @param telemetry the series' records of {@link SeriesPage#TELEMETRY_TOPICS} (others are left out), drawn as
     *     recorded; inlined in the order of topic, time and source, so the same records give the same page
     */
    public static String render(SeriesReport report, List<Decision> decisions, List<? extends WireRecord> telemetry) {
        return SeriesPage.standalone("rigscope " + report.series() + ": " + report.verdict() + " "
                + report.passed() + "/" + report.total(), wireLines(report, decisions, telemetry));
    }

    /**
     * The wire lines the page is drawn from ({@link #render(SeriesReport, List, List)}'s data; the comparison page
     * inlines two of them): the telemetry records, every kept decision, and the SERIES decision last.
     */
    public static List<String> wireLines(SeriesReport report, List<Decision> decisions,
                                         List<? extends WireRecord> telemetry) {
        Objects.requireNonNull(report, "report");
        Objects.requireNonNull(decisions, "decisions");
        Objects.requireNonNull(telemetry, "telemetry");
        WireCodec codec = new WireCodec();
        List<String> lines = new ArrayList<>(decisions.size() + telemetry.size() + 1);
        telemetry.stream()
                .filter(r -> SeriesPage.TELEMETRY_TOPICS.contains(r.topic()) && report.series().equals(r.run()))
                .sorted(Comparator.comparing((WireRecord r) -> r.topic()).thenComparingLong(WireRecord::ts)
                        .thenComparing(WireRecord::src))
                .forEach(r -> lines.add(WireLine.of(codec, r).render(codec)));
        long lastTsUs = 0;
        for (Decision d : decisions) {
            if (keeps(d) && !(d instanceof Decision.Series)) {
                lines.add(WireLine.of(codec, DecisionCodec.toVerdict(d)).render(codec));
                lastTsUs = Math.max(lastTsUs, d.tsUs());
            }
        }
        Decision.Series series = decisions.stream().filter(Decision.Series.class::isInstance)
                .map(Decision.Series.class::cast).reduce((a, b) -> b)
                .orElse(new Decision.Series(report.series(), Math.max(1, lastTsUs), report));
        lines.add(WireLine.of(codec, DecisionCodec.toVerdict(new Decision.Series(report.series(), Math.max(1, series.tsUs()),
                report))).render(codec));
        return lines;
    }
}
