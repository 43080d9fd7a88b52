package io.rigscope.analyzer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.report.ReportFiles;
import io.rigscope.model.codec.WireCodec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Comparisons of real series: the recorded demo reports (src/test/resources/recorded), the provoked wire files
 * replayed (src/test/resources/provoked), and two report files of `rigscope run` on this VM
 * (src/test/resources/compare).
 */
class ComparisonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void twoAndOneRepeatsGiveNoVerdictAndSayWhy() throws IOException {
        SeriesFigures a = SeriesFigures.of("demo-quick", JSON.readTree(resource("/recorded/demo-quick.report.json")));
        SeriesFigures b = SeriesFigures.of("hot-row", JSON.readTree(resource("/recorded/hot-row.report.json")));
        Comparison c = Comparison.of(a, b, false, Set.of());

        assertThat(a.repeats()).extracting(SeriesFigures.Repeat::p99Ms).containsExactly(8.151, 5.043);
        assertThat(b.repeats()).extracting(SeriesFigures.Repeat::p99Ms).containsExactly(5.055);
        assertThat(c.differs()).isEmpty();
        assertThat(c.verdict()).isNull();
        // 3 splits of {8.151, 5.043 | 5.055}, each as extreme as the observed one (|5.055 - 6.597|, ...): p = 1
        assertThat(c.p99().arrangements()).isEqualTo(3);
        assertThat(c.p99().pValue()).isEqualTo(1.0);
        assertThat(c.why()).contains("no verdict: 2 judged repeat(s) in A, 1 in B; at least 3 a side");
    }

    /**
     * Two runs of one series file on this VM (src/test/resources/compare/README.md), 3 sustained repeats each. By hand:
     * p99 A {3954.687, 2840.575, 1353.727} all above B {1118.207, 491.007, 346.623}: only that split and its mirror
     * of the C(6,3) = 20 are as extreme, p = 2/20 = 0.1. Freeze-seconds A {11, 12, 11}, B {11, 9, 6}: |mean
     * difference| 8/3, reached when A's three sum to at most 26 or at least 34 of the pooled 60: {12, 11, 11} three
     * ways, {9, 6, 11} three ways, p = 6/20 = 0.3.
     */
    @Test
    void twoRealRunsOfThreeRepeatsGiveTheExactPValuesCountedByHand() throws IOException {
        SeriesFigures a = SeriesFigures.of("run-a", JSON.readTree(resource("/compare/run-a.report.json")));
        SeriesFigures b = SeriesFigures.of("run-b", JSON.readTree(resource("/compare/run-b.report.json")));
        Comparison c = Comparison.of(a, b, false, Set.of());

        assertThat(a.repeats()).extracting(SeriesFigures.Repeat::p99Ms).containsExactly(3954.687, 2840.575, 1353.727);
        assertThat(b.repeats()).extracting(SeriesFigures.Repeat::p99Ms).containsExactly(1118.207, 491.007, 346.623);
        assertThat(a.repeats()).extracting(SeriesFigures.Repeat::freezeSeconds).containsExactly(11, 12, 11);
        assertThat(b.repeats()).extracting(SeriesFigures.Repeat::freezeSeconds).containsExactly(11, 9, 6);
        assertThat(c.differs()).isEmpty();
        assertThat(c.p99().arrangements()).isEqualTo(20);
        assertThat(c.p99().atLeastAsExtreme()).isEqualTo(2);
        assertThat(c.p99().pValue()).isEqualTo(0.1);
        assertThat(c.freezeSeconds().atLeastAsExtreme()).isEqualTo(6);
        assertThat(c.freezeSeconds().pValue()).isEqualTo(0.3);
        // the same configuration twice, the host's load differing: what the test alone cannot tell from a treatment
        assertThat(c.verdict()).isEqualTo("better");
        assertThat(b.freezeSecondsByCause()).containsEntry("wal_pool", 15).containsEntry("generator", 11);
        assertThat(b.episodeLevers()).contains("rep 3 wal_pool: min_wal_size=224MB");
        assertThat(Comparison.of(b, a, false, Set.of()).verdict()).isEqualTo("worse");
    }

    @Test
    void theWalPoolProvocationAgainstTheCleanRunIsNotComparableAndNamesTheSettings() throws IOException {
        SeriesFigures clean = replayed("clean", "cal-clean-20261130-193235");
        SeriesFigures wal = replayed("wal-pool", "cal-wal-pool-20261130-193420");
        Comparison c = Comparison.of(clean, wal, false, Set.of());

        assertThat(c.verdict()).isEqualTo("not_comparable");
        assertThat(c.differs()).containsExactly("pg_settings.max_wal_size: 2GB -> 32GB",
                "pg_settings.min_wal_size: 80MB -> 512MB", "pg_settings.synchronous_commit: off -> on",
                "pg_settings.wal_segment_size: 16MB -> 256MB");
        assertThat(wal.freezeSecondsByCause()).containsEntry("wal_pool", 8);
        assertThat(wal.episodeLevers()).contains("rep 2 wal_pool: min_wal_size=15GB");

        Comparison anyway = Comparison.of(clean, wal, true, Set.of());
        assertThat(anyway.lines()).allSatisfy(l -> assertThat(l).startsWith("[cross-rig] "));
        assertThat(anyway.verdict()).isNull();
        assertThat(anyway.why()).contains("1 judged repeat(s) in A, 1 in B");
    }

    @Test
    void aDeclaredTreatmentMayDifferTheRestMayNot() throws IOException {
        SeriesFigures clean = replayed("clean", "cal-clean-20261130-193235");
        SeriesFigures wal = replayed("wal-pool", "cal-wal-pool-20261130-193420");
        Comparison c = Comparison.of(clean, wal, false, Set.of("max_wal_size", "min_wal_size", "wal_segment_size"));
        assertThat(c.differs()).containsExactly("pg_settings.synchronous_commit: off -> on");
        assertThat(c.verdict()).isEqualTo("not_comparable");
    }

    @Test
    void aFileThatIsNoReportIsRefusedByName() {
        assertThatThrownBy(() -> SeriesFigures.of("x", JSON.readTree("{\"series\":\"s\"}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no 'verdict' field");
        assertThatThrownBy(() -> SeriesFigures.of("x", JSON.readTree("[1,2]")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a JSON object");
    }

    private SeriesFigures replayed(String name, String series) throws IOException {
        Path file = dir.resolve(name + ".jsonl.gz");
        try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream("/provoked/" + name + ".jsonl.gz"))) {
            Files.copy(in, file);
        }
        Decision last = Analyzer.forSeries(series).replay(AnalyzerInput.fromWireFile(file, new WireCodec(), f -> {
            throw new AssertionError(f.deadLetter().reason());
        })).blockLast(Duration.ofSeconds(60));
        assertThat(last).isInstanceOf(Decision.Series.class);
        JsonNode report = JSON.readTree(ReportFiles.json(((Decision.Series) last).report()));
        return SeriesFigures.of(name, report);
    }

    private String resource(String name) throws IOException {
        try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream(name), name)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
