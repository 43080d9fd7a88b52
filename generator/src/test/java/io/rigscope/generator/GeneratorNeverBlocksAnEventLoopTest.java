package io.rigscope.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.generator.plan.BodyTemplate;
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
import reactor.core.scheduler.Schedulers;

/** With BlockHound installed (by {@link BlockHoundSession}, for every test of this module), a whole open- and closed-loop run raises no blocking call on a non-blocking thread. */
@Tag("it")
class GeneratorNeverBlocksAnEventLoopTest {

    @Test
    void blockHoundIsActiveAndRejectsASleepOnANonBlockingThread() {
        assertThatThrownBy(() -> Mono.fromCallable(() -> {
            Thread.sleep(1);
            return 1;
        }).subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(5))).hasMessageContaining("Blocking call");
    }

    @Test
    void openAndClosedLoopRunsMakeNoBlockingCallOnAnEventLoop() {
        try (TestServer server = new TestServer()) {
            AtomicLong samples = new AtomicLong();
            RecordSink counting = r -> {
                if (r instanceof io.rigscope.model.wire.SampleBatch b) {
                    samples.addAndGet(b.samples().size());
                }
            };
            Scenario ingest = new Scenario("ingest", "POST", URI.create(server.url("/v1/usage-events")), Map.of(), 200,
                    64, Duration.ofSeconds(5), BodyTemplate.usageEvents(3, "m"));
            for (LoopMode mode : LoopMode.values()) {
                RunSummary summary = new Generator(counting, GeneratorOptions.defaults())
                        .run(new LoadPlan("bh-" + mode, 0, "gen-1", null, mode, Duration.ofSeconds(1), List.of(ingest), null))
                        .block(Duration.ofSeconds(60));
                assertThat(summary.scenario("ingest").failed()).as(mode + " " + summary).isZero();
                assertThat(summary.scenario("ingest").completed()).isPositive();
            }
            assertThat(samples.get()).isPositive();
        }
    }

}
