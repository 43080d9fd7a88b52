package io.rigscope.rig.export;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.logs.data.Body;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.Data;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.ExponentialHistogramBuckets;
import io.opentelemetry.sdk.metrics.data.ExponentialHistogramData;
import io.opentelemetry.sdk.metrics.data.ExponentialHistogramPointData;
import io.opentelemetry.sdk.metrics.data.GaugeData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.resources.Resource;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.Episode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The OpenTelemetry SDK's data objects for rigscope's decisions: a {@link TimeSeriesSample} becomes a metric with one
 * point (a native histogram an exponential histogram of the same scale, anything else a double gauge), stamped
 * with the decided second's own time (the SDK's instruments stamp the collection's time, so the points are built
 * here and handed to the SDK's OTLP exporter); a final episode becomes a log record.
 */
final class OtlpData {

    static final Resource RESOURCE = Resource.getDefault().merge(Resource.create(
            Attributes.of(io.opentelemetry.api.common.AttributeKey.stringKey("service.name"), "rigscope")));
    static final InstrumentationScopeInfo SCOPE = InstrumentationScopeInfo.create("io.rigscope.rig.export");

    private OtlpData() {
    }

    /** One metric with one point: the sample's. */
    static MetricData metric(TimeSeriesSample s) {
        long epochNanos = s.timestampMs() * 1_000_000L;
        Attributes attributes = attributes(s.labels());
        if (s.histogram() != null) {
            NativeHistogram h = s.histogram();
            ExponentialHistogramPointData point = ExponentialHistogramPointData.create(NativeHistogram.SCHEMA,
                    h.sumSec(), h.zeroCount(), false, 0, false, 0, positive(h),
                    ExponentialHistogramBuckets.create(NativeHistogram.SCHEMA, 0, List.of()),
                    epochNanos - 1_000_000_000L, epochNanos, attributes, List.of());
            return new Metric(s.name(), "the service times of the requests that ended in the second", "s",
                    MetricDataType.EXPONENTIAL_HISTOGRAM,
                    ExponentialHistogramData.create(AggregationTemporality.DELTA, List.of(point)));
        }
        DoublePointData point = DoublePointData.create(epochNanos, epochNanos, attributes, s.value(), List.of());
        return new Metric(s.name(), "", s.name().endsWith("_seconds") ? "s" : "1", MetricDataType.DOUBLE_GAUGE,
                GaugeData.createDoubleGaugeData(List.of(point)));
    }

    /**
     * The positive buckets in OTLP's form: OTLP's bucket {@code i} is {@code (base^i, base^(i+1)]}, Prometheus'
     * bucket {@code i} is {@code (base^(i-1), base^i]}, so the offset is the first Prometheus index minus one and
     * the counts run on without gaps.
     */
    static ExponentialHistogramBuckets positive(NativeHistogram h) {
        List<Long> counts = new ArrayList<>();
        int first = 0;
        int index = 0;
        long count = 0;
        int d = 0;
        for (int span = 0; span < h.spanOffsets().length; span++) {
            if (span == 0) {
                first = h.spanOffsets()[0];
                index = first;
            } else {
                for (int gap = 0; gap < h.spanOffsets()[span]; gap++) {
                    counts.add(0L);
                    index++;
                }
            }
            for (int b = 0; b < h.spanLengths()[span]; b++) {
                count += h.deltas()[d++];
                counts.add(count);
                index++;
            }
        }
        return ExponentialHistogramBuckets.create(NativeHistogram.SCHEMA, counts.isEmpty() ? 0 : first - 1, counts);
    }

    /** A final episode as a log record: its line as the body; cause, confidence, lever and span as attributes. */
    static LogRecordData episode(Decision.EpisodeFound e) {
        Episode ep = e.episode();
        AttributesBuilder a = Attributes.builder()
                .put("rigscope.series", e.series())
                .put("rigscope.rep", e.rep())
                .put("rigscope.cause", ep.cause().code())
                .put("rigscope.confidence", ep.confidence().code())
                .put("rigscope.episode.start_s", ep.startSec())
                .put("rigscope.episode.end_s", ep.endSec())
                .put("rigscope.episode.freeze_seconds", ep.freezeSeconds())
                .put("rigscope.episode.worst_ms", ep.worstMs())
                .put("rigscope.evidence", ep.evidenceLine());
        if (e.scenario() != null) {
            a.put("rigscope.scenario", e.scenario());
        }
        if (ep.lever() != null) {
            a.put("rigscope.lever", ep.lever().computed() ? ep.lever().headline() + " (" + ep.lever().why() + ")"
                    : "not computed: " + ep.lever().why());
        }
        String body = "episode rep " + e.rep() + ": " + ep.freezeSeconds() + " freeze-s, cause " + ep.cause().code()
                + " (" + ep.confidence().code() + "): " + ep.evidenceLine();
        return new Log(ep.startSec() * 1_000_000_000L, e.tsUs() * 1_000L, Body.string(body), a.build());
    }

    private static Attributes attributes(Map<String, String> labels) {
        AttributesBuilder a = Attributes.builder();
        labels.forEach(a::put);
        return a.build();
    }

    private record Metric(String name, String description, String unit, MetricDataType type, Data<?> data)
            implements MetricData {
        @Override
        public Resource getResource() {
            return RESOURCE;
        }

        @Override
        public InstrumentationScopeInfo getInstrumentationScopeInfo() {
            return SCOPE;
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public String getDescription() {
            return description;
        }

        @Override
        public String getUnit() {
            return unit;
        }

        @Override
        public MetricDataType getType() {
            return type;
        }

        @Override
        public Data<?> getData() {
            return data;
        }
    }

    private record Log(long timestampNanos, long observedNanos, Body body, Attributes attributes)
            implements LogRecordData {
        @Override
        public Resource getResource() {
            return RESOURCE;
        }

        @Override
        public InstrumentationScopeInfo getInstrumentationScopeInfo() {
            return SCOPE;
        }

        @Override
        public long getTimestampEpochNanos() {
            return timestampNanos;
        }

        @Override
        public long getObservedTimestampEpochNanos() {
            return observedNanos;
        }

        @Override
        public SpanContext getSpanContext() {
            return SpanContext.getInvalid();
        }

        @Override
        public Severity getSeverity() {
            return Severity.WARN;
        }

        @Override
        public String getSeverityText() {
            return "WARN";
        }

        @Override
        @SuppressWarnings("deprecation")
        public Body getBody() {
            return body;
        }

        @Override
        public Attributes getAttributes() {
            return attributes;
        }

        @Override
        public int getTotalAttributeCount() {
            return attributes.size();
        }
    }
}
