package io.rigscope.analyzer.second;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyTest {

    /** A reused scratch buffer, left holding a larger encoding, gives each histogram the bytes a fresh buffer gives. */
    @Test
    void compressingThroughAReusedBufferGivesTheSameBytes() {
        SplittableRandom random = new SplittableRandom(7);
        ByteBuffer scratch = null;
        for (int n : new int[] {50_000, 1, 0, 3_000, 200_000, 17}) {
            Histogram h = Latency.newHistogram();
            for (int i = 0; i < n; i++) {
                Latency.record(h, random.nextLong(1, 2_000_000));
            }
            scratch = Latency.scratchFor(h, scratch);
            byte[] reused = Latency.compress(h, scratch);
            assertThat(reused).as("%d values", n).isEqualTo(Latency.compress(h));
            assertThat(Latency.decompress(reused)).isEqualTo(h);
        }
    }
}
