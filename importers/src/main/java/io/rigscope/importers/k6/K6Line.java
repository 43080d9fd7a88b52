package io.rigscope.importers.k6;

import io.rigscope.analyzer.threshold.ThresholdDecl;
import java.util.List;
import java.util.Objects;

/**
 * One line of k6's {@code --out json} output: a {@link MetricDecl} (k6 writes one the first time a metric is
 * seen, with the thresholds declared on it) or a {@link Point} (one measured value).
 */
sealed interface K6Line permits K6Line.MetricDecl, K6Line.Point, K6Line.Other {

    /**
     * A {@code "type":"Metric"} line.
     *
     * @param name the metric's name, e.g. {@code http_req_duration}
     * @param type {@code trend}, {@code rate}, {@code counter} or {@code gauge} (as written; empty when absent)
     * @param contains {@code time}, {@code data} or {@code default} (empty when absent)
     * @param thresholds the thresholds declared on it, in order
     */
    record MetricDecl(String name, String type, String contains, List<ThresholdDecl> thresholds) implements K6Line {
        public MetricDecl {
            Objects.requireNonNull(name, "name");
            thresholds = List.copyOf(thresholds);
        }
    }

    /**
     * A {@code "type":"Point"} line.
     *
     * @param metric the metric's name (interned by the reader)
     * @param timeUs the point's {@code time}, epoch microseconds UTC (k6 writes its local offset; it is applied)
     * @param value the point's value, in the metric's unit (ms for time metrics)
     * @param tags its tags (interned by the reader)
     */
    record Point(String metric, long timeUs, double value, K6Tags tags) implements K6Line {
    }

    /** A k6 line of another {@code type} (k6 may add kinds): read, nothing to use. */
    record Other(String type) implements K6Line {
    }
}
