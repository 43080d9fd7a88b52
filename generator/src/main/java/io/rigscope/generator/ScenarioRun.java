package io.rigscope.generator;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.rigscope.generator.body.BodyRenderer;
import io.rigscope.generator.body.RequestBody;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.generator.schedule.ArrivalSchedule;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Sample;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * A scenario while it runs: its HTTP client and keep-alive pool, its counters by intended-start second, and
 * the code that starts one request and turns its outcome into a {@link Sample}.
 *
 * <p>The timeout counts from the moment the request is handed to the client. It is enforced by the run's
 * timeout sweeper ({@link #expireIfOverdue}, every 10 ms), which cancels the request and ends it as a
 * {@code timeout}; the pool's acquire timeout and the connect timeout are set to the same value. A per-request
 * timer (Reactor's {@code Mono.timeout} or Netty's response timeout handler) costs each request a scheduled task,
 * which shows at 20,000 req/s.
 *
 * <p>Starting a request ({@link #start}) subscribes to the client's Mono; that is where this engine bridges
 * from its own threads into Reactor Netty, and nothing on that path blocks.
 */
final class ScenarioRun {

    final Scenario scenario;
    final LoopMode mode;
    final ArrivalSchedule schedule;
    final AtomicInteger inFlight = new AtomicInteger();
    final ConcurrentHashMap<Long, SecondCounts> bySecond = new ConcurrentHashMap<>();
    /** Open loop: every request with an intended start before this nanoTime has been counted. */
    volatile long decidedBeforeNanos;
    /** Closed loop: start no more requests after this nanoTime. */
    volatile long stopAtNanos;
    final AtomicLong nextSeq = new AtomicLong();

    private final RunContext run;
    private final BodyRenderer renderer;
    private final HttpMethod method;
    private final String uri;
    private final ConnectionProvider pool;
    private final Mono<Integer> exchange;
    private final long timeoutNanos;

    ScenarioRun(Scenario scenario, LoopMode mode, RunContext run, LoopResources loops, String keyPrefix) {
        this.scenario = scenario;
        this.mode = mode;
        this.run = run;
        this.schedule = ArrivalSchedule.constantRate(scenario.requestsPerSec());
        this.renderer = scenario.body() == null ? null : new BodyRenderer(scenario.body(), keyPrefix + scenario.name() + ".");
        this.method = HttpMethod.valueOf(scenario.method());
        this.uri = scenario.url().toString();
        this.pool = ConnectionProvider.builder("rig-gen-" + scenario.name())
                .maxConnections(scenario.maxInFlight())
                .pendingAcquireMaxCount(-1)
                .pendingAcquireTimeout(scenario.timeout())
                .maxIdleTime(Duration.ofSeconds(60))
                .lifo()
                .build();
        this.timeoutNanos = scenario.timeout().toNanos();
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, scenario.timeout().toMillis());
        HttpClient client = HttpClient.create(pool)
                .runOn(loops)
                .keepAlive(true)
                .disableRetry(true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, timeoutMs)
                .headers(h -> {
                    scenario.headers().forEach(h::set);
                    if (scenario.body() != null) {
                        h.set(HttpHeaderNames.CONTENT_TYPE, "application/json");
                    }
                });
        // Initializes this client's event loops, address resolver and native transport now, on the run thread:
        // done lazily, it stalled the first requests of a run ~300 ms.
        client.warmup().block(Duration.ofSeconds(30));
        this.exchange = buildExchange(client.request(method).uri(uri));
    }

    private final java.util.concurrent.atomic.LongAdder scheduledTotal = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder sentTotal = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder droppedTotal = new java.util.concurrent.atomic.LongAdder();

    /** Counts one request due at {@code t0Nanos}: sent, or dropped at the cap. */
    void count(long t0Nanos, boolean sent) {
        SecondCounts c = bySecond.computeIfAbsent(Math.floorDiv(run.clock().epochUs(t0Nanos), 1_000_000L),
                s -> new SecondCounts());
        c.scheduled.increment();
        scheduledTotal.increment();
        if (sent) {
            c.sent.increment();
            sentTotal.increment();
        } else {
            c.dropped.increment();
            droppedTotal.increment();
        }
    }

    long scheduledTotal() {
        return scheduledTotal.sum();
    }

    long sentTotal() {
        return sentTotal.sum();
    }

    long droppedTotal() {
        return droppedTotal.sum();
    }

    RequestBody render(long seq) {
        return renderer == null ? RequestBody.EMPTY : renderer.render(seq);
    }

    /** Open loop: starts request {@code seq} due at {@code t0Nanos}; the caller has counted it and taken an in-flight slot. */
    void startOpen(long seq, long t0Nanos) {
        Exchange x = new Exchange(this, seq, t0Nanos, true, render(seq));
        run.register(x);
        x.counted = true;
        send(x);
    }

    /** Closed loop: starts the next request now, unless the run is past its end. Called by a worker's previous completion. */
    void startClosed() {
        if (run.stopping() || System.nanoTime() - stopAtNanos >= 0) {
            return;
        }
        long seq = nextSeq.getAndIncrement();
        Exchange x = new Exchange(this, seq, 0, false, render(seq));
        inFlight.incrementAndGet();
        run.register(x);
        long t0 = run.clock().nanoTime();
        x.stampStart(t0);
        count(t0, true);
        x.counted = true;
        send(x);
    }

    private void send(Exchange x) {
        long handedNanos = run.clock().nanoTime();
        x.t1Nanos = handedNanos;
        x.handedNanos = handedNanos;
        exchange.subscribe(x);
    }

    /**
     * The one request Mono of this scenario, built once: each request subscribes to it with its {@link Exchange}
     * as the subscriber, and the exchange's context carries it to the send function. Building a request per
     * call would copy the client's whole configuration (headers included) for every request.
     */
    private Mono<Integer> buildExchange(HttpClient.RequestSender sender) {
        return sender.send((req, out) -> {
                    Exchange x = req.currentContextView().get(Exchange.class);
                    x.t1Nanos = run.clock().nanoTime();
                    byte[] bytes = x.body.bytes();
                    if (bytes.length == 0) {
                        return out;
                    }
                    req.header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(bytes.length));
                    return out.send(Mono.just(Unpooled.wrappedBuffer(bytes)));
                })
                .responseSingle((res, content) -> content.asByteArray().thenReturn(res.status().code()));
    }

    /** A response arrived (called by the exchange). */
    void onResponse(Exchange x, int status) {
        end(x, status, null);
    }

    /** The request failed (called by the exchange). */
    void onError(Exchange x, Throwable error) {
        end(x, 0, error);
    }

    /** Called by the sweeper: ends {@code x} as a timeout if it has been out longer than the scenario timeout. */
    void expireIfOverdue(Exchange x, long nowNanos) {
        if (!x.completing && x.handedNanos != 0 && nowNanos - x.handedNanos >= timeoutNanos) {
            if (end(x, 0, new java.util.concurrent.TimeoutException("no response within " + scenario.timeout()))) {
                x.cancel();
            }
        }
    }

    /** Ends the request once (a response, an error or the sweeper); returns false when it had already ended. */
    private boolean end(Exchange x, int status, Throwable error) {
        if (!x.claimEnd()) {
            return false;
        }
        x.completing = true;
        long t2 = run.clock().nanoTime();
        x.stampEnd(t2);
        MicroClock clock = run.clock();
        long t0Us = clock.epochUs(x.t0Nanos);
        long t2Us = clock.epochUs(t2);
        long t1Us = Math.min(Math.max(clock.epochUs(x.t1Nanos), t0Us), t2Us);
        ErrorKind kind = error == null ? ErrorKind.ofStatus(status) : ErrorKinds.of(error);
        run.collect(new Sample(scenario.name(), t0Us, t1Us, t2Us, status, kind, x.body.batch(), x.body.quantity(),
                x.body.bytes().length), error);
        run.unregister(x);
        inFlight.decrementAndGet();
        if (mode == LoopMode.CLOSED) {
            startClosed();
        }
        return true;
    }

    void dispose() {
        pool.disposeLater().block(Duration.ofSeconds(5));
    }
}
