package io.rigscope.analyzer.report;

import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a series' report files are drawn from, gathered while an analysis runs: the decisions the HTML page and
 * the interval logs keep ({@link HtmlReport#keeps}, {@link IntervalLogs#keeps}) and the telemetry records the
 * page plots ({@link SeriesPage#TELEMETRY_TOPICS}, this series only). Feed it the analyzer's decisions and, when
 * an HTML page is wanted, the analyzer's input batches; then render.
 *
 * <pre>{@code
 * ReportMaterial kept = new ReportMaterial(series, html != null, hlogDir != null);
 * analyzer.replay(input.doOnNext(kept::records)).doOnNext(kept::decision).blockLast();
 * Files.writeString(html, kept.html(report));
 * kept.writeIntervalLogs(hlogDir);
 * }</pre>
 *
 * <p>Thread-safe: the input and the decisions arrive on different threads.
 */
public final class ReportMaterial {

    private final String series;
    private final boolean forHtml;
    private final boolean forIntervalLogs;
    private final List<Decision> decisions = new ArrayList<>();
    private final List<WireRecord> telemetry = new ArrayList<>();

    /**
     * @param series the series whose telemetry is kept
     * @param forHtml keep what the HTML page draws
     * @param forIntervalLogs keep what the interval logs need
     */
    public ReportMaterial(String series, boolean forHtml, boolean forIntervalLogs) {
        this.series = Objects.requireNonNull(series, "series");
        this.forHtml = forHtml;
        this.forIntervalLogs = forIntervalLogs;
    }

    /** Keeps a decision when a report needs it. */
    public void decision(Decision d) {
        if ((forHtml && HtmlReport.keeps(d)) || (forIntervalLogs && IntervalLogs.keeps(d))) {
            synchronized (this) {
                decisions.add(d);
            }
        }
    }

    /** Keeps the telemetry records of a batch of the analyzer's input that the page plots. */
    public void records(List<? extends WireRecord> batch) {
        if (!forHtml) {
            return;
        }
        List<WireRecord> mine = new ArrayList<>();
        for (WireRecord r : batch) {
            if (SeriesPage.TELEMETRY_TOPICS.contains(r.topic()) && series.equals(r.run())) {
                mine.add(r);
            }
        }
        if (!mine.isEmpty()) {
            synchronized (this) {
                telemetry.addAll(mine);
            }
        }
    }

    /** The decisions kept so far, in the order they were made. A copy. */
    public synchronized List<Decision> decisions() {
        return List.copyOf(decisions);
    }

    /** The telemetry records kept so far, in the order they arrived. A copy. */
    public synchronized List<WireRecord> telemetry() {
        return List.copyOf(telemetry);
    }

    /** The HTML report ({@link HtmlReport#render(SeriesReport, List, List)}) of what was kept. */
    public String html(SeriesReport report) {
        return HtmlReport.render(report, decisions(), telemetry());
    }

    /** Writes the interval logs ({@link IntervalLogs#write}) of what was kept; returns the files. */
    public List<Path> writeIntervalLogs(Path dir) throws IOException {
        return IntervalLogs.write(dir, series, decisions());
    }
}
