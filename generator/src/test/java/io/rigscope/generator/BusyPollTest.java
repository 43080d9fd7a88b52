package io.rigscope.generator;

import io.rigscope.generator.http.ClientLoops;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.generator.target.ThreadCpu;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code busyPoll}: while a run lasts its client loops poll without blocking; once it has ended they block again
 * (their owner keeps them for several runs, so a loop left spinning would burn a core until it closes them).
 */
@Tag("it")
class BusyPollTest {

    @Test
    void aBusyPolledRunCountsLikeAnyOtherAndItsLoopsGoQuietAfterwards() {
        try (TestServer server = new TestServer(); ClientLoops loops = ClientLoops.open(1)) {
            List<WireRecord> records = new CopyOnWriteArrayList<>();
            GeneratorOptions options = GeneratorOptions.defaults().withClientLoops(loops).withBusyPoll(true);
            // an in-flight cap no run can reach: on a loaded machine (other builds on the 2 cores) answers slow
            // down and a cap of 16 dropped a third of the requests, which is the cap working, not this test's subject
            Scenario probe = new Scenario("probe", "GET", URI.create(server.url("/probe")), Map.of(), 500, 500,
                    Duration.ofSeconds(5), null);

            long loopCpuBefore = loopCpuNanos();
            long wallBefore = System.nanoTime();
            RunSummary summary = new Generator(records::add, options)
                    .run(new LoadPlan("busy-1", 0, "gen-1", null, LoopMode.OPEN, Duration.ofSeconds(1), List.of(probe), null))
                    .block(Duration.ofSeconds(30));
            double busyShare = (double) (loopCpuNanos() - loopCpuBefore) / (System.nanoTime() - wallBefore);

            ScenarioSummary s = summary.scenario("probe");
            assertThat(s.scheduled()).isEqualTo(500);
            assertThat(s.sent()).isEqualTo(500);
            assertThat(s.completed()).isEqualTo(500);
            assertThat(s.failed()).isZero();
            assertThat(records.stream().filter(r -> r instanceof SampleBatch).mapToInt(r -> ((SampleBatch) r).samples().size())
                    .sum()).isEqualTo(500);
            assertThat(records.stream().filter(r -> r instanceof Ledger).mapToLong(r -> ((Ledger) r).scheduled()).sum())
                    .isEqualTo(500);
            // 500 req/s costs a blocking loop a few % of a core; polling it spends most of the run's wall time on a
            // quiet machine (0.3 and more), still well above a blocking loop's share when other work shares the cores
            assertThat(busyShare).as("loop CPU share of the run's wall time").isGreaterThan(0.1);

            long quietBefore = loopCpuNanos();
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            long quietCpu = loopCpuNanos() - quietBefore;
            assertThat(quietCpu).as("loop CPU in 500 ms after the run").isLessThan(Duration.ofMillis(100).toNanos());
        }
    }

    /** CPU time of the generator's client loop threads ({@code rig-gen-http-*}). */
    private static long loopCpuNanos() {
        return ThreadCpu.cpuNanosOfThreadsNamed("rig-gen-http");
    }
}
