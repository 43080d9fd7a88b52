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
import java.util.ArrayList;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.rig.options.PgTarget;
import io.rigscope.rig.options.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

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

    /**
     * SQL with named parameters ({@code :window_start}) turned into PostgreSQL's positional ones ({@code $1}),
     * so configured queries can be written readably. {@code ::type} casts, string literals, quoted identifiers
     * and comments are left alone. The same name used twice binds the same value twice.
     *
     * @param sql the positional SQL
     * @param names the parameter name of each position, {@code $1} first
     */
    public record NamedSql(String sql, List<String> names) {

        public NamedSql {
            Objects.requireNonNull(sql, "sql");
            names = List.copyOf(names);
        }

        /** Parses configured SQL. */
        public static NamedSql parse(String text) {
            Objects.requireNonNull(text, "sql");
            StringBuilder out = new StringBuilder(text.length());
            List<String> names = new ArrayList<>();
            int i = 0;
            int n = text.length();
            while (i < n) {
                char ch = text.charAt(i);
                if (ch == '\'' || ch == '"') {
                    int end = text.indexOf(ch, i + 1);
                    end = end < 0 ? n : end + 1;
                    out.append(text, i, end);
                    i = end;
                } else if (ch == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                    int end = text.indexOf('\n', i);
                    end = end < 0 ? n : end;
                    out.append(text, i, end);
                    i = end;
                } else if (ch == ':' && i + 1 < n && text.charAt(i + 1) == ':') {
                    out.append("::");
                    i += 2;
                } else if (ch == ':' && i + 1 < n && (Character.isLetter(text.charAt(i + 1)) || text.charAt(i + 1) == '_')) {
                    int j = i + 1;
                    while (j < n && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_')) {
                        j++;
                    }
                    names.add(text.substring(i + 1, j));
                    out.append('$').append(names.size());
                    i = j;
                } else {
                    out.append(ch);
                    i++;
                }
            }
            return new NamedSql(out.toString(), names);
        }

        /**
         * The positional arguments for {@code values}.
         *
         * @throws IllegalArgumentException naming a parameter the SQL uses but {@code values} lacks
         */
        public Object[] args(Map<String, ?> values) {
            Object[] args = new Object[names.size()];
            for (int k = 0; k < names.size(); k++) {
                String name = names.get(k);
                if (!values.containsKey(name) || values.get(name) == null) {
                    throw new IllegalArgumentException("the SQL uses :" + name + ", which is not one of the parameters "
                            + values.keySet());
                }
                args[k] = values.get(name);
            }
            return args;
        }
    }

    /**
     * What a command that runs one repeat apart from {@code run} ({@code generate --rep N}, {@code collect k6}) counts in
     * the database when the repeat ends: the user's reconciliation SQL ({@link Reconciliation}, with
     * {@code :window_start}/{@code :window_end} bound to the repeat's window, {@code :run} and {@code :rep}), published as
     * the repeat's RECONCILIATION marker for the analyzer to compare with its claims. Counting only: the analyzer
     * judges.
     *
     * <p>Blocking (a query); call it off any event loop, once the repeat's load has ended.
     */
    public static final class Repeat {

        private final Reconciliation reconciliation;
        private final String where;

        private Repeat(Reconciliation reconciliation, String where) {
            this.reconciliation = reconciliation;
            this.where = where;
        }

        /**
         * The reconciliation the flags ask for, or null when {@code sql} is null (none: the series stays UNRECONCILED
         * unless something else counts).
         *
         * @param pgFlag the database URL's flag, for errors ({@code --pg})
         * @param pgUrl the database, or null
         * @param sqlFlag the SQL's flag, for errors ({@code --reconciliation-sql})
         * @param sql the SQL, or {@code @FILE} to read it from a file, or null
         * @throws UsageException (exit 2) for SQL without a database, an unreadable file, or SQL that is not usable
         */
        public static Repeat of(String pgFlag, String pgUrl, String sqlFlag, String sql) {
            if (sql == null) {
                return null;
            }
            if (pgUrl == null) {
                throw new UsageException(sqlFlag + " needs " + pgFlag + " URL: the database it counts in");
            }
            String text = sql;
            if (sql.startsWith("@")) {
                try {
                    text = Files.readString(Path.of(sql.substring(1)));
                } catch (IOException e) {
                    throw new UsageException(sqlFlag + " " + sql + ": cannot read the file (" + e.getMessage() + ")");
                }
            }
            if (text.isBlank()) {
                throw new UsageException(sqlFlag + " is blank: give the SQL that returns rows_written and qty_sum_gained");
            }
            PgUrl pg = PgTarget.parse(pgFlag, pgUrl);
            try {
                return new Repeat(new Reconciliation(pg, text), pg.redacted());
            } catch (IllegalArgumentException e) {
                throw new UsageException(sqlFlag + ": " + e.getMessage());
            }
        }

        /**
         * Counts what the database gained over the repeat's window {@code [start, end)} and hands the RECONCILIATION
         * marker to {@code out}; prints one line on {@code console}.
         *
         * @param src who counted (the marker's {@code src})
         * @param phase the repeat's phase, or null
         * @return what it counted
         */
        public DatabaseGain publish(String series, int rep, String src, String phase, Instant start, Instant end,
                                    Consumer<WireRecord> out, PrintStream console) {
            Objects.requireNonNull(out, "out");
            DatabaseGain gain = reconciliation.count(series, rep, src, Math.max(1, end.toEpochMilli() * 1_000L), phase,
                    new Reconciliation.Window(start, end));
            out.accept(gain.toMarker());
            console.printf("reconciliation: repeat %d, the database gained %d rows, Σ quantity %d over [%s, %s) in %s "
                    + "(the analyzer compares them with its claims)%n", rep, gain.rowsWritten(), gain.qtySumGained(),
                    start, end, where);
            return gain;
        }
    }
}
