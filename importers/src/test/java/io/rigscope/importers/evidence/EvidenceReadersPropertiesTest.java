package io.rigscope.importers.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.importers.testing.EvidenceDirectory;
import io.rigscope.localenv.testing.Mutations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Property tests of the rescan readers of other tools' files (RDS Enhanced Monitoring, Performance Insights,
 * CloudWatch GetMetricData): a real file (from {@link EvidenceDirectory}) with a few characters edited is
 * read without an exception; what cannot be read is counted as bad lines in its {@link Tally}.
 */
class EvidenceReadersPropertiesTest {

    private static Path dir;
    private static String em;
    private static String pi;
    private static String cw;

    @BeforeContainer
    static void writeRealFiles() throws IOException {
        dir = Files.createTempDirectory("rigscope-evidence-props-");
        EvidenceDirectory.write(dir, false);
        em = String.join("\n", Files.readAllLines(dir.resolve("rds-os-metrics.jsonl")).subList(0, 3));
        pi = Files.readString(dir.resolve("pi-db-load.json"));
        cw = Files.readString(dir.resolve("cw-get-metric-data.json"));
    }

    @AfterContainer
    static void removeFiles() throws IOException {
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Provide
    Arbitrary<String> emFiles() {
        return Mutations.of(List.of(em), 4);
    }

    @Provide
    Arbitrary<String> piFiles() {
        return Mutations.of(List.of(pi.length() > 4000 ? pi.substring(0, 4000) : pi, pi), 4);
    }

    @Provide
    Arbitrary<String> cwFiles() {
        return Mutations.of(List.of(cw), 4);
    }

    private static Tally read(String text, EvidenceKind kind, Function<String, EvidenceReader> reader)
            throws IOException {
        Path file = dir.resolve("mutated-" + kind.name());
        Files.writeString(file, text);
        Tally tally = new Tally(file, kind);
        List<Object> out = new ArrayList<>();
        reader.apply("s-props").read(file, tally, out::add);
        // what a reader emits is what its tally counts: the console's "N records" is never a second count
        assertThat(out).hasSize((int) tally.records);
        return tally;
    }

    @Property(tries = 300)
    void anEnhancedMonitoringFileReadsOrCountsBadLines(@ForAll("emFiles") String text) throws IOException {
        Tally t = read(text, EvidenceKind.ENHANCED_MONITORING, EnhancedMonitoringFile::new);
        assertThat(t.bad).isBetween(0L, Math.max(1L, t.lines));
    }

    @Property(tries = 300)
    void aPerformanceInsightsResponseReadsOrCountsBadLines(@ForAll("piFiles") String text) throws IOException {
        read(text, EvidenceKind.PERFORMANCE_INSIGHTS, PerformanceInsightsFile::new);
    }

    @Property(tries = 300)
    void aCloudWatchResponseReadsOrCountsBadLines(@ForAll("cwFiles") String text) throws IOException {
        read(text, EvidenceKind.CLOUDWATCH, CloudWatchFile::new);
    }
}
