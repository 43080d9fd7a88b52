package io.rigscope.analyzer.bench;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Latencies of one kind (e.g. second end to its final decision), recorded by ONE writer thread and read by one
 * reader at a time: the writer records into a {@link SingleWriterRecorder}; the reader takes interval histograms
 * and folds them into the total. Values in µs, 1 µs to 1 h, 3 significant digits.
 */
final class LatencyTrack {

    private static final long HIGHEST_US = 3_600_000_000L;

    private final SingleWriterRecorder recorder = new SingleWriterRecorder(1, HIGHEST_US, 3);
    /** Reader side only. */
    private final Histogram total = new Histogram(1, HIGHEST_US, 3);
    /** Reader side only. */
    private Histogram interval;

    /** Writer thread only. A latency below 1 µs (clock granularity) counts as 1 µs. */
    void record(long latencyUs) {
        recorder.recordValue(Math.max(1, Math.min(latencyUs, HIGHEST_US)));
    }

    /** Reader: takes what was recorded since the last call, folds it into the total and returns it. */
    LiveAnalyzerBench.Latency takeInterval() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return summary(interval);
    }

    /** Reader: everything recorded up to the last {@link #takeInterval()}. */
    LiveAnalyzerBench.Latency total() {
        return summary(total);
    }

    private static LiveAnalyzerBench.Latency summary(Histogram h) {
        if (h.getTotalCount() == 0) {
            return new LiveAnalyzerBench.Latency(0, 0, 0, 0);
        }
        return new LiveAnalyzerBench.Latency(h.getTotalCount(), h.getValueAtPercentile(50) / 1000.0,
                h.getValueAtPercentile(99) / 1000.0, h.getMaxValue() / 1000.0);
    }
}
