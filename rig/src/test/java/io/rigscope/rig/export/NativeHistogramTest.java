package io.rigscope.rig.export;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class NativeHistogramTest {

    @Test
    void aValueOnABoundaryBelongsToTheBucketItCloses() {
        assertThat(NativeHistogram.index(1.0)).isZero();
        assertThat(NativeHistogram.index(2.0)).isEqualTo(128);
        assertThat(NativeHistogram.index(0.5)).isEqualTo(-128);
        assertThat(NativeHistogram.index(Math.nextUp(1.0))).isEqualTo(1);
    }

    @Test
    void everyValueLiesInsideItsBucketsBounds() {
        for (double v = 1e-6; v < 100; v *= 1.0037) {
            int i = NativeHistogram.index(v);
            assertThat(v).isGreaterThan(NativeHistogram.upperBound(i - 1)).isLessThanOrEqualTo(NativeHistogram.upperBound(i));
        }
    }

    @Test
    void eachHdrBucketGoesToTheNativeBucketOfItsHighestEquivalentValueAndSpansSkipEmptyOnes() {
        Histogram h = new Histogram(3_600_000_000L, 3);
        h.recordValueWithCount(1_000_000, 3);
        h.recordValueWithCount(1_020_000, 2);
        h.recordValueWithCount(2_000_000, 4);
        h.recordValue(0);
        int a = NativeHistogram.index(h.highestEquivalentValue(1_000_000) / 1e6);
        int b = NativeHistogram.index(h.highestEquivalentValue(1_020_000) / 1e6);
        int c = NativeHistogram.index(h.highestEquivalentValue(2_000_000) / 1e6);
        assertThat(b - a).isGreaterThan(1);
        NativeHistogram n = NativeHistogram.ofMicros(h);
        assertThat(n.count()).isEqualTo(10);
        assertThat(n.zeroCount()).isEqualTo(1);
        assertThat(n.spanOffsets()).containsExactly(a, b - a - 1, c - b - 1);
        assertThat(n.spanLengths()).containsExactly(1, 1, 1);
        assertThat(n.deltas()).containsExactly(3, -1, 2);
    }
}
