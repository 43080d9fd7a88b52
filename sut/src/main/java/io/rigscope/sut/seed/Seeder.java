package io.rigscope.sut.seed;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.rigscope.pg.PgUrl;
import io.rigscope.sut.db.Sql;
import io.rigscope.sut.schema.Provisioning;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Bulk-loads history into {@code usage_events} with {@code COPY ... FROM STDIN}, so a run measures a table of
 * realistic size rather than an empty one. Rows go to the same tenant the run writes (the provisioned one),
 * for its customers ({@code cust-0001..}) and meters, with event times spread over the 30 days before the
 * load, quantities 1..100, properties {@code {"region":..,"plan":..}} and idempotency keys
 * {@code seed-<nonce>-<n>} that never collide with a run's keys or another seed's.
 *
 * <p>The load is cut into COPY statements of {@link Spec#rowsPerCopy} rows, each its own transaction, so
 * a failure loses at most one chunk and {@link Progress#rowsCommitted} is true progress.
 *
 * <p>Blocking; not for event loops. One load at a time per instance.
 */
public final class Seeder {

    /**
     * What to load.
     *
     * @param rows how many events
     * @param tenant the tenant's name (its id is looked up)
     * @param customers how many customers the rows spread over ({@code cust-0001..})
     * @param rowsPerCopy rows per COPY statement (transaction)
     */
    public record Spec(long rows, String tenant, int customers, int rowsPerCopy) {
        public Spec {
            if (rows < 0) {
                throw new IllegalArgumentException("--rows must be >= 0, got " + rows);
            }
            Objects.requireNonNull(tenant, "tenant");
            if (customers < 1) {
                throw new IllegalArgumentException("customers must be >= 1, got " + customers);
            }
            if (rowsPerCopy < 1) {
                throw new IllegalArgumentException("rows per COPY must be >= 1, got " + rowsPerCopy);
            }
        }

        /** N rows for the demo tenant's 1,000 customers, 100,000 rows per COPY. */
        public static Spec demo(long rows) {
            return new Spec(rows, Provisioning.DEMO_TENANT, 1000, 100_000);
        }
    }

    /**
     * Load progress, reported about once a second and once at the end.
     *
     * @param rowsLoaded rows the server has taken so far: committed ones plus the running COPY's
     *     {@code pg_stat_progress_copy.tuples_processed}
     * @param rowsCommitted rows in committed COPY statements
     * @param rowsTotal rows asked for
     * @param elapsed time since the load started
     */
    public record Progress(long rowsLoaded, long rowsCommitted, long rowsTotal, Duration elapsed) {
        /** Loaded rows per second since the start. */
        public double rowsPerSec() {
            double sec = elapsed.toNanos() / 1e9;
            return sec <= 0 ? 0 : rowsLoaded / sec;
        }
    }

    private static final int ROWS_PER_BUFFER = 2_000;
    private static final String[] REGIONS = {"eu-1", "eu-2", "us-1", "us-2", "ap-1"};
    private static final String[] PLANS = {"free", "pro", "enterprise"};

    private final PgUrl pg;

    /** @param pg the database, as a role allowed to INSERT into usage_events (the owner or the app role) */
    public Seeder(PgUrl pg) {
        this.pg = Objects.requireNonNull(pg, "pg");
    }

    /**
     * Loads the rows, calling {@code onProgress} about once a second (on a timer thread of its own, which
     * asks the server's {@code pg_stat_progress_copy}) and once at the end (on the caller's thread), always last.
     *
     * @return the final progress
     */
    public Progress load(Spec spec, Consumer<Progress> onProgress) {
        PostgresqlConnectionFactory factory = pg.connectionFactory("rigscope-seed");
        long tenantId = Provisioning.tenantId(factory, spec.tenant());
        String[] meters = Provisioning.METERS.stream().map(Provisioning.Meter::name).toArray(String[]::new);
        String nonce = Long.toString(System.currentTimeMillis(), 36);
        Instant end = Instant.now();
        long spanUs = Duration.ofDays(30).toNanos() / 1000;
        long endUs = end.getEpochSecond() * 1_000_000 + end.getNano() / 1000;
        AtomicLong committed = new AtomicLong();
        long startNs = System.nanoTime();
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "seed-progress");
            t.setDaemon(true);
            return t;
        });
        // a tick whose query was still running when the load ended must not report after the final progress
        Object reporting = new Object();
        AtomicBoolean finished = new AtomicBoolean();
        ticker.scheduleAtFixedRate(() -> {
            long done = committed.get();
            long inCopy = copyProgress(factory);
            synchronized (reporting) {
                if (!finished.get()) {
                    onProgress.accept(new Progress(Math.min(spec.rows(), done + inCopy), done, spec.rows(),
                            Duration.ofNanos(System.nanoTime() - startNs)));
                }
            }
        }, 1, 1, TimeUnit.SECONDS);
        try {
            long chunks = (spec.rows() + spec.rowsPerCopy() - 1) / spec.rowsPerCopy();
            Flux.usingWhen(factory.create(), c -> Flux.range(0, (int) chunks).concatMap(chunk -> {
                long from = (long) chunk * spec.rowsPerCopy();
                long to = Math.min(spec.rows(), from + spec.rowsPerCopy());
                return copy(c, from, to, tenantId, spec.customers(), meters, nonce, endUs, spanUs)
                        .doOnNext(n -> committed.addAndGet(n));
            }), PostgresqlConnection::close).blockLast(Duration.ofHours(6));
        } finally {
            ticker.shutdownNow();
        }
        Progress last = new Progress(committed.get(), committed.get(), spec.rows(),
                Duration.ofNanos(System.nanoTime() - startNs));
        synchronized (reporting) {
            finished.set(true);
            onProgress.accept(last);
        }
        return last;
    }

    /** Rows the running COPY into usage_events has processed, 0 when none runs or the view is unreadable. */
    private static long copyProgress(PostgresqlConnectionFactory factory) {
        try {
            List<Long> n = Sql.blockList(factory, Duration.ofSeconds(5), "SELECT coalesce(sum(tuples_processed), 0) "
                    + "AS n FROM pg_stat_progress_copy WHERE relid = to_regclass('usage_events')", r -> Sql.longOf(r, "n"));
            return n.isEmpty() ? 0 : n.get(0);
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private static Mono<Long> copy(PostgresqlConnection c, long from, long to, long tenantId, int customers,
                                   String[] meters, String nonce, long endUs, long spanUs) {
        Flux<ByteBuf> data = Flux.generate(() -> from, (Long next, reactor.core.publisher.SynchronousSink<ByteBuf> sink) -> {
            if (next >= to) {
                sink.complete();
                return next;
            }
            long stop = Math.min(to, next + ROWS_PER_BUFFER);
            StringBuilder sb = new StringBuilder((int) (stop - next) * 160);
            for (long n = next; n < stop; n++) {
                SplittableRandom r = new SplittableRandom(n * 0x9E3779B97F4A7C15L + 17);
                long tsUs = endUs - 1 - r.nextLong(spanUs);
                sb.append(tenantId).append('\t')
                        .append(Provisioning.customerId(1 + r.nextInt(customers))).append('\t')
                        .append(meters[r.nextInt(meters.length)]).append('\t')
                        .append(1 + r.nextInt(100)).append('\t')
                        .append(Instant.ofEpochSecond(tsUs / 1_000_000, (tsUs % 1_000_000) * 1000)).append('\t')
                        .append("seed-").append(nonce).append('-').append(n).append('\t')
                        .append("{\"region\":\"").append(REGIONS[r.nextInt(REGIONS.length)])
                        .append("\",\"plan\":\"").append(PLANS[r.nextInt(PLANS.length)]).append("\"}")
                        .append('\n');
            }
            sink.next(Unpooled.wrappedBuffer(sb.toString().getBytes(StandardCharsets.UTF_8)));
            return stop;
        });
        return c.copyIn("COPY usage_events (tenant_id, customer_id, meter, quantity, event_time, idempotency_key, "
                + "properties) FROM STDIN", data);
    }
}
