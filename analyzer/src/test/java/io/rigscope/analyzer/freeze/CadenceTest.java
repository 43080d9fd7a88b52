package io.rigscope.analyzer.freeze;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.RepeatSummary.Cadence;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The spacing of freeze-seconds and when it is a rhythm. */
class CadenceTest {

    @Test
    void theMostFrequentGapIsTheCadence() {
        Cadence c = FreezeRule.cadence(List.of(121L, 100L, 105L, 106L, 110L, 115L));

        assertThat(c.events()).containsExactly(100L, 105L, 110L, 115L, 121L);
        assertThat(c.gapsSec()).containsExactly(5L, 5L, 5L, 6L);
        assertThat(c.dominantPeriodSec()).isEqualTo(5L);
    }

    @Test
    void oneGapIsNoRhythm() {
        Cadence c = FreezeRule.cadence(List.of(100L, 114L));

        assertThat(c.gapsSec()).containsExactly(14L);
        assertThat(c.dominantPeriodSec()).isNull();
    }

    @Test
    void gapsThatNeverRepeatAreNoRhythm() {
        assertThat(FreezeRule.cadence(List.of(100L, 105L, 117L, 150L)).dominantPeriodSec()).isNull();
    }

    @Test
    void tiedGapsGiveTheSmallest() {
        // gaps 7, 9, 7, 9
        assertThat(FreezeRule.cadence(List.of(0L, 7L, 16L, 23L, 32L)).dominantPeriodSec()).isEqualTo(7L);
    }

    @Test
    void noFreezeNoCadence() {
        assertThat(FreezeRule.cadence(List.of()).dominantPeriodSec()).isNull();
        assertThat(FreezeRule.cadence(List.of(5L, 6L, 7L)).dominantPeriodSec()).isNull();
    }
}
