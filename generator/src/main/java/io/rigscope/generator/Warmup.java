package io.rigscope.generator;

import io.rigscope.generator.schedule.Share;
import io.rigscope.generator.http.ClientLoops;
import io.rigscope.generator.plan.BodyTemplate;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * Warms the instrument, never the target: before the schedule starts, the run's own engine (lanes, encoder,
 * parser, connections) offers ~4,000 requests in 0.4 s to a throwaway server on loopback inside this JVM,
 * on the run's event loops; their samples are discarded. Without it the first requests of a JVM load and
 * compile the client's classes on the event loop while the schedule is already running, and the run opens
 * with late requests the target never caused.
 */
final class Warmup {

    private static final Duration LENGTH = Duration.ofMillis(400);
    /** How many warm-ups this JVM has run (for the tests: a set of loops is warmed once). */
    private static final java.util.concurrent.atomic.AtomicLong RUNS = new java.util.concurrent.atomic.AtomicLong();

    private Warmup() {
    }

    /** How many warm-ups this JVM has run. */
    static long runs() {
        return RUNS.get();
    }

    /** Runs the warm-up on {@code loops}; returns how many requests completed. */
    static long run(ClientLoops loops, GeneratorOptions options) {
        RUNS.incrementAndGet();
        DisposableServer server = HttpServer.create().host("127.0.0.1").port(0)
                .route(r -> r.post("/ingest", (req, res) -> req.receive().then(res.status(201)
                                .sendString(Mono.just("{\"written\":2}")).then()))
                        .get("/probe", (req, res) -> res.sendString(Mono.just("{}"))))
                .bindNow(Duration.ofSeconds(10));
        CompletionQueue completions = new CompletionQueue(new MicroClock());
        options = options.withSeriesCounter(new java.util.concurrent.atomic.AtomicLong()); // not the series' ${seq}
        String base = "http://127.0.0.1:" + server.port();
        List<ScenarioRun> runs = List.of(
                new ScenarioRun(new Scenario("warmup-post", "POST", URI.create(base + "/ingest"), Map.of(), 8_000, 64,
                        Duration.ofSeconds(5), BodyTemplate.usageEvents(2, "warmup")), LoopMode.OPEN, completions,
                        loops.group(), options, loops.bootstrap(Duration.ofSeconds(5)), "warmup.", Share.WHOLE),
                new ScenarioRun(new Scenario("warmup-get", "GET", URI.create(base + "/probe"), Map.of(), 2_000, 16,
                        Duration.ofSeconds(5), null), LoopMode.OPEN, completions, loops.group(), options,
                        loops.bootstrap(Duration.ofSeconds(5)), "warmup.", Share.WHOLE));
        try {
            long start = System.nanoTime() + 1_000_000L;
            for (ScenarioRun r : runs) {
                r.start(start, start + LENGTH.toNanos());
            }
            long deadline = start + LENGTH.toNanos() + Duration.ofSeconds(10).toNanos();
            ScenarioRun.awaitQuiet(runs, deadline);
            long completed = 0;
            while (completions.poll() != null) {
                completed++;
            }
            return completed;
        } finally {
            runs.forEach(ScenarioRun::close);
            server.disposeNow(Duration.ofSeconds(5));
        }
    }
}
