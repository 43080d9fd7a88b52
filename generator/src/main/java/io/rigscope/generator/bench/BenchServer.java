package io.rigscope.generator.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * The generator benchmark's target: a minimal Reactor Netty keep-alive HTTP server that answers every request
 * {@code 200 ok} (2 bytes, with Content-Length) after reading its body. Its event-loop threads are named
 * {@code rig-bench-srv-*} so their CPU can be told apart from the generator's. {@code rigscope bench server}
 * runs one on its own, for a generator in another process or on another machine.
 */
public final class BenchServer implements AutoCloseable {

    private static final ByteBuf OK = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer(2).writeBytes("ok".getBytes(StandardCharsets.US_ASCII)));

    private final LoopResources loops;
    private final DisposableServer server;
    private final LongAdder served = new LongAdder();

    /** Starts the server on 127.0.0.1 and a free port, with {@code threads} event loops. */
    public BenchServer(int threads) {
        this("127.0.0.1", 0, threads);
    }

    /** Starts the server on {@code host:port} ({@code 0}: a free port), with {@code threads} event loops. */
    public BenchServer(String host, int port, int threads) {
        this.loops = LoopResources.create("rig-bench-srv", 1, threads, true);
        this.server = HttpServer.create().host(host).port(port).runOn(loops)
                .handle((req, res) -> {
                    served.increment();
                    return req.receive().then(res.header(HttpHeaderNames.CONTENT_LENGTH, "2")
                            .send(Mono.just(OK.duplicate())).then());
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
