package io.rigscope.generator;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * Warms the instrument, never the target: before the schedule starts, a few hundred requests go through the
 * same client code to a throwaway server on loopback inside this JVM (2,000 requests, a quarter of them on new
 * connections). Without it the first request of a JVM
 * spends ~300 ms loading Netty's and Reactor's classes on the scheduler thread, and the schedule opens with a
 * burst of late requests (and drops) that the target never caused.
 */
final class Warmup {

    private Warmup() {
    }

    static void run(LoopResources loops) {
        byte[] body = "{\"events\":[{\"quantity\":1}]}".getBytes(StandardCharsets.UTF_8);
        DisposableServer server = HttpServer.create().host("127.0.0.1").port(0).runOn(loops)
                .handle((req, res) -> req.receive().aggregate().asByteArray().defaultIfEmpty(new byte[0])
                        .then(res.status(201).sendString(Mono.just("{\"written\":1}")).then()))
                .bindNow(Duration.ofSeconds(10));
        ConnectionProvider pool = ConnectionProvider.builder("rig-gen-warmup").maxConnections(64).build();
        try {
            HttpClient keepAlive = HttpClient.create(pool).runOn(loops).keepAlive(true).disableRetry(true);
            // A new connection per request: warms the connect path, which a fresh pool takes at 20,000 req/s
            // for as many connections as requests overlap at the start.
            HttpClient connectEach = HttpClient.create(pool).runOn(loops).keepAlive(false).disableRetry(true);
            keepAlive.warmup().block(Duration.ofSeconds(10));
            String uri = "http://127.0.0.1:" + server.port() + "/";
            Flux.range(0, 2000)
                    .flatMap(i -> (i % 4 == 0 ? connectEach : keepAlive).request(i % 2 == 0 ? HttpMethod.POST : HttpMethod.GET).uri(uri)
                            .send((req, out) -> {
                                req.header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.length));
                                return out.send(Mono.just(Unpooled.wrappedBuffer(body)));
                            })
                            .responseSingle((res, content) -> content.asByteArray().map(b -> res.status().code())
                                    .defaultIfEmpty(res.status().code()))
                            .timeout(Duration.ofSeconds(5)), 32)
                    .then()
                    .block(Duration.ofSeconds(30));
        } finally {
            pool.disposeLater().block(Duration.ofSeconds(5));
            server.disposeNow(Duration.ofSeconds(5));
        }
    }
}
