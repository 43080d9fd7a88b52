package io.rigscope.analyzer.compare;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * compare's tie rule on p99 (docs/compare.md, "Ties"). The six arm reports of the vacuum-storm experiment of
 * 2026-12-02 10:57 UTC (src/test/resources/compare/vacuum-storm, docs/experiment.md) are the case that made it: every
 * arm's p99 was the 5-s request timeout, 5,009.407 ms in the control and 5,005.311 ms in the treatment, two adjacent
 * buckets of the latency histogram, and the old rule read that as a complete separation, {@code better} at p = 0.1.
 */
class P99TiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> TREATMENT = Set.of("autovacuum_vacuum_insert_scale_factor",
            "autovacuum_vacuum_cost_delay", "autovacuum_vacuum_cost_limit");

    @Test
    void theHistogramBucketWidthIsTheResolution() {
        assertThat(P99Ties.bucketWidthMs(5009.407)).isEqualTo(4.096);
        assertThat(P99Ties.bucketWidthMs(5005.311)).isEqualTo(4.096);
        assertThat(P99Ties.bucketWidthMs(1.5)).isEqualTo(0.001);
        assertThat(P99Ties.bucketWidthMs(100.351)).isEqualTo(0.064);
    }

    @Test
    void theVacuumStormArmsAllPinnedAtTheTimeoutGiveNoP99VerdictAndRestOnFreezeSeconds() throws IOException {
        SeriesFigures a = side("control", "A1", "A2", "A3");
        SeriesFigures b = side("treatment", "B1", "B2", "B3");
        assertThat(a.repeats()).extracting(SeriesFigures.Repeat::p99Ms).containsExactly(5009.407, 5009.407, 5009.407);
        assertThat(b.repeats()).extracting(SeriesFigures.Repeat::p99Ms).containsExactly(5005.311, 5005.311, 5005.311);
        assertThat(a.repeats()).extracting(SeriesFigures.Repeat::timedOut).containsExactly(374L, 256L, 256L);
        assertThat(a.repeats()).allSatisfy(r -> assertThat(P99Ties.pinned(r)).isTrue());
        assertThat(b.repeats()).allSatisfy(r -> assertThat(P99Ties.pinned(r)).isTrue());

        // the old rule: the raw values, three against three completely separated
        assertThat(ExactPermutationTest.of(new double[] {5009.407, 5009.407, 5009.407},
                new double[] {5005.311, 5005.311, 5005.311}).pValue()).isEqualTo(0.1);

        Comparison c = Comparison.of(a, b, false, TREATMENT);
        assertThat(c.differs()).isEmpty();
        assertThat(c.p99PinnedAtTimeout()).isTrue();
        assertThat(c.p99Ties().a()).containsExactly(5005.311, 5005.311, 5005.311);
        assertThat(c.p99Ties().b()).containsExactly(5005.311, 5005.311, 5005.311);
        assertThat(c.p99().pValue()).isEqualTo(1.0);
        // freeze-seconds A {47, 14, 10}, B {8, 11, 14}: p = 10/20
        assertThat(c.freezeSeconds().pValue()).isEqualTo(0.5);
        assertThat(c.verdict()).isEqualTo("no_difference");
        assertThat(c.why()).contains("p99 pinned at the request timeout in every repeat of both sides");
        assertThat(c.lines()).anyMatch(l -> l.startsWith("p99: pinned_at_timeout"));
        @SuppressWarnings("unchecked")
        Map<String, Object> p99 = (Map<String, Object>) c.toJson().get("p99");
        assertThat(p99).containsEntry("pinned_at_timeout", true).containsEntry("p_value", 1.0);
    }

    @Test
    void valuesInAdjacentBucketsAreTiedWithoutAnyTimeout() {
        SeriesFigures a = synthetic(new double[] {5009.407, 5009.407, 5009.407}, 0);
        SeriesFigures b = synthetic(new double[] {5005.311, 5005.311, 5005.311}, 0);
        Comparison c = Comparison.of(a, b, false, Set.of());
        assertThat(c.p99PinnedAtTimeout()).isFalse();
        assertThat(c.p99().pValue()).isEqualTo(1.0);
        assertThat(c.verdict()).isEqualTo("no_difference");
        assertThat(c.p99Ties().ties()).singleElement().asString().contains("within the histogram's resolution (4.096 ms");
    }

    @Test
    void valuesTwoBucketsApartStillDiffer() {
        // 4.096 ms buckets at 5 s: 5,013.503 is two widths above 5,005.311, beyond the band
        SeriesFigures a = synthetic(new double[] {5013.503, 5013.503, 5013.503}, 0);
        SeriesFigures b = synthetic(new double[] {5005.311, 5005.311, 5005.311}, 0);
        Comparison c = Comparison.of(a, b, false, Set.of());
        assertThat(c.p99Ties().ties()).isEmpty();
        assertThat(c.p99().pValue()).isEqualTo(0.1);
        assertThat(c.verdict()).isEqualTo("better");
    }

    @Test
    void aSidePinnedAtTheTimeoutAgainstOneBelowItIsARealDifference() {
        SeriesFigures a = synthetic(new double[] {5009.407, 5013.503, 5005.311}, 50);
        SeriesFigures b = synthetic(new double[] {300.031, 412.159, 351.999}, 0);
        Comparison c = Comparison.of(a, b, false, Set.of());
        assertThat(c.p99PinnedAtTimeout()).isFalse();
        assertThat(c.p99Ties().pinnedA()).isEqualTo(3);
        assertThat(c.p99Ties().a()).containsExactly(5005.311, 5005.311, 5005.311);
        assertThat(c.p99().pValue()).isEqualTo(0.1);
        assertThat(c.verdict()).isEqualTo("better");
    }

    @Test
    void oneTimedOutRequestInAHundredDoesNotPinButTwoDo() {
        SeriesFigures.Repeat one = new SeriesFigures.Repeat(1, false, 5, 900, 0, Map.of(), null, 0, 100, 1);
        SeriesFigures.Repeat two = new SeriesFigures.Repeat(1, false, 5, 5005.311, 0, Map.of(), null, 0, 100, 2);
        assertThat(P99Ties.pinned(one)).isFalse();
        assertThat(P99Ties.pinned(two)).isTrue();
    }

    private static SeriesFigures synthetic(double[] p99, long timedOutPer1000) {
        List<SeriesFigures.Repeat> reps = new ArrayList<>();
        for (int i = 0; i < p99.length; i++) {
            reps.add(new SeriesFigures.Repeat(i + 1, false, 5, p99[i], 0, Map.of(), null, 0, 1000, timedOutPer1000));
        }
        return new SeriesFigures("synthetic", "s", "FAIL", "", reps, List.of(), Map.of("hostname", "h"));
    }

    /** A side of arm reports as the experiment puts it together: each arm's judged repeat, renumbered by arm. */
    private SeriesFigures side(String name, String... arms) throws IOException {
        List<SeriesFigures.Repeat> reps = new ArrayList<>();
        SeriesFigures first = null;
        for (String arm : arms) {
            SeriesFigures f = SeriesFigures.of(arm, JSON.readTree(resource("/compare/vacuum-storm/" + arm
                    + ".report.json")));
            first = first == null ? f : first;
            f.repeats().forEach(r -> reps.add(r.renumbered(reps.size() + 1)));
        }
        return new SeriesFigures(name, name, "FAIL", "", reps, List.of(), first.environment());
    }

    private String resource(String name) throws IOException {
        try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream(name), name)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
