package io.rigscope.analyzer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The exact permutation test against values counted by hand (every split of the pooled values enumerated). */
class ExactPermutationTestTest {

    @Test
    void threeASideCompletelySeparatedIsTheSmallestPossiblePOfOneTenth() {
        // C(6,3) = 20 splits; only {1,2,3}|{4,5,6} and its mirror reach |mean difference| 3
        ExactPermutationTest t = ExactPermutationTest.of(new double[] {1, 2, 3}, new double[] {4, 5, 6});
        assertThat(t.arrangements()).isEqualTo(20);
        assertThat(t.atLeastAsExtreme()).isEqualTo(2);
        assertThat(t.pValue()).isEqualTo(0.1);
        assertThat(t.meanA()).isEqualTo(2.0);
        assertThat(t.meanB()).isEqualTo(5.0);
    }

    @Test
    void oneOverlapAtThreeASideCountsFourSplitsOfTwenty() {
        // A {1,2,4} (sum 7), B {3,5,6} (sum 14): |diff| >= 7/3 when A's sum is <= 7 or >= 14:
        // {1,2,3}=6, {1,2,4}=7, {3,5,6}=14, {4,5,6}=15: 4 of 20
        ExactPermutationTest t = ExactPermutationTest.of(new double[] {1, 2, 4}, new double[] {3, 5, 6});
        assertThat(t.atLeastAsExtreme()).isEqualTo(4);
        assertThat(t.pValue()).isEqualTo(0.2);
    }

    @Test
    void twoASideCanNeverGoBelowOneThird() {
        ExactPermutationTest t = ExactPermutationTest.of(new double[] {1, 2}, new double[] {30, 40});
        assertThat(t.arrangements()).isEqualTo(6);
        assertThat(t.pValue()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(ExactPermutationTest.floor(2, 2)).isCloseTo(1.0 / 3, within(1e-12));
    }

    @Test
    void fourAndFiveASideReachTheirFloors() {
        assertThat(ExactPermutationTest.of(new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8}).pValue())
                .isCloseTo(2.0 / 70, within(1e-12));
        assertThat(ExactPermutationTest.of(new double[] {1, 2, 3, 4, 5}, new double[] {6, 7, 8, 9, 10}).pValue())
                .isCloseTo(2.0 / 252, within(1e-12));
        assertThat(ExactPermutationTest.floor(3, 3)).isCloseTo(0.1, within(1e-12));
        assertThat(ExactPermutationTest.floor(5, 5)).isCloseTo(2.0 / 252, within(1e-12));
        assertThat(ExactPermutationTest.floor(3, 4)).isCloseTo(1.0 / 35, within(1e-12));
    }

    @Test
    void identicalSamplesGiveOne() {
        ExactPermutationTest t = ExactPermutationTest.of(new double[] {0, 0, 0}, new double[] {0, 0, 0});
        assertThat(t.pValue()).isEqualTo(1.0);
    }

    @Test
    void unequalSizesEnumerateEveryChoiceOfTheSmallerGroup() {
        // A {10}, B {1,2,3}: C(4,1) = 4 splits; |mean B - mean A| for A = 10: 8; 3: |13/3 - 3| = 4/3; 2: 2; 1: 11/3 - 1
        ExactPermutationTest t = ExactPermutationTest.of(new double[] {10}, new double[] {1, 2, 3});
        assertThat(t.arrangements()).isEqualTo(4);
        assertThat(t.atLeastAsExtreme()).isEqualTo(1);
        assertThat(t.pValue()).isEqualTo(0.25);
    }

    @Test
    void anEmptySideIsRefused() {
        assertThatThrownBy(() -> ExactPermutationTest.of(new double[0], new double[] {1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one value");
    }
}
