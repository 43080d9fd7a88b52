package io.rigscope.generator.target;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * The generator benchmark's target: a minimal Reactor Netty keep-alive HTTP server that answers every request
 * {@code 200 ok} (2 bytes, with Content-Length) after reading its body, or with a JSON body of a given size
 * ({@code {"ok":"xx...x"}}, for benches of response checks). Its event-loop threads are named
 * {@code rig-bench-srv-*} so their CPU can be told apart from the generator's. {@code rigscope bench server}
 * runs one on its own, for a generator in another process or on another machine.
 */
public final class BenchServer implements AutoCloseable {

    /** The smallest JSON body the server can answer with: {@code {"ok":""}}. */
    public static final int MIN_JSON_BYTES = 9;
    /** The header the bench server sends with {@code --server-timing-pairs}: the reference SUT's shape. */
    public static final String SUT_SERVER_TIMING = "pool;dur=0.012, db;dur=0.734, app;dur=0.081";
    private static final String SERVER_TIMING = "Server-Timing";

    private final ByteBuf body;

    private final LoopResources loops;
    private final DisposableServer server;
    private final LongAdder served = new LongAdder();
    /** {@link #window()}: requests served before the window opened, and its first and last arrival (0: none yet). */
    private volatile long windowBase;
    private final AtomicLong firstArrival = new AtomicLong();
    private final AtomicLong lastArrival = new AtomicLong();

    /** Starts the server on 127.0.0.1 and a free port, with {@code threads} event loops. */
    public BenchServer(int threads) {
        this("127.0.0.1", 0, threads);
    }

    /** Starts the server on {@code host:port} ({@code 0}: a free port), with {@code threads} event loops. */
    public BenchServer(String host, int port, int threads) {
        this(host, port, threads, 2);
    }

    /**
     * Starts the server on {@code host:port} ({@code 0}: a free port), with {@code threads} event loops, answering
     * {@code responseBytes} of body: 2 is {@code ok}; from {@link #MIN_JSON_BYTES} up, {@code {"ok":"xx...x"}}.
     */
    public BenchServer(String host, int port, int threads, int responseBytes) {
        this(host, port, threads, responseBytes, null);
    }

    /**
     * As {@link #BenchServer(String, int, int, int)}, with {@code serverTiming} (or null: none) as every answer's
     * {@code Server-Timing} header, for measuring what reading it costs the generator.
     */
    public BenchServer(String host, int port, int threads, int responseBytes, String serverTiming) {
        if (responseBytes != 2 && responseBytes < MIN_JSON_BYTES) {
            throw new IllegalArgumentException("response bytes must be 2 (ok) or >= " + MIN_JSON_BYTES + " (JSON), was "
                    + responseBytes);
        }
        String text = responseBytes == 2 ? "ok" : "{\"ok\":\"" + "x".repeat(responseBytes - MIN_JSON_BYTES) + "\"}";
        this.body = Unpooled.unreleasableBuffer(
                Unpooled.directBuffer(responseBytes).writeBytes(text.getBytes(StandardCharsets.US_ASCII)));
        String length = Integer.toString(responseBytes);
        this.loops = LoopResources.create("rig-bench-srv", 1, threads, true);
        this.server = HttpServer.create().host(host).port(port).runOn(loops)
                .handle((req, res) -> {
                    long now = System.nanoTime();
                    served.increment();
                    if (firstArrival.getOpaque() == 0) {
                        firstArrival.compareAndSet(0, now);
                    }
                    lastArrival.setRelease(now);
                    if (serverTiming != null) {
                        res.header(SERVER_TIMING, serverTiming);
                    }
                    return req.receive().then(res.header(HttpHeaderNames.CONTENT_LENGTH, length)
                            .send(Mono.just(body.duplicate())).then());
                })
                .bindNow(Duration.ofSeconds(10));
    }

    /** {@code http://host:port/}. */
    public String url() {
        return "http://" + server.host() + ":" + server.port() + "/";
    }

    /** Requests received so far. */
    public long served() {
        return served.sum();
    }

    /**
     * The requests that arrived since {@link #openWindow()}: how many, and when the first and the last arrived
     * ({@link System#nanoTime()} of this JVM; 0 when none did). {@code bench generator --vs-peers} reads the rate a
     * tool offered as the server counted it: {@code (count - 1) / (last - first)}.
     */
    public record Window(long count, long firstNanos, long lastNanos) {

        /** Requests/s between the first and the last arrival; 0 with fewer than two. */
        public double rate() {
            return count < 2 || lastNanos <= firstNanos ? 0 : (count - 1) * 1e9 / (lastNanos - firstNanos);
        }
    }

    /** Starts a new {@link #window()}: call it while no request is arriving (between two steps of a bench). */
    public void openWindow() {
        firstArrival.set(0);
        lastArrival.set(0);
        windowBase = served.sum();
    }

    /** The requests that arrived since {@link #openWindow()} (or since the server started). */
    public Window window() {
        long first = firstArrival.get();
        return new Window(served.sum() - windowBase, first, first == 0 ? 0 : lastArrival.get());
    }

    /** CPU time the server's event loops have used so far, nanoseconds. */
    public long cpuNanos() {
        return ThreadCpu.cpuNanosOfThreadsNamed("rig-bench-srv");
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
        loops.disposeLater().block(Duration.ofSeconds(5));
    }
}
