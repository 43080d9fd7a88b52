package io.rigscope.generator.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ArrivalScheduleTest {

    @Test
    void intendedStartsAreAbsoluteOffsetsWithoutAccumulatedDrift() {
        ArrivalSchedule s = ArrivalSchedule.constantRate(20_000);
        assertThat(s.offsetNanos(0)).isZero();
        assertThat(s.offsetNanos(1)).isEqualTo(50_000);
        assertThat(s.offsetNanos(1_000_000)).isEqualTo(50_000_000_000L);
        ArrivalSchedule third = ArrivalSchedule.constantRate(3);
        assertThat(third.offsetNanos(3_000_000)).isEqualTo(1_000_000_000_000_000L);
        assertThat(third.offsetNanos(1)).isEqualTo(333_333_333L);
    }

    @Test
    void theCountWithinADurationIsEveryRequestDueBeforeItsEnd() {
        assertThat(ArrivalSchedule.constantRate(200).countWithin(Duration.ofSeconds(3))).isEqualTo(600);
        assertThat(ArrivalSchedule.constantRate(3).countWithin(Duration.ofSeconds(1))).isEqualTo(3);
        assertThat(ArrivalSchedule.constantRate(0.5).countWithin(Duration.ofSeconds(3))).isEqualTo(2);
    }
}
