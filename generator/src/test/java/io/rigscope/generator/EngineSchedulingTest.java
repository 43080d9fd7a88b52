package io.rigscope.generator;

import static io.rigscope.generator.EngineRuns.assertEveryRequestIsAccountedFor;
import static io.rigscope.generator.EngineRuns.get;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.generator.plan.BodyTemplate;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.model.wire.Health;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.ScheduleEnd;
import io.rigscope.model.wire.SeriesEnd;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The engine's schedule through whole runs against real loopback servers: polling sleeps until the next request,
 * closed-loop workers keep their bound, the end marker carries the schedule's facts, and two scenarios at once keep
 * their own samples.
 */
@Tag("it")
class EngineSchedulingTest {

    @RegisterExtension
    static final EngineRuns engine = new EngineRuns();

    @Test
    void withPollingTheLoopSleepsUntilItsNextRequestAndStillEndsEveryRequestOnce() {
        DisposableServer server = HttpServer.create().host("127.0.0.1").port(0)
                .handle((req, res) -> res.sendString(Mono.just("ok")).then())
                .bindNow();
        try {
            GeneratorOptions options = GeneratorOptions.defaults().withPollNanos(200_000);
            long pollsBefore = engine.loops().polls();
            // 5,000 req/s: a request every 200 µs, so the lane asks to poll before each one.
            EngineRuns.Run run = engine.run(options, LoopMode.OPEN, Duration.ofMillis(1000),
                    get("ingest", "http://127.0.0.1:" + server.port() + "/", 5000, 256, Duration.ofSeconds(2)));
            ScenarioSummary s = run.summary().scenario("ingest");
            assertEveryRequestIsAccountedFor(run, "ingest");
            assertThat(s.scheduled()).isEqualTo(5000);
            assertThat(s.failed()).as(s.errors().toString()).isZero();
            assertThat(run.samples("ingest")).allSatisfy(x -> assertThat(x.t0() <= x.t1() && x.t1() <= x.t2()).isTrue());
            assertThat(engine.loops().polls() - pollsBefore).as("sleeps taken to poll").isGreaterThan(1000);
        } finally {
            server.disposeNow(Duration.ofSeconds(5));
        }
    }

    @Test
    void closedLoopWorkersKeepAtMostNRequestsOutAndCompleteAboutNPerServiceTime() {
        int workers = 4;
        AtomicInteger current = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        DisposableServer server = HttpServer.create().host("127.0.0.1").port(0)
                .route(r -> r.get("/slow", (req, res) -> {
                    most.accumulateAndGet(current.incrementAndGet(), Math::max);
                    // The delay runs on the connection's own event loop: answering from a Reactor timer thread
                    // allocates the response there, which BlockHound may catch taking Netty's allocator lock.
                    Mono<Void> served = Mono.create(sink -> res.withConnection(c -> c.channel().eventLoop()
                            .schedule(() -> sink.success(), 20, TimeUnit.MILLISECONDS)));
                    return served.doOnSuccess(x -> current.decrementAndGet())
                            .then(res.sendString(Mono.just("{}")).then());
                }))
                .bindNow();
        try {
            Duration duration = Duration.ofMillis(1500);
            EngineRuns.Run run = engine.run(LoopMode.CLOSED, duration,
                    get("slow", "http://127.0.0.1:" + server.port() + "/slow", 1, workers, Duration.ofSeconds(2)));

            ScenarioSummary s = run.summary().scenario("slow");
            assertEveryRequestIsAccountedFor(run, "slow");
            assertThat(s.dropped()).isZero();
            assertThat(s.failed()).as(s.errors().toString()).isZero();
            long ideal = workers * duration.toMillis() / 20;
            assertThat(s.completed()).as("ideal %d", ideal).isBetween(ideal / 2, workers * (duration.toMillis() / 20 + 1));
            assertThat(most.get()).as("most requests the server saw at once").isEqualTo(workers);
            assertThat(run.all(Health.class)).isNotEmpty().allSatisfy(h -> assertThat(h.inFlight()).isLessThanOrEqualTo(workers));
            assertThat(run.seconds()).isNotEmpty().allSatisfy(r -> assertThat(r.inFlight()).isLessThanOrEqualTo(workers));
            assertThat(run.summary().mode().label()).isEqualTo("closed-loop");
            assertThat(run.all(Marker.class)).isNotEmpty()
                    .allSatisfy(m -> assertThat(GeneratorTest.modeOf(m)).isEqualTo("closed-loop"));
        } finally {
            server.disposeNow(Duration.ofSeconds(5));
        }
    }

