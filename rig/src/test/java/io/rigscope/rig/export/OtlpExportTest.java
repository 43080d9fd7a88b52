package io.rigscope.rig.export;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.localenv.net.LoopbackPorts;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.cli.RigscopeRun;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code analyze --otlp}: the recorded series sent through the OpenTelemetry SDK's OTLP/HTTP exporters to a local
 * receiver that decodes the protobuf (the opentelemetry-proto classes): every closed second's exponential
 * histogram against the analyzer's second, every final episode as a log record against the report's.
 */
@Tag("it")
class OtlpExportTest {

    @Test
    void everyClosedSecondArrivesAsAnExponentialHistogramAndEveryEpisodeAsALogRecord() throws Exception {
        List<ExportMetricsServiceRequest> metrics = new CopyOnWriteArrayList<>();
        List<ExportLogsServiceRequest> logs = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", LoopbackPorts.free()), 0);
        server.createContext("/v1/metrics", receive(in -> metrics.add(ExportMetricsServiceRequest.parseFrom(in))));
        server.createContext("/v1/logs", receive(in -> logs.add(ExportLogsServiceRequest.parseFrom(in))));
        server.start();
        RigscopeRun run;
        try {
            run = rigscope("analyze", "--series", PrometheusRemoteWriteTest.SERIES, "--input",
                    PrometheusRemoteWriteTest.RECORDED.toString(), "--quiet",
                    "--otlp", "http://127.0.0.1:" + server.getAddress().getPort());
        } finally {
            server.stop(0);
        }
        assertThat(run.exit()).isEqualTo(99);
        assertThat(run.out()).containsOnlyOnce("otlp: ").doesNotContain("NOT sent");

        List<Decision> decisions = Analyzer.forSeries(PrometheusRemoteWriteTest.SERIES)
                .replay(AnalyzerInput.fromWireFile(PrometheusRemoteWriteTest.RECORDED, new WireCodec(), f -> { }))
                .collectList().block();
        SeriesReport report = ((Decision.Series) decisions.get(decisions.size() - 1)).report();

        Map<String, ExponentialHistogramDataPoint> points = new HashMap<>();
        for (ExportMetricsServiceRequest r : metrics) {
            r.getResourceMetricsList().forEach(rm -> rm.getScopeMetricsList().forEach(sm -> {
                for (Metric m : sm.getMetricsList()) {
                    if (m.getName().equals("rigscope_second_service_seconds")) {
                        m.getExponentialHistogram().getDataPointsList().forEach(p -> points.put(
                                attr(p.getAttributesList(), "rep") + "/" + attr(p.getAttributesList(), "scenario")
                                        + "@" + p.getTimeUnixNano(), p));
                    }
                }
            }));
        }
        int compared = 0;
        for (Decision d : decisions) {
            if (d instanceof Decision.Second s && !s.provisional() && s.second().count() > 0) {
                ExponentialHistogramDataPoint p = points.get(s.rep() + "/" + s.scenario() + "@" + s.tsUs() * 1000);
                assertThat(p).as("rep %d %s second %d", s.rep(), s.scenario(), s.second().sec()).isNotNull();
                assertThat(p.getScale()).isEqualTo(NativeHistogram.SCHEMA);
                assertThat(p.getCount()).isEqualTo(s.second().count());
                // the bucket holding the p99's rank holds the analyzer's p99
                long rank = (long) Math.ceil(0.99 * p.getCount());
                long seen = p.getZeroCount();
                int bucket = p.getPositive().getOffset();
                for (long c : p.getPositive().getBucketCountsList()) {
                    seen += c;
                    if (seen >= rank) {
                        break;
                    }
                    bucket++;
                }
                double base = Math.pow(2, Math.pow(2, -p.getScale()));
                double p99Sec = s.second().p99ServiceUs() / 1e6;
                assertThat(p99Sec).isGreaterThan(Math.pow(base, bucket)).isLessThanOrEqualTo(Math.pow(base, bucket + 1));
                compared++;
            }
        }
        assertThat(compared).isGreaterThanOrEqualTo(80);

        List<LogRecord> records = new ArrayList<>();
        logs.forEach(r -> r.getResourceLogsList().forEach(rl -> rl.getScopeLogsList()
                .forEach(sl -> records.addAll(sl.getLogRecordsList()))));
        assertThat(records).hasSameSizeAs(report.episodes());
        assertThat(records.stream().map(l -> attr(l.getAttributesList(), "rigscope.cause") + "/"
                + attr(l.getAttributesList(), "rigscope.rep")).sorted().toList())
                .isEqualTo(report.episodes().stream().map(e -> e.cause().code() + "/" + e.rep()).sorted().toList());
        Episode first = report.episodes().get(0);
        assertThat(records).anySatisfy(l -> assertThat(l.getBody().getStringValue()).contains(first.evidenceLine()));
    }

    @Test
    void anOtlpReceiverThatIsDownLeavesTheVerdictAndSaysOnceWhatWasNotSent() throws Exception {
        int nobody = LoopbackPorts.free();
        RigscopeRun run = rigscope("analyze", "--series", PrometheusRemoteWriteTest.SERIES, "--input",
                PrometheusRemoteWriteTest.RECORDED.toString(), "--quiet", "--otlp", "http://127.0.0.1:" + nobody);
        assertThat(run.exit()).isEqualTo(99);
        List<String> lines = run.out().lines().filter(l -> l.startsWith("otlp:")).toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).matches("otlp: 0 metric point\\(s\\) and log record\\(s\\) sent to http://127\\.0\\.0\\.1:"
                + nobody + "; ([\\d,]+) of \\1 NOT sent");
        assertThat(run.out()).contains(PrometheusRemoteWriteTest.SERIES + ": FAIL");
    }

    private static String attr(List<KeyValue> attributes, String key) {
        for (KeyValue kv : attributes) {
            if (kv.getKey().equals(key)) {
                return kv.getValue().hasIntValue() ? String.valueOf(kv.getValue().getIntValue())
                        : kv.getValue().getStringValue();
            }
        }
        return null;
    }

    private interface Decoder {
        void decode(InputStream in) throws Exception;
    }

    private static com.sun.net.httpserver.HttpHandler receive(Decoder decoder) {
        return exchange -> {
            int status = 200;
            try (InputStream in = exchange.getRequestBody()) {
                decoder.decode(in);
            } catch (Exception e) {
                status = 400;
            }
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        };
    }
}
