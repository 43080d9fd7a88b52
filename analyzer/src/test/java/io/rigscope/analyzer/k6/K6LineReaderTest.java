package io.rigscope.analyzer.k6;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class K6LineReaderTest {

    private static final String POINT = "{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"data\":{\"time\":"
            + "\"2024-03-05T12:00:00.000137854+02:00\",\"value\":4.25,\"tags\":{\"scenario\":\"ingest\","
            + "\"status\":\"201\"}}}";

    @Test
    void aPointLineReadsWithItsOffsetAppliedToMicroseconds() throws Exception {
        K6Line line = new K6LineReader().parse(POINT);

        K6Line.Point p = (K6Line.Point) line;
        OffsetDateTime t = OffsetDateTime.parse("2024-03-05T12:00:00.000137854+02:00");
        assertThat(p.metric()).isEqualTo("http_req_duration");
        assertThat(p.timeUs()).isEqualTo(t.toEpochSecond() * 1_000_000L + 137);
        assertThat(p.value()).isEqualTo(4.25);
        assertThat(p.tags().get("scenario")).isEqualTo("ingest");
        assertThat(p.tags().get("status")).isEqualTo("201");
        assertThat(p.tags().get("method")).isNull();
    }

    @Test
    void equalTagSetsReadByOneReaderAreTheSameObject() throws Exception {
        K6LineReader reader = new K6LineReader();
        K6Line.Point a = (K6Line.Point) reader.parse(POINT);
        K6Line.Point b = (K6Line.Point) reader.parse(POINT.replace("4.25", "9"));

        assertThat(b.tags()).isSameAs(a.tags());
        assertThat(b.metric()).isSameAs(a.metric());
    }

    @Test
    void aMetricLineCarriesItsThresholdsWithAbortOnFail() throws Exception {
        K6Line line = new K6LineReader().parse("{\"type\":\"Metric\",\"data\":{\"name\":\"checks\",\"type\":\"rate\","
                + "\"contains\":\"default\",\"thresholds\":[\"rate>0.9\",{\"threshold\":\"rate>0.5\",\"abortOnFail\":"
                + "true,\"delayAbortEval\":\"5s\"}],\"submetrics\":null},\"metric\":\"checks\"}");

        assertThat(line).isEqualTo(new K6Line.MetricDecl("checks", "rate", "default", List.of(
                new K6Line.ThresholdDecl("rate>0.9", false, null), new K6Line.ThresholdDecl("rate>0.5", true, "5s"))));
    }

    @Test
    void badLinesAreRefusedWithTheirReason() {
        K6LineReader reader = new K6LineReader();
        assertThatThrownBy(() -> reader.parse("{\"metric\":\"x\"}")).hasMessage(
                "is not a k6 JSON output line (no \"type\")");
        assertThatThrownBy(() -> reader.parse(POINT.replace("2024-03-05T12", "2024-13-05T12")))
                .hasMessage("time '2024-13-05T12:00:00.000137854+02:00' is not an RFC 3339 timestamp");
        assertThatThrownBy(() -> reader.parse(POINT.substring(0, 40))).hasMessageStartingWith("is not JSON: ");
    }

    @Test
    void aStreamKeepsEveryGoodLineAroundABadOneAndCountsBlankAndCrlfLines() throws Exception {
        String text = POINT + "\r\n\n" + "garbage\n" + POINT + "\n" + POINT.substring(0, 50);
        List<K6Line> good = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        K6LineReader.Summary summary = new K6LineReader().read(new ByteArrayInputStream(
                text.getBytes(StandardCharsets.UTF_8)), new K6LineReader.Handler() {
                    @Override
                    public void line(K6Line line) {
                        good.add(line);
                    }

                    @Override
                    public void bad(long lineNo, String reason) {
                        bad.add(lineNo + ": " + reason);
                    }
                });

        assertThat(good).hasSize(2);
        assertThat(bad).hasSize(2);
        assertThat(bad.get(0)).startsWith("3: is not JSON");
        assertThat(bad.get(1)).startsWith("5: is not JSON");
        assertThat(summary.lines()).isEqualTo(5);
        assertThat(summary.lastLineBad()).isTrue();
    }

    @Test
    void pointsOfMetricsNotWantedAreSkippedUnlessAMetricLineGaveThemThresholds() throws Exception {
        String waiting = POINT.replace("http_req_duration", "http_req_waiting");
        String decl = "{\"type\":\"Metric\",\"data\":{\"name\":\"http_req_waiting\",\"type\":\"trend\",\"thresholds\":"
                + "[\"p(95)<5\"]},\"metric\":\"http_req_waiting\"}";
        List<K6Line> lines = new ArrayList<>();
        new K6LineReader(m -> m.equals("http_req_duration")).read(new ByteArrayInputStream((waiting + "\n" + decl
                + "\n" + waiting + "\n").getBytes(StandardCharsets.UTF_8)), new K6LineReader.Handler() {
                    @Override
                    public void line(K6Line line) {
                        lines.add(line);
                    }

                    @Override
                    public void bad(long lineNo, String reason) {
                        throw new AssertionError(reason);
                    }
                });

        assertThat(lines.get(0)).isEqualTo(new K6Line.Other("Point"));
        assertThat(lines.get(1)).isInstanceOf(K6Line.MetricDecl.class);
        assertThat(lines.get(2)).isInstanceOf(K6Line.Point.class);
    }
}
