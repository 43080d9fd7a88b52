package io.rigscope.importers.k6;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.testing.Mutations;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Property tests of the k6 reader's byte path ({@link K6PointShape}): on point lines as k6 writes them, mutated, and
 * on values of every form, {@link K6LineReader#parse} reads exactly what Jackson's parser reads (value bits
 * included), or refuses the line with the parser's reason.
 */
class K6PointShapePropertiesTest {

    private static final String HEAD = "{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"data\":{\"time\":"
            + "\"2024-03-05T12:00:00.019404059+02:00\",\"value\":";
    private static final String TAGS = ",\"tags\":{\"expected_response\":\"true\",\"group\":\"\",\"method\":\"GET\","
            + "\"name\":\"https://127.0.0.1:8443/aggregate\",\"proto\":\"HTTP/2.0\",\"scenario\":\"probe\",\"status\":"
            + "\"200\",\"tls_version\":\"tls1.3\",\"url\":\"https://127.0.0.1:8443/aggregate\"}}}";

    @Provide
    Arbitrary<String> lines() {
        return Mutations.of(List.of(HEAD + "3.028261" + TAGS, HEAD + "1" + TAGS), 4);
    }

    @Provide
    Arbitrary<String> values() {
        Arbitrary<String> decimals = Arbitraries.strings().withChars("0123456789").ofMinLength(1).ofMaxLength(20)
                .flatMap(i -> Arbitraries.strings().withChars("0123456789").ofMaxLength(20)
                        .map(f -> i + (f.isEmpty() ? "" : "." + f)));
        Arbitrary<String> doubles = Arbitraries.doubles().map(d -> Double.toString(Math.abs(d)));
        return Arbitraries.oneOf(decimals, doubles).flatMap(v -> Arbitraries.of("", "-").map(sign -> sign + v));
    }

    @Property(tries = 2000)
    void aMutatedPointLineReadsAsTheParserReadsIt(@ForAll("lines") String line) {
        assertSameReading(line);
    }

    @Property(tries = 2000)
    void everyValueReadsToTheParsersDouble(@ForAll("values") String value) {
        assertSameReading(HEAD + value + TAGS);
    }

    private static void assertSameReading(String line) {
        Object byBytes = readOrReason(new K6LineReader(), line, false);
        Object byParser = readOrReason(new K6LineReader(), line, true);
        assertThat(byBytes).isEqualTo(byParser);
        if (byBytes instanceof K6Line.Point p) {
            assertThat(Double.doubleToRawLongBits(p.value()))
                    .isEqualTo(Double.doubleToRawLongBits(((K6Line.Point) byParser).value()));
        }
    }

    private static Object readOrReason(K6LineReader reader, String line, boolean parserOnly) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        try {
            return parserOnly ? reader.parseWithParser(b, 0, b.length) : reader.parse(b, 0, b.length);
        } catch (K6LineReader.BadLineException e) {
            return e.getMessage();
        }
    }
}
