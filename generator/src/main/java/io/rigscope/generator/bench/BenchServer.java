package io.rigscope.generator.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * The generator benchmark's target: a minimal Reactor Netty keep-alive HTTP server on loopback that answers
 * every request {@code 200 ok} (2 bytes, with Content-Length) after reading its body. Its event-loop threads
 * are named {@code rig-bench-srv-*} so their CPU can be told apart from the generator's.
 */
public final class BenchServer implements AutoCloseable {

    private static final ByteBuf OK = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer(2).writeBytes("ok".getBytes(StandardCharsets.US_ASCII)));

    private final LoopResources loops;
    private final DisposableServer server;

    /** Starts the server on 127.0.0.1 and a free port, with {@code threads} event loops. */
    public BenchServer(int threads) {
        this.loops = LoopResources.create("rig-bench-srv", 1, threads, true);
        this.server = HttpServer.create().host("127.0.0.1").port(0).runOn(loops)
                .handle((req, res) -> req.receive().then(res.header(HttpHeaderNames.CONTENT_LENGTH, "2")
                        .send(Mono.just(OK.duplicate())).then()))
                .bindNow(Duration.ofSeconds(10));
    }

    /** {@code http://127.0.0.1:port/}. */
    public String url() {
        return "http://127.0.0.1:" + server.port() + "/";
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
