package io.rigscope.generator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A real local HTTP server for the generator's tests: the reference SUT's ingest shape, with switchable
 * behaviour (answer 201, answer 500, or stall). It counts what it received so tests can reconcile.
 */
final class TestServer implements AutoCloseable {

    enum Behaviour { OK, FAIL_500, STALL_ONCE, JITTER }

    private final ObjectMapper json = new ObjectMapper();
    private final DisposableServer server;
    private final Set<String> keys = ConcurrentHashMap.newKeySet();
    final AtomicLong requests = new AtomicLong();
    final AtomicLong events = new AtomicLong();
    final AtomicLong quantity = new AtomicLong();
    final AtomicLong duplicateKeys = new AtomicLong();
    /** Every event's {@code seq} field, when it has one. */
    final Set<Long> seqs = ConcurrentHashMap.newKeySet();
    final AtomicLong duplicateSeqs = new AtomicLong();
    volatile Behaviour behaviour = Behaviour.OK;
    /** STALL_ONCE: the first request at or after this nanoTime starts a stall of {@link #stall}. */
    volatile long stallAfterNanos = Long.MAX_VALUE;
    volatile Duration stall = Duration.ofSeconds(2);
    private volatile long stallUntilNanos;
    private final Object stallLock = new Object();

    TestServer() {
        // Jackson builds its deserializers under a lock on first use; do that here, not on an event loop.
        count("{\"events\":[]}");
        server = HttpServer.create().host("127.0.0.1").port(0)
                .route(routes -> routes
                        .post("/v1/usage-events", (req, res) -> req.receive().aggregate().asString().defaultIfEmpty("")
                                .flatMap(body -> {
                                    requests.incrementAndGet();
                                    Duration delay = delay();
                                    if (behaviour == Behaviour.FAIL_500) {
                                        return later(res, delay).then(res.status(500).sendString(Mono.just("{\"error\":\"boom\"}")).then());
                                    }
                                    int written = count(body);
                                    return later(res, delay).then(res.status(201)
                                            .sendString(Mono.just("{\"written\":" + written + "}")).then());
                                }))
                        .get("/probe", (req, res) -> {
                            requests.incrementAndGet();
                            return res.status(200).sendString(Mono.just("{}"));
                        }))
                .bindNow();
    }

    /**
     * Completes after {@code delay} on the connection's own event loop, so the response is written from there.
     * ({@code Mono.delay} would answer from a Reactor timer thread, whose buffer allocation BlockHound may catch
     * taking Netty's allocator lock: the request then fails with a 500 the test did not ask for.)
     */
    private static Mono<Void> later(reactor.netty.NettyOutbound res, Duration delay) {
        if (delay.isZero()) {
            return Mono.empty();
        }
        return Mono.create(sink -> res.withConnection(c -> c.channel().eventLoop()
                .schedule(() -> sink.success(), delay.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS)));
    }

    private Duration delay() {
        if (behaviour == Behaviour.JITTER) {
            return Duration.ofMillis(java.util.concurrent.ThreadLocalRandom.current().nextInt(40));
        }
        if (behaviour != Behaviour.STALL_ONCE) {
            return Duration.ZERO;
        }
        long now = System.nanoTime();
        synchronized (stallLock) {
            if (stallUntilNanos == 0 && now - stallAfterNanos >= 0) {
                stallUntilNanos = now + stall.toNanos();
            }
            long wait = stallUntilNanos - now;
            return stallUntilNanos != 0 && wait > 0 ? Duration.ofNanos(wait) : Duration.ZERO;
        }
    }

    private int count(String body) {
        try {
            JsonNode root = json.readTree(body);
            int n = 0;
            for (JsonNode e : root.get("events")) {
                n++;
                events.incrementAndGet();
                quantity.addAndGet(e.get("quantity").asLong());
                if (!keys.add(e.get("idempotency_key").asText())) {
                    duplicateKeys.incrementAndGet();
                }
                if (e.has("seq") && !seqs.add(e.get("seq").asLong())) {
                    duplicateSeqs.incrementAndGet();
                }
            }
            return n;
        } catch (Exception e) {
            throw new IllegalStateException("bad body: " + body, e);
        }
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
