package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The lock-contention rule: most sessions on row locks. A test with a defining stream removed expects the cause to
 * degrade (only most likely, or unattributed), never to stay attributed.
 */
class LockContentionRuleTest extends AttributionFixture {

    @Test
    void mostSessionsOnRowLocksIsLockContention() {
        cleanControls();
        piWaits(Map.of("Lock:transactionid", 52.0, "LWLock:LockManager", 6.0, "CPU", 3.0));

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.LOCK_CONTENTION);
        assertThat(e.confidence()).isEqualTo(Confidence.ATTRIBUTED);
        assertThat(e.evidence()).anyMatch(ev -> ev.fact().startsWith("58.0 of 61.0 active sessions on locks"));
    }

    @Test
    void withoutTheWaitsLockContentionCannotBeNamed() {
        cleanControls();

        Episode e = attribute();
        assertThat(e.cause()).isEqualTo(Cause.UNATTRIBUTED);
        assertThat(e.confidence()).isEqualTo(Confidence.UNATTRIBUTED);
        assertThat(e.missing()).contains("rig.waits");
    }
}
