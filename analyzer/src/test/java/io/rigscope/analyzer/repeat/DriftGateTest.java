package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.RepeatSummary;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.analyzer.second.ScenarioSeconds;
import io.rigscope.analyzer.testing.ProvokedRecordings;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Sample;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drift gate over real closed seconds: 30 s at 100 req/s, thirds of 1,000 requests (p99: the 10th-slowest of
 * each), bound 1.5.
 */
class DriftGateTest {

    private static final long T = 1_764_460_800_000_000L;
    private static final FreezeRule RULE = new FreezeRule(150_000, 50_000, 0.10);

    @TempDir
    Path dir;

    @Test
    void aP99RatioThatAFewSlowRequestsMakeHoldsAndSaysItIsWithinChance() {
        // every request 2 ms but 8 of 20 ms in the first third (its p99 still 2 ms) and 12 of 4 ms in the last (p99
        // 4 ms): ratio 2.0. Against the first third's times x 1.5 the pooled p99 is 3 ms; above it 12 of the last
        // third and 8 of the first: 12 or more of the 20 among the last third's 1,000 of 2,000 is P = 0.25
        DriftRule.Thirds t = thirds(30, sec -> sec < 10 ? new long[] {8, 20_000} : sec >= 20 ? new long[] {12, 4_000}
                : new long[] {0, 0});

        GateResult g = new DriftGate(1.5).evaluate(facts(t));

        assertThat(t.first().count()).isEqualTo(1000);
        assertThat(g.pass()).isTrue();
        assertThat(g.value()).isEqualTo(2.0005); // 4.001 / 2.000: HdrHistogram's 3 digits
        assertThat(g.reason()).isEqualTo("within chance: last third p99 4.001 ms of 1000 requests, first third 2.000 ms "
                + "of 1000; above 3.000 ms (the p99 of both, the first third's times x 1.5): 12 of the last third, 8 of "
                + "the first: p = 0.2506 (one-sided quantile test; shown at p <= 0.05)");
    }

    @Test
    void aTailThatMovedForManyRequestsFailsWithTheEvidence() {
        // last third: 30 requests of 10 ms; first: 4 of 3 ms. The pooled p99 falls among the 30 equal times: counted
        // at or above it, 30 of the last third, none of the first
        DriftRule.Thirds t = thirds(30, sec -> sec < 10 ? new long[] {4, 3_000} : sec >= 20 ? new long[] {30, 10_000}
                : new long[] {0, 0});

        GateResult g = new DriftGate(1.5).evaluate(facts(t));

        assertThat(g.pass()).isFalse();
        assertThat(g.reason()).isEqualTo("last third p99 10.007 ms of 1000 requests, first third 2.000 ms of 1000; "
                + "at or above 10.007 ms (the p99 of both, the first third's times x 1.5): 30 of the last third, 0 of "
                + "the first: p = 7.5e-10 (one-sided quantile test; shown at p <= 0.05)");
        assertThat(g.describe()).startsWith("drift (5.0035 vs 1.5): last third p99");
    }

    @Test
    void aRatioWithinTheBoundNeedsNoTestAndNoReason() {
        DriftRule.Thirds t = thirds(30, sec -> new long[] {0, 0});

        GateResult g = new DriftGate(1.5).evaluate(facts(t));

        assertThat(g).isEqualTo(new GateResult("drift", true, 1.0, 1.5));
    }

    @Test
    void aStationaryServiceFailsTheGateAtMostAsOftenAsTheTestsLevel() {
        // 400 seeded repeats of one service, every request's time drawn alike (2 ms plus an exponential tail of mean
        // 1 ms, and 1 request in 80 slow: 3 to 40 ms more): a ratio above 1.5 happens by chance in about 1 repeat of
        // 5; the gate fails at most 1 in 20 (the test's level), and here far fewer
        Random rnd = new Random(11);
        int above = 0;
        int failed = 0;
        for (int rep = 0; rep < 400; rep++) {
            ScenarioSeconds s = new ScenarioSeconds("ingest", new ArrayDeque<>());
            for (int sec = 0; sec < 30; sec++) {
                for (int i = 0; i < 100; i++) {
                    long us = 2_000 + (long) (-1_000 * Math.log(1 - rnd.nextDouble()))
                            + (rnd.nextInt(80) == 0 ? 3_000 + rnd.nextInt(37_000) : 0);
                    record(s, sec, i, us);
                }
            }
            s.closeAll(RULE);
            DriftRule.Thirds t = DriftRule.thirds(s);
            above += t.ratio() > 1.5 ? 1 : 0;
            failed += new DriftGate(1.5).evaluate(facts(t)).pass() ? 0 : 1;
        }
        assertThat(above).as("ratios above 1.5 by chance").isGreaterThan(40);
        assertThat(failed).as("failed gates of " + above + " ratios above 1.5").isLessThanOrEqualTo(20);
    }

