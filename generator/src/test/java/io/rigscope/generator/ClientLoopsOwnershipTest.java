package io.rigscope.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.generator.http.ClientLoops;
import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The client loops belong to whoever runs the generator: runs given them leave them running for the next run, and
 * only their owner's close ends them. And the stop signal is composed with the run, so its failure reaches the
 * caller instead of being dropped.
 */
@Tag("it")
class ClientLoopsOwnershipTest {

    private static LoadPlan plan(String series, TestServer server, Duration duration) {
        Scenario probe = new Scenario("probe", "GET", URI.create(server.url("/probe")), Map.of(), 200, 64,
                Duration.ofSeconds(5), null);
        return new LoadPlan(series, 0, "gen-1", null, LoopMode.OPEN, duration, List.of(probe), null);
    }

    @Test
    void runsLeaveTheCallersLoopsRunningUntilTheCallerClosesThem() {
        try (TestServer server = new TestServer()) {
            ClientLoops loops = ClientLoops.open(1);
            AtomicLong samples = new AtomicLong();
            RecordSink counting = r -> {
                if (r instanceof io.rigscope.model.wire.SampleBatch b) {
                    samples.addAndGet(b.samples().size());
                }
            };
            GeneratorOptions options = GeneratorOptions.defaults().withClientLoops(loops);
            for (int i = 0; i < 2; i++) {
                RunSummary summary = new Generator(counting, options).run(plan("own-" + i, server, Duration.ofMillis(500)))
                        .block(Duration.ofSeconds(30));
                assertThat(summary.scenario("probe").completed()).isEqualTo(100);
                assertThat(loops.group().isShuttingDown()).as("after run " + i).isFalse();
            }
            assertThat(samples.get()).isEqualTo(200);
            loops.close();
            assertThat(loops.group().isTerminated()).isTrue();
        }
    }

    @Test
    void loopsAndAnotherThreadCountAreRejected() {
        try (ClientLoops loops = ClientLoops.open(1)) {
            assertThatThrownBy(() -> GeneratorOptions.defaults().withClientLoops(loops).withIoThreads(2))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("ioThreads 2 differs from the client loops' 1 thread(s)");
        }
    }

    @Test
    void aStopSignalThatFailsFailsTheRunInsteadOfBeingDropped() {
        try (TestServer server = new TestServer(); ClientLoops loops = ClientLoops.open(1)) {
            Mono<Generator.Stop> failing = Mono.delay(Duration.ofMillis(200))
                    .then(Mono.error(new IllegalStateException("the stop signal's source failed")));
            assertThatThrownBy(() -> new Generator(r -> { }, GeneratorOptions.defaults().withClientLoops(loops))
                    .run(plan("stop-fails", server, Duration.ofSeconds(20)), failing)
                    .block(Duration.ofSeconds(30)))
                    .hasMessageContaining("the stop signal's source failed");
            // the cancelled run stops its schedule and ends on its own thread; let it, before its loops close
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (runThreadAlive() && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
            }
            assertThat(runThreadAlive()).as("the stopped run ended").isFalse();
        }
    }

    private static boolean runThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("rig-gen-run") && t.isAlive());
    }
}
