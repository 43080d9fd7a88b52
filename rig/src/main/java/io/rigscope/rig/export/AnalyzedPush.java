package io.rigscope.rig.export;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.series.SeriesAnalysis;
import io.rigscope.model.wire.WireRecord;
import java.util.List;
import java.util.function.Consumer;

/**
 * For a command that publishes records but runs no analyzer ({@code collect k6}): hands every record on, feeds it
 * to an in-memory analysis of the series (the analyzer's own {@link SeriesAnalysis}, judging repeats as their data
 * completes, as a live analysis does) and pushes what it decides. {@link #finish} judges what is left and closes
 * the sink.
 *
 * <p>Not thread-safe: called on the one thread that produces the records.
 */
public final class AnalyzedPush implements Consumer<WireRecord>, AutoCloseable {

    private final Consumer<WireRecord> next;
    private final SeriesAnalysis analysis;
    private final ExportTargets.Sinks sink;
    private boolean judged;

    /** Records go on to {@code next}; the series' decisions go to {@code sink} (closed by {@link #close}). */
    public AnalyzedPush(String series, Consumer<WireRecord> next, ExportTargets.Sinks sink) {
        this.next = next;
        this.analysis = Analyzer.forSeries(series).newAnalysis();
        this.sink = sink;
    }

    @Override
    public void accept(WireRecord record) {
        next.accept(record);
        push(analysis.accept(record));
    }

    /** Judges what the analysis still holds (unless the series was judged already), then closes the sink. */
    @Override
    public void close() {
        if (!judged) {
            push(analysis.finish());
        }
        sink.close();
    }

    private void push(List<Decision> decisions) {
        for (Decision d : decisions) {
            judged |= d instanceof Decision.Series;
            sink.accept(d);
        }
    }
}
