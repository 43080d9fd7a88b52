package io.rigscope.benchmarks.analyzer;

import static io.rigscope.model.wire.LatencySettings.DIGITS;
import static io.rigscope.model.wire.LatencySettings.HIGHEST_US;
import static io.rigscope.model.wire.LatencySettings.LOWEST_US;
import static io.rigscope.model.wire.LatencySettings.US_PER_MS;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Latencies of one kind (e.g. second end to its final decision), recorded by ONE writer thread and read by one
 * reader at a time: the writer records into a {@link SingleWriterRecorder}; the reader takes interval histograms
 * and folds them into the total. Values in the shape of {@link io.rigscope.model.wire.LatencySettings}.
 */
final class LatencyTrack {

    private final SingleWriterRecorder recorder = new SingleWriterRecorder(LOWEST_US, HIGHEST_US, DIGITS);
    /** Reader side only. */
    private final Histogram total = new Histogram(LOWEST_US, HIGHEST_US, DIGITS);
    /** Reader side only. */
    private Histogram interval;

    /** Writer thread only. A latency below 1 µs (clock granularity) counts as 1 µs. */
    void record(long latencyUs) {
        recorder.recordValue(Math.max(LOWEST_US, Math.min(latencyUs, HIGHEST_US)));
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
        return new LiveAnalyzerBench.Latency(h.getTotalCount(), h.getValueAtPercentile(50) / US_PER_MS,
                h.getValueAtPercentile(99) / US_PER_MS, h.getMaxValue() / US_PER_MS);
    }
}