    @Test
    void theEndMarkerCarriesTheSchedulesFactsAndNoLatencyOrClaims() {
        try (TestServer server = new TestServer()) {
            Scenario ingest = new Scenario("ingest", "POST", URI.create(server.url("/v1/usage-events")), Map.of(), 40, 8,
                    Duration.ofSeconds(2), BodyTemplate.usageEvents(2, "m"));
            EngineRuns.Run run = engine.run(LoopMode.OPEN, Duration.ofMillis(500), ingest);

            Marker end = run.all(Marker.class).stream().filter(m -> m.kind() == Marker.Kind.SERIES_END).findFirst()
                    .orElseThrow();
            SeriesEnd body = (SeriesEnd) end.body();
            ScheduleEnd facts = body.schedule();
            assertThat(body.repeats()).isNull();
            assertThat(body.other()).isEmpty();
            assertThat(facts.mode()).isEqualTo("open-loop");
            assertThat(facts.startEpochUs()).isPositive();
            assertThat(facts.elapsedMs()).isNotNull();
            assertThat(facts.processCpuPct()).isNotNull();
            assertThat(facts.stopped()).isNull();
            assertThat(facts.scenarios()).singleElement().satisfies(s -> {
                assertThat(s.scenario()).isEqualTo("ingest");
                assertThat(s.scheduled()).isEqualTo(20L);
                assertThat(s.other()).isEmpty();
            });
        }
    }

    @Test
    void twoScenariosAtOnceKeepTheirOwnSamplesAndCounts() {
        try (TestServer server = new TestServer()) {
            Scenario ingest = new Scenario("ingest", "POST", URI.create(server.url("/v1/usage-events")),
                    Map.of("Authorization", "Bearer k"), 100, 32, Duration.ofSeconds(2), BodyTemplate.usageEvents(3, "m"));
            Scenario probe = get("probe", server.url("/probe"), 20, 4, Duration.ofSeconds(2));
            EngineRuns.Run run = engine.run(LoopMode.OPEN, Duration.ofMillis(1500), ingest, probe);

            assertEveryRequestIsAccountedFor(run, "ingest");
            assertEveryRequestIsAccountedFor(run, "probe");
            ScenarioSummary in = run.summary().scenario("ingest");
            ScenarioSummary pr = run.summary().scenario("probe");
            assertThat(in.scheduled()).isEqualTo(150);
            assertThat(pr.scheduled()).isEqualTo(30);
            assertThat(in.failed() + pr.failed()).isZero();
            assertThat(run.samples("ingest")).hasSize(150).allSatisfy(x -> {
                assertThat(x.status()).isEqualTo(201);
                assertThat(x.batch()).isEqualTo(3);
                assertThat(x.bytes()).isPositive();
            });
            assertThat(run.samples("probe")).hasSize(30).allSatisfy(x -> {
                assertThat(x.status()).isEqualTo(200);
                assertThat(x.batch()).isZero();
                assertThat(x.bytes()).isZero();
            });
            // every 2xx request's events reached the server exactly once, by the samples the run published
            Claims ingestClaims = Claims.of(run.samples("ingest"));
            assertThat(ingestClaims.events()).isEqualTo(450).isEqualTo(server.events.get());
            assertThat(ingestClaims.quantity()).isEqualTo(server.quantity.get());
            assertThat(server.duplicateKeys.get()).isZero();
            assertThat(Claims.of(run.samples("probe")).events()).isZero();
            assertThat(server.requests.get()).isEqualTo(180);
            // every sample carries one of the two names: nothing pooled, nothing unnamed
            assertThat(run.all(SampleBatch.class).stream().flatMap(b -> b.samples().stream()).map(Sample::scenario)
                    .collect(java.util.stream.Collectors.toSet())).containsExactlyInAnyOrder("ingest", "probe");
        }
    }
}
