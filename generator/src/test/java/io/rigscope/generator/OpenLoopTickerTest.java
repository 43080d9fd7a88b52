package io.rigscope.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.generator.schedule.ArrivalSchedule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The wake policy on a clock of the test's own: each wake happens where the ticker asked for it, plus a
 * deterministic timer jitter of up to {@code jitterNanos} (what the host's timer adds), so every figure is exact.
 */
class OpenLoopTickerTest {

    private static final long START_NANOS = 1_000_000_000L;

    /** What one simulated lane did: the send lag of every request and how many wakes it took. */
    private record Run(List<Long> lagsNanos, long wakes) {
        long maxLagNanos() {
            return lagsNanos.stream().mapToLong(Long::longValue).max().orElseThrow();
        }

        long minLagNanos() {
            return lagsNanos.stream().mapToLong(Long::longValue).min().orElseThrow();
        }

        double wakesPerRequest() {
            return (double) wakes / lagsNanos.size();
        }
    }

    /**
     * Runs a lane of a {@code rate} schedule for {@code durationNanos}: wakes where the ticker asks, each late by a
     * pseudo-random 0..jitterNanos (a fixed seed), and records every request's lag (the clock at its start minus
     * its intended start).
     */
    private static Run simulate(double rate, long durationNanos, long maxSendLagNanos, long minWakeGapNanos,
                                long jitterNanos) {
        OpenLoopTicker ticker = new OpenLoopTicker(ArrivalSchedule.constantRate(rate), START_NANOS,
                START_NANOS + durationNanos, 0, 1, minWakeGapNanos, maxSendLagNanos);
        long[] now = {START_NANOS};
        List<Long> lags = new ArrayList<>();
        long seed = 42;
        long wakes = 0;
        while (true) {
            wakes++;
            boolean more = ticker.tick(() -> now[0], () -> false, (seq, t0) -> lags.add(now[0] - t0));
            if (!more) {
                return new Run(lags, wakes);
            }
            assertThat(ticker.wakeAtNanos()).as("a wake is never asked for before the next request is due")
                    .isGreaterThanOrEqualTo(ticker.nextDueNanos());
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            long jitter = jitterNanos == 0 ? 0 : Math.floorMod(seed >>> 17, jitterNanos + 1);
            now[0] = ticker.wakeAtNanos() + jitter;
        }
    }

    @Test
    void theAdaptivePolicyNeverSendsARequestBeforeItsIntendedStart() {
        for (double rate : new double[] {100, 5_000, 20_000, 40_000, 100_000, 333_333}) {
            for (long jitter : new long[] {0, 30_000, 400_000}) {
                Run run = simulate(rate, 200_000_000L, 100_000, 0, jitter);
                assertThat(run.minLagNanos()).as("rate %s, jitter %d ns", rate, jitter).isGreaterThanOrEqualTo(0);
            }
        }
    }

    @Test
    void theAdaptivePolicyNeverExceedsItsLagBudgetBeyondTheTimersJitter() {
        for (long budget : new long[] {25_000, 100_000, 1_000_000}) {
            for (double rate : new double[] {100, 5_000, 20_000, 40_000, 100_000, 333_333}) {
                for (long jitter : new long[] {0, 30_000, 400_000}) {
                    Run run = simulate(rate, 200_000_000L, budget, 0, jitter);
                    assertThat(run.maxLagNanos()).as("budget %d ns, rate %s, jitter %d ns", budget, rate, jitter)
                            .isLessThanOrEqualTo(budget + jitter);
                }
            }
        }
    }

    @Test
    void onAnExactTimerTheAdaptivePolicySpendsItsWholeBudgetOnlyWhereItSavesAWake() {
        // 40,000 req/s, 100 µs: the requests at 0, 25, 50, 75 and 100 µs of each window go out in one wake
        Run fast = simulate(40_000, 100_000_000L, 100_000, 0, 0);
        assertThat(fast.maxLagNanos()).isEqualTo(100_000);
        assertThat(fast.wakesPerRequest()).isCloseTo(0.2, org.assertj.core.data.Offset.offset(0.001));
        // 5,000 req/s: one request per 200 µs, never two in a budget, so each is sent on time by its own wake
        Run slow = simulate(5_000, 100_000_000L, 100_000, 0, 0);
        assertThat(slow.maxLagNanos()).isZero();
        assertThat(slow.wakes()).isEqualTo(slow.lagsNanos().size());
    }

    @Test
    void thePreciseWakePolicyIsOneWakePerRequestAtItsIntendedStart() {
        for (double rate : new double[] {100, 5_000, 40_000, 100_000}) {
            Run run = simulate(rate, 100_000_000L, 0, 0, 0);
            assertThat(run.wakes()).as("rate %s", rate).isEqualTo(run.lagsNanos().size());
            assertThat(run.maxLagNanos()).isZero();
        }
    }

    @Test
    void aWakeLateByAPauseSendsEveryOverdueRequestAtOnceWithItsOwnIntendedStart() {
        ArrivalSchedule every100Us = ArrivalSchedule.constantRate(10_000);
        OpenLoopTicker ticker = new OpenLoopTicker(every100Us, START_NANOS, START_NANOS + 1_000_000_000L, 0, 1, 0,
                100_000);
        List<Long> starts = new ArrayList<>();
        long late = START_NANOS + 5_050_000L; // 5.05 ms late: requests 0..50 are overdue
        assertThat(ticker.tick(() -> late, () -> false, (seq, t0) -> starts.add(t0))).isTrue();
        assertThat(starts).hasSize(51);
        assertThat(starts.get(50) - starts.get(0)).isEqualTo(5_000_000L);
        assertThat(ticker.nextDueNanos()).isEqualTo(START_NANOS + 5_100_000L);
        // the next wake gathers the requests at 5.1 and 5.2 ms: the budget counts from the first one waiting
        assertThat(ticker.wakeAtNanos()).isEqualTo(START_NANOS + 5_200_000L);
        assertThat(ticker.batched()).isTrue();
    }

    @Test
    void aLaneOfSeveralGathersOnlyItsOwnRequests() {
        // two lanes at 40,000 req/s: this lane's requests are 50 µs apart, so a 100 µs budget gathers three
        OpenLoopTicker lane = new OpenLoopTicker(ArrivalSchedule.constantRate(40_000), START_NANOS,
                START_NANOS + 1_000_000L, 1, 2, 0, 100_000);
        List<Long> seqs = new ArrayList<>();
        assertThat(lane.tick(() -> START_NANOS, () -> false, (seq, t0) -> seqs.add(seq))).isTrue();
        assertThat(seqs).isEmpty();
        assertThat(lane.wakeAtNanos()).isEqualTo(START_NANOS + 125_000L);
        assertThat(lane.tick(() -> START_NANOS + 125_000L, () -> false, (seq, t0) -> seqs.add(seq))).isTrue();
        assertThat(seqs).containsExactly(1L, 3L, 5L);
    }
}
