package io.rigscope.generator.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.generator.schedule.Share;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The defaults that follow a plan's rate: the in-flight cap covers 25 ms of it, a client loop per 50,000 req/s. */
class DefaultSizingTest {

    @Test
    void theCapCoversTwentyFiveMillisecondsOfTheRateAndNeverFallsBelow256() {
        assertThat(DefaultSizing.maxInFlight(0)).isEqualTo(256);
        assertThat(DefaultSizing.maxInFlight(1_000)).isEqualTo(256);
        assertThat(DefaultSizing.maxInFlight(10_240)).isEqualTo(256);
        assertThat(DefaultSizing.maxInFlight(10_241)).isEqualTo(257);
        assertThat(DefaultSizing.maxInFlight(20_000)).isEqualTo(500);
        assertThat(DefaultSizing.maxInFlight(40_000)).isEqualTo(1_000);
        assertThat(DefaultSizing.maxInFlight(60_000)).isEqualTo(1_500);
    }

    @Test
    void aStallOfTwentyFiveMillisecondsFitsUnderTheCapAtAnyRate() {
        for (double rate : new double[] {500, 12_000, 33_333, 40_000, 100_000, 250_000}) {
            double stalled = rate * 0.025; // requests due while no reply comes back
            assertThat(DefaultSizing.maxInFlight(rate)).as("%s req/s", rate).isGreaterThanOrEqualTo((int) stalled);
        }
    }

    @Test
    void oneClientLoopServesUpTo50000RequestsASecondAndNeverMoreLoopsThanCores() {
        assertThat(DefaultSizing.clientLoops(0, 2)).isEqualTo(1);
        assertThat(DefaultSizing.clientLoops(20_000, 2)).isEqualTo(1);
        assertThat(DefaultSizing.clientLoops(50_000, 2)).isEqualTo(1);
        assertThat(DefaultSizing.clientLoops(50_001, 2)).isEqualTo(2);
        assertThat(DefaultSizing.clientLoops(200_000, 2)).isEqualTo(2);
        assertThat(DefaultSizing.clientLoops(200_000, 8)).isEqualTo(4);
        assertThat(DefaultSizing.clientLoops(20_000, 1)).isEqualTo(1);
    }

    @Test
    void aPlansLoopsFollowItsScenariosAddedRateDividedAmongItsShares() {
        LoadPlan plan = plan(LoopMode.OPEN, 40_000, 20_000);
        assertThat(DefaultSizing.clientLoops(plan, 4)).isEqualTo(2);
        assertThat(DefaultSizing.clientLoops(plan.withShare(new Share(1, 2)), 4)).isEqualTo(1);
    }

    @Test
    void aClosedLoopTakesEveryCore() {
        assertThat(DefaultSizing.clientLoops(plan(LoopMode.CLOSED, 1, 1), 4)).isEqualTo(4);
    }

    @Test
    void nonsenseRatesAndCoresAreRefused() {
        assertThatThrownBy(() -> DefaultSizing.maxInFlight(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DefaultSizing.maxInFlight(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DefaultSizing.clientLoops(1_000, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static LoadPlan plan(LoopMode mode, double... rates) {
        List<Scenario> scenarios = new java.util.ArrayList<>();
        for (int i = 0; i < rates.length; i++) {
            scenarios.add(new Scenario("s" + i, "GET", URI.create("http://127.0.0.1:9/"), Map.of(), rates[i], 16,
                    Duration.ofSeconds(1), null));
        }
        return new LoadPlan("series", 0, "gen-1", null, mode, Duration.ofSeconds(1), scenarios, null);
    }
}
