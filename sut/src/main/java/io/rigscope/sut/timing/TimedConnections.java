package io.rigscope.sut.timing;

import io.r2dbc.spi.Batch;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryMetadata;
import io.r2dbc.spi.ConnectionMetadata;
import io.r2dbc.spi.IsolationLevel;
import io.r2dbc.spi.Statement;
import io.r2dbc.spi.TransactionDefinition;
import io.r2dbc.spi.ValidationDepth;
import java.time.Duration;
import java.util.Objects;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * A connection factory (the SUT's pool) that times, for the request in the subscriber's context
 * ({@link RequestTiming}), how long it waited for a connection ({@code pool}: from asking to getting one) and how
 * long it held it ({@code db}: from getting it to giving it back). Without a {@link RequestTiming} in the context
 * (seeding, migrations, tests) it is the pool itself. Thread-safe; non-blocking.
 */
public final class TimedConnections implements ConnectionFactory {

    private final ConnectionFactory pool;

    public TimedConnections(ConnectionFactory pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    @Override
    public Publisher<? extends Connection> create() {
        return Mono.deferContextual(ctx -> {
            RequestTiming timing = ctx.getOrDefault(RequestTiming.class, null);
            if (timing == null) {
                return Mono.from(pool.create());
            }
            long askedNanos = System.nanoTime();
            return Mono.from(pool.create()).map(c -> {
                long gotNanos = System.nanoTime();
                timing.addPoolNanos(gotNanos - askedNanos);
                return (Connection) new Held(c, timing, gotNanos);
            });
        });
    }

    @Override
    public ConnectionFactoryMetadata getMetadata() {
        return pool.getMetadata();
    }

    /** A pooled connection that, when given back, adds how long it was held to its request's {@code db}. */
    private static final class Held implements Connection {
        private final Connection c;
        private final RequestTiming timing;
        private final long gotNanos;

        Held(Connection c, RequestTiming timing, long gotNanos) {
            this.c = c;
            this.timing = timing;
            this.gotNanos = gotNanos;
        }

        @Override
        public Publisher<Void> close() {
            return Mono.defer(() -> {
                timing.addDbNanos(System.nanoTime() - gotNanos);
                return Mono.from(c.close());
            });
        }

        @Override
        public Publisher<Void> beginTransaction() {
            return c.beginTransaction();
        }

        @Override
        public Publisher<Void> beginTransaction(TransactionDefinition definition) {
            return c.beginTransaction(definition);
        }

        @Override
        public Publisher<Void> commitTransaction() {
            return c.commitTransaction();
        }

        @Override
        public Batch createBatch() {
            return c.createBatch();
        }

        @Override
        public Publisher<Void> createSavepoint(String name) {
            return c.createSavepoint(name);
        }

        @Override
        public Statement createStatement(String sql) {
            return c.createStatement(sql);
        }

        @Override
        public boolean isAutoCommit() {
            return c.isAutoCommit();
        }

        @Override
        public ConnectionMetadata getMetadata() {
            return c.getMetadata();
        }

        @Override
        public IsolationLevel getTransactionIsolationLevel() {
            return c.getTransactionIsolationLevel();
        }

        @Override
        public Publisher<Void> releaseSavepoint(String name) {
            return c.releaseSavepoint(name);
        }

        @Override
        public Publisher<Void> rollbackTransaction() {
            return c.rollbackTransaction();
        }

        @Override
        public Publisher<Void> rollbackTransactionToSavepoint(String name) {
            return c.rollbackTransactionToSavepoint(name);
        }

        @Override
        public Publisher<Void> setAutoCommit(boolean autoCommit) {
            return c.setAutoCommit(autoCommit);
        }

        @Override
        public Publisher<Void> setLockWaitTimeout(Duration timeout) {
            return c.setLockWaitTimeout(timeout);
        }

        @Override
        public Publisher<Void> setStatementTimeout(Duration timeout) {
            return c.setStatementTimeout(timeout);
        }

        @Override
        public Publisher<Void> setTransactionIsolationLevel(IsolationLevel isolationLevel) {
            return c.setTransactionIsolationLevel(isolationLevel);
        }

        @Override
        public Publisher<Boolean> validate(ValidationDepth depth) {
            return c.validate(depth);
        }
    }
}
