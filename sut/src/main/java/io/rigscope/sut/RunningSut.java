package io.rigscope.sut;

import io.r2dbc.pool.ConnectionPool;
import java.net.URI;
import java.time.Duration;
import reactor.netty.DisposableServer;

/**
 * A started SUT: where it listens and what it has done. {@link #close()} stops the HTTP server, then the
 * connection pool. Thread-safe.
 */
public final class RunningSut implements AutoCloseable {

    private final SutConfig config;
    private final DisposableServer server;
    private final ConnectionPool pool;
    private final SutStats stats;

    RunningSut(SutConfig config, DisposableServer server, ConnectionPool pool, SutStats stats) {
        this.config = config;
        this.server = server;
        this.pool = pool;
        this.stats = stats;
    }

    /** The port it listens on (the bound one when the config asked for 0). */
    public int port() {
        return server.port();
    }

    /** {@code http://host:port} (127.0.0.1 when bound to all addresses). */
    public URI baseUri() {
        String host = "0.0.0.0".equals(config.bindHost()) ? "127.0.0.1" : config.bindHost();
        return URI.create("http://" + host + ":" + port());
    }

    public SutConfig config() {
        return config;
    }

    public SutStats.Snapshot stats() {
        return stats.snapshot();
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(10));
        pool.disposeLater().block(Duration.ofSeconds(10));
    }
}
