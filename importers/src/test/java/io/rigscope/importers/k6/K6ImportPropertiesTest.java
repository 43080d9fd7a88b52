package io.rigscope.importers.k6;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.testing.Mutations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Property tests of the k6 JSON reader: a k6 file with one damaged line among good ones imports the good ones, counts
 * the damaged one, and never fails for it.
 */
class K6ImportPropertiesTest {

    private static final String METRIC = "{\"type\":\"Metric\",\"data\":{\"name\":\"http_req_duration\",\"type\":"
            + "\"trend\",\"contains\":\"time\",\"thresholds\":[\"p(99)<500\"],\"submetrics\":null},"
            + "\"metric\":\"http_req_duration\"}";
    private static final String POINT = "{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"data\":{\"time\":"
            + "\"2024-03-05T10:00:01.005Z\",\"value\":2.5,\"tags\":{\"expected_response\":\"true\",\"method\":\"POST\","
            + "\"scenario\":\"ingest\",\"status\":\"201\"}}}";
    private static Path dir;

    @BeforeContainer
    static void makeDir() throws IOException {
        dir = Files.createTempDirectory("rigscope-k6-props-");
    }

    @AfterContainer
    static void removeDir() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    @Provide
    Arbitrary<String> lines() {
        return Mutations.of(List.of(POINT, METRIC), 4);
    }

    @Property(tries = 300)
    void aDamagedLineIsSkippedAndCountedNeverFatal(@ForAll("lines") String damaged) throws IOException {
        List<String> lines = new ArrayList<>(List.of(METRIC));
        for (int i = 0; i < 5; i++) {
            lines.add(POINT);
        }
        lines.add(3, damaged.replace('\n', ' ').replace('\r', ' '));
        Path file = dir.resolve("k6.json");
        Files.write(file, lines);
        List<Object> out = new ArrayList<>();
        K6Import.Result r = K6Import.read(file, new K6Import.Options("s-props", 1, "k6", Map.of(), false, true, 500),
                out::add);
        assertThat(r.samples()).isBetween(5L, 6L);
        assertThat(r.skippedLines() + r.unreadableLines()).isBetween(0L, 1L);
        assertThat(out).isNotEmpty();
    }
}
