package io.rigscope.analyzer.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.api.Decision;
import io.rigscope.analyzer.drift.DriftRule;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.repeat.RepeatSummary;
import io.rigscope.analyzer.repeat.RepeatTrack;
import io.rigscope.analyzer.second.ScenarioSeconds;
import io.rigscope.analyzer.series.SeriesReport;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drift gate over real closed seconds: 30 s at 100 req/s, thirds of 1,000 requests (p99: the 10th-slowest of
 * each; at 95 % it lies between the 18th-slowest and the 4th-slowest).
 */
class DriftGateTest {

    private static final long T = 1_764_460_800_000_000L;
    private static final FreezeRule RULE = new FreezeRule(150_000, 50_000, 0.10);

    @TempDir
    Path dir;

    @Test
    void aP99RatioThatAHandfulOfSlowRequestsMakesHoldsAndSaysItIsWithinChance() {
        // first third: 4 requests of 20 ms, the rest 2 ms (p99 2 ms, at most 20 ms); last third: 12 of 4 ms
        // (p99 4 ms, at least 2 ms): ratio 2.0, but at 95 % the drift is at least 0.1 (2 / 20)
        DriftRule.Thirds t = thirds(30, sec -> sec < 10 ? new long[] {4, 20_000} : sec >= 20 ? new long[] {12, 4_000}
                : new long[] {0, 0});

        GateResult g = new DriftGate(1.5).evaluate(facts(t));

        assertThat(t.first().count()).isEqualTo(1000);
        assertThat(g.pass()).isTrue();
        assertThat(g.value()).isEqualTo(2.0005); // 4.001 / 2.000: HdrHistogram's 3 digits
        assertThat(g.reason()).startsWith("within chance: last third p99 4.001 ms (at least 2.000) of 1000 requests,"
                + " first third 2.000 ms (at most 20.015) of 1000: at 95 % the drift is at least 0.0999");
    }

    @Test
    void aTailThatMovedForManyRequestsFailsWithTheEvidence() {
        // last third: 30 requests of 10 ms (p99 and its lower bound both 10 ms); first: 4 of 3 ms (at most 3 ms)
        DriftRule.Thirds t = thirds(30, sec -> sec < 10 ? new long[] {4, 3_000} : sec >= 20 ? new long[] {30, 10_000}
                : new long[] {0, 0});

        GateResult g = new DriftGate(1.5).evaluate(facts(t));

        assertThat(g.pass()).isFalse();
        assertThat(t.shown()).isGreaterThan(3.0);
        assertThat(g.reason()).startsWith("last third p99 10.007 ms (at least 10.007) of 1000 requests, first third "
                + "2.000 ms (at most 3.001) of 1000: at 95 % the drift is at least 3.3346");
        assertThat(g.describe()).startsWith("drift (5.0035 vs 1.5): last third p99");
    }

    @Test
    void aRatioWithinTheBoundNeedsNoReason() {
        DriftRule.Thirds t = thirds(30, sec -> new long[] {0, 0});

        GateResult g = new DriftGate(1.5).evaluate(facts(t));

        assertThat(g).isEqualTo(new GateResult("drift", true, 1.0, 1.5));
    }

    @Test
    void aFirstThirdTooSmallToBoundItsP99SaysSo() {
        // 9 s at 100 req/s: thirds of 300 requests; the first third's slowest request stands in for its bound
        DriftRule.Thirds t = thirds(9, sec -> sec < 3 ? new long[] {1, 2_500} : sec >= 6 ? new long[] {30, 10_000}
                : new long[] {0, 0});

        GateResult g = new DriftGate(1.5).evaluate(facts(t));

        assertThat(t.first().highBounded()).isFalse();
        assertThat(g.pass()).isFalse();
        assertThat(g.reason()).contains("(at most 2.501, its slowest request: too few to bound) of 300");
    }

    @Test
    void recordedRunsAWalPoolFreezeFailsItAHostsNoiseDoesNot() throws IOException {
        // the wal-pool provocation's freezes came in its last third: shown 5.86, it fails with its evidence
        RepeatSummary walPool = replay("wal-pool", "cal-wal-pool-20261130-193420").repeats().get(1);
        GateResult g = walPool.gates().get("drift");
        assertThat(g.pass()).isFalse();
        assertThat(g.value()).isEqualTo(8.0816);
        assertThat(g.reason()).endsWith("at 95 % the drift is at least 5.8633");

        // nothing provoked, a host loaded by other work: a p99 ratio of 1.72 of ~500 requests a third, shown 1.05
        RepeatSummary loaded = replay("clean-loaded-host", "cal-clean-20261201-220925").repeats().get(1);
        GateResult h = loaded.gates().get("drift");
        assertThat(h.pass()).isTrue();
        assertThat(h.value()).isEqualTo(1.7233);
        assertThat(h.reason()).isEqualTo("within chance: last third p99 2015.231 ms (at least 1840.127) of 499 "
                + "requests, first third 1169.407 ms (at most 1747.967) of 530: at 95 % the drift is at least 1.0527");
        assertThat(loaded.heldGatesWithReason()).containsExactly(h);
    }

    @Test
    void anUnmeasurableDriftFails() {
        assertThat(new DriftGate(1.5).evaluate(facts(null))).isEqualTo(new GateResult("drift", false, null, 1.5));
    }

    /** {@code seconds} seconds of 100 requests of 2 ms; per second {slow count, slow µs} replace the first ones. */
    private static DriftRule.Thirds thirds(int seconds, java.util.function.IntFunction<long[]> slow) {
        ScenarioSeconds s = new ScenarioSeconds("ingest", new ArrayDeque<>());
        for (int sec = 0; sec < seconds; sec++) {
            long[] sl = slow.apply(sec);
            // the slow requests of a third are spread over its seconds: second i of the third takes its share
            int third = seconds / 3;
            int index = sec % third;
            long share = sl[0] / third + (index < sl[0] % third ? 1 : 0);
            for (int i = 0; i < 100; i++) {
                long t0 = T + sec * 1_000_000L + i * 10_000L;
                long serviceUs = i < share ? sl[1] : 2_000;
                long t2 = Math.min(t0 + serviceUs, T + sec * 1_000_000L + 999_999);
                long t1 = t2 - serviceUs;
                s.record("gen-1", new Sample("ingest", t1, t1, t2, 201, ErrorKind.NONE, 10, 100, 512), 50_000);
            }
        }
        s.closeAll(RULE);
        return DriftRule.thirds(s);
    }

    private SeriesReport replay(String name, String series) throws IOException {
        Path file = dir.resolve(name + ".jsonl.gz");
        try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream("/provoked/" + name + ".jsonl.gz"))) {
            Files.copy(in, file);
        }
        Decision last = Analyzer.forSeries(series).replay(AnalyzerInput.fromWireFile(file, new WireCodec(), f -> {
            throw new AssertionError("dead letter in the recording: " + f.deadLetter().reason());
        })).blockLast(Duration.ofSeconds(60));
        assertThat(last).isInstanceOf(Decision.Series.class);
        return ((Decision.Series) last).report();
    }

    private static RepeatFacts facts(DriftRule.Thirds t) {
        return new RepeatFacts(RepeatTrack.Kind.SUSTAINED, null, name -> null, 3000, 3000, 3000, 0, 0, 30, t, -1,
                new RepeatFacts.Claim(0, 0), null, List.of(), List.of(), null);
    }
}
