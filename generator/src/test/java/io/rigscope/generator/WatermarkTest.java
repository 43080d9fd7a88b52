package io.rigscope.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.generator.plan.BodyTemplate;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The ledger is the watermark: in the order records reach the sink, the ledger of (scenario, second S) comes
 * after every sample of that scenario that ended in S, and no such sample comes after it.
 */
@Tag("it")
class WatermarkTest {

    @Test
    void everyLedgerFollowsAllSamplesThatEndedInItsSecondAndCountsThemExactly() {
        for (LoopMode mode : LoopMode.values()) {
            try (TestServer server = new TestServer()) {
                server.behaviour = TestServer.Behaviour.JITTER;
                List<WireRecord> sunk = new CopyOnWriteArrayList<>();
                Scenario ingest = new Scenario("ingest", "POST", URI.create(server.url("/v1/usage-events")), Map.of(),
                        300, mode == LoopMode.OPEN ? 256 : 8, Duration.ofSeconds(5), BodyTemplate.usageEvents(2, "m"));
                Scenario probe = new Scenario("probe", "GET", URI.create(server.url("/probe")), Map.of(), 7, 4,
                        Duration.ofSeconds(5), null);
                RunSummary summary = new Generator(sunk::add, GeneratorOptions.defaults())
                        .run(new LoadPlan("wm-" + mode, 0, "gen-1", null, mode, Duration.ofMillis(2500),
                                List.of(ingest, probe), null))
                        .block(Duration.ofSeconds(60));

                Map<String, Map<Long, Integer>> endedSoFar = new HashMap<>();
                Set<String> closed = new HashSet<>();
                Map<String, Integer> lastFlags = new HashMap<>();
                long samples = 0;
                for (WireRecord r : sunk) {
                    if (r instanceof SampleBatch b) {
                        for (Sample s : b.samples()) {
                            long sec = Math.floorDiv(s.t2(), 1_000_000L);
                            assertThat(closed).as(mode + ": sample ended in a second already closed")
                                    .doesNotContain(s.scenario() + "@" + sec);
                            endedSoFar.computeIfAbsent(s.scenario(), k -> new HashMap<>()).merge(sec, 1, Integer::sum);
                            samples++;
                        }
                    } else if (r instanceof Ledger l) {
                        closed.add(l.scenario() + "@" + l.sec());
                        int seen = endedSoFar.getOrDefault(l.scenario(), Map.of()).getOrDefault(l.sec(), 0);
                        assertThat(l.completed()).as(mode + " " + l).isEqualTo(seen);
                        if (l.last()) {
                            lastFlags.merge(l.scenario(), 1, Integer::sum);
                        }
                    }
                }
                assertThat(lastFlags).as(mode.label()).containsEntry("ingest", 1).containsEntry("probe", 1);
                assertThat(samples).isEqualTo(summary.scenario("ingest").completed() + summary.scenario("probe").completed());
            }
        }
    }
}
