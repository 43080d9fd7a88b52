package io.rigscope.collectors.db;

import io.rigscope.model.topic.Topic;
import static io.rigscope.collectors.pg.PgConnector.dbl;
import static io.rigscope.collectors.pg.PgConnector.lng;
import static io.rigscope.collectors.pg.PgConnector.optional;
import static io.rigscope.collectors.pg.PgConnector.rows;

import io.r2dbc.spi.Connection;
import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.Resilient;
import io.rigscope.collectors.pg.PgConnector;
import io.rigscope.pg.PgUrl;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.WireRecord;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The DB sampler on {@code rig.db}: every interval, one {@link DbSample} read over R2DBC, version-aware
 * (PostgreSQL 15 to 18), needing no more than the {@code pg_monitor} role.
 *
 * <ul>
 *   <li>pg_stat_wal: records, fpi, bytes, buffers_full, as deltas;</li>
 *   <li>checkpoints, cumulative: pg_stat_bgwriter before 17, pg_stat_checkpointer from 17;</li>
 *   <li>WAL segment files present and their bytes: pg_ls_waldir() (granted to pg_monitor);</li>
 *   <li>every row of pg_stat_progress_vacuum (a table in another database shows as {@code db:oid});</li>
 *   <li>pg_stat_user_tables of the configured tables ({@code name} or {@code schema.name});</li>
 *   <li>pg_stat_database of the connected database: commits, rollbacks, blks_read, blks_hit, as deltas;</li>
 *   <li>pg_stat_io (16+) writes and extends of backend_type 'autovacuum worker', as deltas.</li>
 * </ul>
 * A part that the version lacks or the role may not read is null; the first reading has interval 0 and zero
 * deltas. A counter that goes backwards (stats reset) gives a zero delta and a new baseline. A lost
 * connection ends the attempt: gap marker, reconnect with backoff.
 */
public final class DbSampler {

    /**
     * @param pgUrl the database to sample
     * @param tables tables to report ({@code name} or {@code schema.name})
     * @param interval time between readings
     */
    public record Config(PgUrl pgUrl, List<String> tables, Duration interval) {
        public Config {
            Objects.requireNonNull(pgUrl, "PostgreSQL URL");
            tables = tables == null ? List.of() : List.copyOf(tables);
            interval = interval == null ? Duration.ofSeconds(1) : interval;
        }
    }

    private final Config config;
    private final CollectorContext ctx;
    private final PgConnector connector;

    public DbSampler(Config config, CollectorContext ctx) {
        this.config = Objects.requireNonNull(config, "config");
        this.ctx = Objects.requireNonNull(ctx, "ctx");
        this.connector = new PgConnector(config.pgUrl(), "db");
    }

    public String src() {
        return ctx.src("db");
    }

    /** A cold, endless Flux of samples and gap markers. */
    public Flux<WireRecord> records() {
        return records(Schedulers.parallel(), Backoff.defaults());
    }

    Flux<WireRecord> records(Scheduler timer, Backoff backoff) {
        return Resilient.forever(ctx, src(), Topic.DB, () -> connector.withConnection(c ->
                rows(c, "select current_setting('server_version_num')::int", r -> r.get(0, Integer.class)).next()
                        .flatMapMany(version -> {
                            var deltas = new Deltas();
                            return Flux.interval(Duration.ZERO, config.interval(), timer).onBackpressureDrop()
                                    .concatMap(tick -> read(c, version, deltas));
                        })), backoff, timer);
    }

