package io.rigscope.rig.export;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One sample of one remote-write time series: its metric name and labels, and either a float value or a native
 * histogram, at the decision's own event time.
 *
 * @param name the metric name ({@code __name__})
 * @param labels the other labels, sorted by name on the wire
 * @param value the float value (ignored when {@code histogram} is set)
 * @param histogram the native histogram, or null for a float sample
 * @param timestampMs epoch milliseconds: the decided second's end (never the wall clock)
 */
record TimeSeriesSample(String name, Map<String, String> labels, double value, NativeHistogram histogram,
                        long timestampMs) {

    TimeSeriesSample {
        Objects.requireNonNull(name, "name");
        labels = new TreeMap<>(labels);
    }

    /** The series' identity: name and labels (what Prometheus orders samples within). */
    String seriesKey() {
        return name + labels;
    }

    /** The remote-write {@code TimeSeries} message (prompb/types.proto: labels 1, samples 2, histograms 4). */
    ProtoWriter encode() {
        ProtoWriter ts = new ProtoWriter();
        ts.message(1, new ProtoWriter().string(1, "__name__").string(2, name));
        labels.forEach((k, v) -> ts.message(1, new ProtoWriter().string(1, k).string(2, v)));
        if (histogram == null) {
            ts.message(2, new ProtoWriter().doubleField(1, value).int64(2, timestampMs));
        } else {
            ts.message(4, histogram.encode(timestampMs));
        }
        return ts;
    }
}
