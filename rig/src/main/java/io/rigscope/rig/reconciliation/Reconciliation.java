package io.rigscope.rig.reconciliation;

import io.r2dbc.spi.ConnectionFactory;
import io.rigscope.model.wire.DatabaseGain;
import io.rigscope.pg.PgUrl;
import io.rigscope.sut.db.Sql;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * After a repeat: what the database gained, by configured SQL. The analyzer compares it with what the samples
 * claim (events in 2xx answers that passed their checks, and their Σ quantity), once; this class only counts.
 *
 * <p>The SQL returns one row with two columns, {@code rows_written} and {@code qty_sum_gained}, and may use
 * the parameters {@code :window_start} and {@code :window_end} (timestamptz), {@code :run} (text) and
 * {@code :rep} (integer). It comes from the series file ({@code reconciliation_sql}); the reference SUT's is
 * {@code io.rigscope.sut.SutContract#RECONCILIATION_SQL}. Without one the series is UNRECONCILED.
 *
 * <p>Blocking; not for event loops.
 */
public final class Reconciliation {

    /**
     * The repeat's time window on the database's clock, {@code [start, end)}.
     */
    public record Window(Instant start, Instant end) {
        public Window {
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(end, "end");
            if (!end.isAfter(start)) {
                throw new IllegalArgumentException("the window must end after it starts: " + start + " .. " + end);
            }
        }
    }

    private final ConnectionFactory factory;
    private final NamedSql sql;

    /**
     * @param pg the database, as a role that can read the counted table
     * @param configuredSql the reconciliation SQL (never null: no SQL, no reconciliation)
     */
    public Reconciliation(PgUrl pg, String configuredSql) {
        this.factory = pg.connectionFactory("rigscope-reconcile");
        this.sql = NamedSql.parse(Objects.requireNonNull(configuredSql, "reconciliation SQL"));
    }

    /**
     * Runs the SQL for the repeat's window.
     *
     * @param src who counted (the gain's {@code src})
     * @param tsUs when, epoch µs
     * @param phase the repeat's phase, or null
     */
    public DatabaseGain count(String run, int rep, String src, long tsUs, String phase, Window window) {
        Map<String, Object> params = Map.of(
                "window_start", OffsetDateTime.ofInstant(window.start(), ZoneOffset.UTC),
                "window_end", OffsetDateTime.ofInstant(window.end(), ZoneOffset.UTC),
                "run", run,
                "rep", rep);
        List<long[]> rows = Sql.blockList(factory, Duration.ofMinutes(5), sql.sql(),
                r -> new long[] {Sql.longOf(r, "rows_written"), Sql.longOf(r, "qty_sum_gained")}, sql.args(params));
        if (rows.size() != 1) {
            throw new IllegalStateException("the reconciliation SQL must return exactly one row, got " + rows.size());
        }
        return new DatabaseGain(run, rep, src, tsUs, phase, rows.get(0)[0], rows.get(0)[1]);
    }
}
