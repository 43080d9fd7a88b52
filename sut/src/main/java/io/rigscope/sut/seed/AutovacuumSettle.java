package io.rigscope.sut.seed;

import io.r2dbc.spi.ConnectionFactory;
import io.rigscope.pg.PgUrl;
import io.rigscope.sut.db.Sql;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Waits until autovacuum has nothing left to do on a table after a bulk load, so the first measured repeat
 * does not meet the load's vacuum and analyze.
 *
 * <p>The table is <em>settled</em> when, for {@link #QUIET_POLLS} consecutive polls a second apart, no
 * vacuum is in progress on it ({@code pg_stat_progress_vacuum}), no autovacuum worker is working on it
 * ({@code pg_stat_activity}), and none is due by the server's own trigger rules (PostgreSQL 13+):
 * <pre>
 *   n_dead_tup          &lt;= autovacuum_vacuum_threshold        + autovacuum_vacuum_scale_factor        * reltuples
 *   n_ins_since_vacuum  &lt;= autovacuum_vacuum_insert_threshold + autovacuum_vacuum_insert_scale_factor * reltuples
 *                          (skipped when the insert threshold is -1)
 *   n_mod_since_analyze &lt;= autovacuum_analyze_threshold       + autovacuum_analyze_scale_factor       * reltuples
 * </pre>
 * with {@code reltuples} from {@code pg_class} (0 when never analyzed). Per-table storage parameters are not
 * read: the cluster-wide settings decide. With {@code autovacuum = off} the table counts as settled at once.
 *
 * <p>Blocking; not for event loops.
 */
public final class AutovacuumSettle {

    /** Consecutive quiet polls that make a table settled. */
    public static final int QUIET_POLLS = 3;

    /**
     * One poll.
     *
     * @param autovacuumOn the server's {@code autovacuum} setting
     * @param vacuumRunning a vacuum (auto or manual) is in progress on the table, or an autovacuum worker works on it
     * @param vacuumDue the dead-tuple or insert trigger is exceeded
     * @param analyzeDue the analyze trigger is exceeded
     * @param phase the running vacuum's phase, or empty
     */
    public record Poll(boolean autovacuumOn, boolean vacuumRunning, boolean vacuumDue, boolean analyzeDue, String phase) {
        public boolean quiet() {
            return !autovacuumOn || (!vacuumRunning && !vacuumDue && !analyzeDue);
        }

        /** A short human line: what is still pending. */
        public String describe() {
            if (!autovacuumOn) {
                return "autovacuum is off";
            }
            if (vacuumRunning) {
                return "vacuum running" + (phase.isEmpty() ? "" : " (" + phase + ")");
            }
            if (vacuumDue || analyzeDue) {
                return (vacuumDue ? "vacuum" : "") + (vacuumDue && analyzeDue ? " and " : "")
                        + (analyzeDue ? "analyze" : "") + " due, waiting for a worker";
            }
            return "quiet";
        }
    }

    /**
     * The outcome.
     *
     * @param settled true when the table settled before the timeout
     * @param waited how long it took
     * @param last the last poll
     */
    public record Result(boolean settled, Duration waited, Poll last) {
    }

    private static final String POLL_SQL = """
            SELECT current_setting('autovacuum')::bool AS av_on,
                   s.n_dead_tup, s.n_ins_since_vacuum, s.n_mod_since_analyze,
                   greatest(c.reltuples, 0)::float8 AS reltuples,
                   current_setting('autovacuum_vacuum_threshold')::float8 AS vt,
                   current_setting('autovacuum_vacuum_scale_factor')::float8 AS vs,
                   current_setting('autovacuum_vacuum_insert_threshold')::float8 AS it,
                   current_setting('autovacuum_vacuum_insert_scale_factor')::float8 AS isf,
                   current_setting('autovacuum_analyze_threshold')::float8 AS at,
                   current_setting('autovacuum_analyze_scale_factor')::float8 AS asf,
                   (SELECT p.phase FROM pg_stat_progress_vacuum p WHERE p.relid = c.oid LIMIT 1) AS phase,
                   (SELECT count(*) FROM pg_stat_activity a WHERE a.backend_type = 'autovacuum worker'
                        AND a.datname = current_database() AND a.query ILIKE '%' || c.relname || '%') AS workers
            FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
            WHERE s.relid = to_regclass($1)""";

    private final ConnectionFactory factory;
    private final String table;

    /** @param table the table, as {@code to_regclass} reads it (e.g. {@code usage_events}) */
    public AutovacuumSettle(PgUrl pg, String table) {
        this.factory = pg.connectionFactory("rigscope-settle");
        this.table = Objects.requireNonNull(table, "table");
    }

    /** One poll now. */
    public Poll poll() {
        List<Poll> polls = Sql.blockList(factory, Duration.ofSeconds(30), POLL_SQL, r -> {
            double tuples = ((Number) r.get("reltuples")).doubleValue();
            double dead = Sql.longOf(r, "n_dead_tup");
            double ins = Sql.longOf(r, "n_ins_since_vacuum");
            double mod = Sql.longOf(r, "n_mod_since_analyze");
            double vt = num(r.get("vt"));
            double vs = num(r.get("vs"));
            double it = num(r.get("it"));
            double isf = num(r.get("isf"));
            double at = num(r.get("at"));
            double asf = num(r.get("asf"));
            boolean vacuumDue = dead > vt + vs * tuples || (it >= 0 && ins > it + isf * tuples);
            boolean analyzeDue = mod > at + asf * tuples;
            String phase = r.get("phase", String.class);
            boolean running = phase != null || Sql.longOf(r, "workers") > 0;
            return new Poll(Boolean.TRUE.equals(r.get("av_on", Boolean.class)), running, vacuumDue, analyzeDue,
                    phase == null ? "" : phase);
        }, table);
        if (polls.isEmpty()) {
            throw new IllegalStateException("no table '" + table + "' in " + factory);
        }
        return polls.get(0);
    }

    /**
     * Polls once a second until settled or {@code timeout}, reporting each poll.
     *
     * @throws IllegalStateException if interrupted (the interrupt flag is kept)
     */
    public Result await(Duration timeout, Consumer<Poll> onPoll) {
        long startNs = System.nanoTime();
        int quiet = 0;
        Poll last;
        while (true) {
            last = poll();
            onPoll.accept(last);
            quiet = last.quiet() ? quiet + 1 : 0;
            Duration waited = Duration.ofNanos(System.nanoTime() - startNs);
            if (quiet >= QUIET_POLLS || !last.autovacuumOn()) {
                return new Result(true, waited, last);
            }
            if (waited.compareTo(timeout) >= 0) {
                return new Result(false, waited, last);
            }
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for autovacuum to settle", e);
            }
        }
    }

    private static double num(Object o) {
        return ((Number) o).doubleValue();
    }
}
