package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cache-out-of-RAM rule: reads climbing on DataFileRead. A test with a defining stream removed expects the cause
 * to degrade (only most likely, or unattributed), never to stay attributed.
 */
class CacheRamRuleTest extends AttributionFixture {

    @Test
    void readsClimbingOnDataFileReadIsTheCacheOutOfRam() {
        cleanControls();
        piWaits(Map.of("IO:DataFileRead", 14.0, "CPU", 4.0));
        emDisk(8.0, 40.0, 6.0);

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.CACHE_RAM);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
    }

    @Test
    void withoutHostStreamsTheCacheOutOfRamIsOnlyMostLikely() {
        cleanControls();
        piWaits(Map.of("IO:DataFileRead", 14.0, "CPU", 4.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.CACHE_RAM);
        assertThat(e.confidence()).isEqualTo(Confidence.MOST_LIKELY);
    }
}
