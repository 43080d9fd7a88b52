package io.rigscope.sut.db;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.rigscope.pg.PgUrl;
import java.time.Duration;

/** The SUT's R2DBC connection pool over a {@link PgUrl} (its query parameters, TLS included, apply). */
public final class Pools {

    private Pools() {
    }

    /**
     * A connection pool of up to {@code maxSize} connections. Close it when done.
     *
     * @param defaultApplicationName the sessions' {@code application_name} unless the URL names one
     */
    public static ConnectionPool of(PgUrl url, String defaultApplicationName, int maxSize) {
        if (maxSize < 1) {
            throw new IllegalArgumentException("pool size must be at least 1, got " + maxSize);
        }
        return new ConnectionPool(ConnectionPoolConfiguration.builder(url.connectionFactory(defaultApplicationName))
                .initialSize(Math.min(2, maxSize))
                .maxSize(maxSize)
                .maxAcquireTime(Duration.ofSeconds(30))
                .maxIdleTime(Duration.ofMinutes(30))
                .build());
    }
}