    private Mono<WireRecord> read(Connection c, int version, Deltas deltas) {
        long nowNs = System.nanoTime();
        long tsUs = ctx.nowUs();
        Mono<Optional<long[]>> wal = part(rows(c, "select wal_records::bigint, wal_fpi::bigint, wal_bytes::bigint,"
                + " wal_buffers_full::bigint from pg_stat_wal", r -> new long[] {lng(r, 0), lng(r, 1), lng(r, 2), lng(r, 3)}));
        Mono<Optional<DbSample.Checkpoints>> ckpt = part(rows(c, checkpointSql(version), r -> new DbSample.Checkpoints(lng(r, 0),
                lng(r, 1), lng(r, 2), dbl(r, 3), dbl(r, 4))));
        Mono<Optional<DbSample.WalDir>> walDir = part(rows(c, "select count(*)::bigint, coalesce(sum(size), 0)::bigint"
                + " from pg_ls_waldir() where name ~ '^[0-9A-F]{24}$'", r -> new DbSample.WalDir((int) lng(r, 0), lng(r, 1))));
        Mono<List<DbSample.VacuumProgress>> vacuums = optional(rows(c, "select pid, case when datname ="
                + " current_database() then relid::regclass::text else datname || ':' || relid::text end, phase,"
                + " heap_blks_total::bigint, heap_blks_scanned::bigint, heap_blks_vacuumed::bigint,"
                + " index_vacuum_count::bigint from pg_stat_progress_vacuum order by pid",
                r -> new DbSample.VacuumProgress(r.get(0, Integer.class), r.get(1, String.class), r.get(2, String.class),
                        lng(r, 3), lng(r, 4), lng(r, 5), lng(r, 6))).collectList()).defaultIfEmpty(List.of());
        Mono<List<DbSample.TableStats>> tables = config.tables().isEmpty() ? Mono.just(List.of())
                : optional(rows(c, "select schemaname || '.' || relname, n_live_tup::bigint, n_dead_tup::bigint,"
                        + " n_ins_since_vacuum::bigint, autovacuum_count::bigint,"
                        + " (extract(epoch from last_autovacuum) * 1000000)::bigint from pg_stat_user_tables"
                        + " where relname = any($1) or schemaname || '.' || relname = any($1) order by 1",
                        r -> new DbSample.TableStats(r.get(0, String.class), lng(r, 1), lng(r, 2), lng(r, 3), lng(r, 4),
                                r.get(5, Long.class)), (Object) config.tables().toArray(new String[0])).collectList())
                        .defaultIfEmpty(List.of());
        Mono<Optional<long[]>> db = part(rows(c, "select xact_commit::bigint, xact_rollback::bigint, blks_read::bigint,"
                + " blks_hit::bigint from pg_stat_database where datname = current_database()",
                r -> new long[] {lng(r, 0), lng(r, 1), lng(r, 2), lng(r, 3)}));
        Mono<Optional<long[]>> io = ioSql(version)
                .map(sql -> part(rows(c, sql, r -> new long[] {lng(r, 0), lng(r, 1)})))
                .orElse(Mono.just(Optional.empty()));
        return Mono.zip(args -> build(args, version, tsUs, nowNs, deltas), wal, ckpt, walDir, vacuums, tables, db, io);
    }

    @SuppressWarnings("unchecked")
    private WireRecord build(Object[] a, int version, long tsUs, long nowNs, Deltas d) {
        long intervalMs = d.lastNs < 0 ? 0 : (nowNs - d.lastNs) / 1_000_000;
        d.lastNs = nowNs;
        Optional<long[]> wal = (Optional<long[]>) a[0];
        Optional<long[]> db = (Optional<long[]>) a[5];
        Optional<long[]> io = (Optional<long[]>) a[6];
        long[] walD = wal.map(v -> d.wal.delta(v)).orElse(null);
        long[] dbD = db.map(v -> d.db.delta(v)).orElse(null);
        long[] ioD = io.map(v -> d.io.delta(v)).orElse(null);
        return new DbSample(ctx.run(), ctx.rep(), src(), tsUs, version, intervalMs,
                walD == null ? null : new DbSample.Wal(walD[0], walD[1], walD[2], walD[3]),
                ((Optional<DbSample.Checkpoints>) a[1]).orElse(null), ((Optional<DbSample.WalDir>) a[2]).orElse(null),
                (List<DbSample.VacuumProgress>) a[3], (List<DbSample.TableStats>) a[4],
                dbD == null ? null : new DbSample.Database(dbD[0], dbD[1], dbD[2], dbD[3]),
                ioD == null ? null : new DbSample.Io(ioD[0], ioD[1]));
    }

    /** Checkpoint counters: pg_stat_checkpointer from 17 (server_version_num 170000), pg_stat_bgwriter before. */
    static String checkpointSql(int versionNum) {
        return versionNum >= 170000
                ? "select num_timed::bigint, num_requested::bigint, buffers_written::bigint, write_time::float8,"
                        + " sync_time::float8 from pg_stat_checkpointer"
                : "select checkpoints_timed::bigint, checkpoints_req::bigint, buffers_checkpoint::bigint,"
                        + " checkpoint_write_time::float8, checkpoint_sync_time::float8 from pg_stat_bgwriter";
    }

    /** Autovacuum IO from pg_stat_io, which exists from 16; empty before. */
    static Optional<String> ioSql(int versionNum) {
        return versionNum >= 160000
                ? Optional.of("select coalesce(sum(writes), 0)::bigint, coalesce(sum(extends), 0)::bigint"
                        + " from pg_stat_io where backend_type = 'autovacuum worker'")
                : Optional.empty();
    }

    private static <T> Mono<Optional<T>> part(Flux<T> rows) {
        return optional(rows.next()).map(Optional::of).defaultIfEmpty(Optional.empty());
    }

    /** The previous cumulative counters of one subscription. */
    private static final class Deltas {
        long lastNs = -1;
        final Counter wal = new Counter();
        final Counter db = new Counter();
        final Counter io = new Counter();
    }

    /** Turns cumulative counters into deltas; the first call and a counter going backwards give zeros. */
    static final class Counter {
        private long[] previous;

        long[] delta(long[] now) {
            long[] out = new long[now.length];
            if (previous != null && previous.length == now.length) {
                for (int i = 0; i < now.length; i++) {
                    out[i] = Math.max(0, now[i] - previous[i]);
                }
            }
            previous = now.clone();
            return out;
        }
    }
}
