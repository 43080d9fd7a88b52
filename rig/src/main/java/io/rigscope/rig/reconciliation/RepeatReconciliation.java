package io.rigscope.rig.reconciliation;

import io.rigscope.model.wire.DatabaseGain;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.pg.PgUrl;
import io.rigscope.rig.options.PgTarget;
import io.rigscope.rig.options.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a command that runs one repeat apart from {@code run} ({@code generate --rep N}, {@code collect k6}) counts in
 * the database when the repeat ends: the user's reconciliation SQL ({@link Reconciliation}, with
 * {@code :window_start}/{@code :window_end} bound to the repeat's window, {@code :run} and {@code :rep}), published as
 * the repeat's RECONCILIATION marker for the analyzer to compare with its claims. Counting only: the analyzer
 * judges.
 *
 * <p>Blocking (a query); call it off any event loop, once the repeat's load has ended.
 */
public final class RepeatReconciliation {

    private final Reconciliation reconciliation;
    private final String where;

    private RepeatReconciliation(Reconciliation reconciliation, String where) {
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
    public static RepeatReconciliation of(String pgFlag, String pgUrl, String sqlFlag, String sql) {
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
            return new RepeatReconciliation(new Reconciliation(pg, text), pg.redacted());
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
