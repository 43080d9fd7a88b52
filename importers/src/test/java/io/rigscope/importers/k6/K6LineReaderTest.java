package io.rigscope.importers.k6;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.analyzer.threshold.ThresholdDecl;
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
                new ThresholdDecl("rate>0.9", false, null), new ThresholdDecl("rate>0.5", true, "5s"))));
    }

    /**
     * Lines in k6's point shape are read from their bytes ({@link K6PointShape}); each must read exactly as Jackson's
     * parser reads it, value bits and all, or be refused with the parser's reason.
     */
    @Test
    void aPointLineInK6sShapeReadsAsTheParserReadsIt() throws Exception {
        String head = "{\"metric\":\"http_reqs\",\"type\":\"Point\",\"data\":{\"time\":\"2024-03-05T12:00:00.5Z\","
                + "\"value\":";
        String tags = ",\"tags\":{\"scenario\":\"ingest\",\"status\":\"201\"}}}";
        List<String> lines = new ArrayList<>();
        for (String value : List.of("0", "-0", "-0.0", "1", "4.25", "0.1", "123456789012345678", "1234567890123456789",
                "9007199254740993.5", "0.30000000000000004", "2.892763", "-17.5", "1e3", "1.5E-2", "01", "1.", ".5",
                "-", "true", "null", "\"3\"")) {
            lines.add(head + value + tags);
        }
        lines.add(POINT);
        lines.add(POINT + "\r");
        lines.add(POINT + " ");
        lines.add(POINT + "}");
        lines.add(POINT.replace("}}}", "}}"));
        lines.add(POINT.replace("{\"scenario\"", "{ \"scenario\""));
        lines.add(POINT.replace("\"tags\":{\"scenario\":\"ingest\",\"status\":\"201\"}", "\"tags\":{}"));
        lines.add(POINT.replace("\"tags\":{\"scenario\":\"ingest\",", "\"tags\":{\"nested\":{\"a\":\"}}\"},"));
        lines.add(POINT.replace("\"tags\":{\"scenario\":\"ingest\",", "\"tags\":{\"scenario\":\"in\\u0067est\","));
        lines.add(POINT.replace("ingest", "ingést"));
        lines.add(POINT.replace("\"status\":\"201\"}", "\"status\":\"201\"},\"x\":{}"));
        lines.add(POINT.replace("\"status\":\"201\"}", "\"status\":\"201\""));
        lines.add(POINT.replace("http_req_duration", "http_req_dur\\u0061tion"));
        lines.add(POINT.replace("http_req_duration", ""));
        lines.add(POINT.replace("+02:00", "+2:00"));
        lines.add(POINT.replace("12:00:00.000137854", "12:00:00"));
        lines.add(POINT.replace("\"Point\"", "\"Metric\""));
        K6LineReader bytes = new K6LineReader();
        K6LineReader parser = new K6LineReader();
        for (String line : lines) {
            Object byBytes = readOrReason(() -> bytes.parse(line));
            Object byParser = readOrReason(() -> {
                byte[] b = line.getBytes(StandardCharsets.UTF_8);
                return parser.parseWithParser(b, 0, b.length);
            });
            assertThat(byBytes).as(line).isEqualTo(byParser);
            if (byBytes instanceof K6Line.Point p) {
                assertThat(Double.doubleToRawLongBits(p.value())).as(line)
                        .isEqualTo(Double.doubleToRawLongBits(((K6Line.Point) byParser).value()));
            }
        }
        assertThat(readOrReason(() -> bytes.parse(head + "1e3" + tags))).isInstanceOf(K6Line.Point.class);
        assertThat(readOrReason(() -> bytes.parse(head + "01" + tags))).isInstanceOf(String.class);
    }

    private interface Read {
        K6Line read() throws K6LineReader.BadLineException;
    }

    private static Object readOrReason(Read read) {
        try {
            return read.read();
        } catch (K6LineReader.BadLineException e) {
            return e.getMessage();
        }
    }

    @Test
    void aStreamOfPointLinesAroundAnObjectSpanningLinesAndALineOfTwoObjectsReadsAsBefore() throws Exception {
        String metric = "{\"type\":\"Metric\",\"data\":{\"name\":\"http_reqs\",\"type\":\"counter\"},"
                + "\"metric\":\"http_reqs\"}";
        // the stream was always read one parser per block: an object over two lines and two objects on a line read
        String text = POINT + "\n" + metric.replace(",\"metric\"", ",\n\"metric\"") + "\n" + POINT + POINT + "\n"
                + POINT + "\n";
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

        assertThat(bad).isEmpty();
        assertThat(good).hasSize(5);
        assertThat(good.get(1)).isInstanceOf(K6Line.MetricDecl.class);
        assertThat(good.get(4)).isEqualTo(good.get(0));
        assertThat(summary.lines()).isEqualTo(5);
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