    @Test
    void recordedRunsAWalPoolFreezeFailsItAHostsNoiseDoesNot() throws IOException {
        // the wal-pool provocation's freezes came in its last third: 24 of the slowest 24 there, it fails
        RepeatSummary walPool = ProvokedRecordings.replay(dir, "wal-pool", "cal-wal-pool-20261130-193420").repeats().get(1);
        GateResult g = walPool.gates().get("drift");
        assertThat(g.pass()).isFalse();
        assertThat(g.value()).isEqualTo(8.0816);
        assertThat(g.reason()).endsWith("24 of the last third, 0 of the first: p = 2.2e-09 (one-sided quantile test; "
                + "shown at p <= 0.05)");

        // nothing provoked, a host loaded by other work: a p99 ratio of 1.72 of ~500 requests a third, 6 against 4
        RepeatSummary loaded = ProvokedRecordings.replay(dir, "clean-loaded-host", "cal-clean-20261201-220925").repeats().get(1);
        GateResult h = loaded.gates().get("drift");
        assertThat(h.pass()).isTrue();
        assertThat(h.value()).isEqualTo(1.7233);
        assertThat(h.reason()).isEqualTo("within chance: last third p99 2015.231 ms of 499 requests, first third "
                + "1169.407 ms of 530; above 1923.071 ms (the p99 of both, the first third's times x 1.5): 6 of the "
                + "last third, 4 of the first: p = 0.3397 (one-sided quantile test; shown at p <= 0.05)");
        assertThat(loaded.heldGatesWithReason()).containsExactly(h);
    }

    @Test
    void anUnmeasurableDriftFails() {
        assertThat(new DriftGate(1.5).evaluate(facts(null))).isEqualTo(new GateResult("drift", false, null, 1.5));
    }

    /** {@code seconds} seconds of 100 requests of 2 ms; per second {slow count, slow µs} replace the first ones. */
    private static DriftRule.Thirds thirds(int seconds, IntFunction<long[]> slow) {
        ScenarioSeconds s = new ScenarioSeconds("ingest", new ArrayDeque<>());
        for (int sec = 0; sec < seconds; sec++) {
            long[] sl = slow.apply(sec);
            // the slow requests of a third are spread over its seconds: second i of the third takes its share
            int third = seconds / 3;
            int index = sec % third;
            long share = sl[0] / third + (index < sl[0] % third ? 1 : 0);
            for (int i = 0; i < 100; i++) {
                record(s, sec, i, i < share ? sl[1] : 2_000);
            }
        }
        s.closeAll(RULE);
        return DriftRule.thirds(s);
    }

    /** Request {@code i} of second {@code sec}, of {@code serviceUs}, ending inside its second. */
    private static void record(ScenarioSeconds s, int sec, int i, long serviceUs) {
        long t0 = T + sec * 1_000_000L + i * 10_000L;
        long t2 = Math.min(t0 + serviceUs, T + sec * 1_000_000L + 999_999);
        long t1 = t2 - serviceUs;
        s.record("gen-1", new Sample("ingest", t1, t1, t2, 201, ErrorKind.NONE, 10, 100, 512), 50_000);
    }

    private static RepeatFacts facts(DriftRule.Thirds t) {
        return new RepeatFacts(RepeatSummary.Kind.SUSTAINED, null, name -> null, 3000, 3000, 3000, 0, 0, 30, t, -1,
                new RepeatFacts.Claim(0, 0), null, List.of(), List.of(), null);
    }
}
