package io.rigscope.rig.method;

import io.r2dbc.spi.ConnectionFactory;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.Sample;
import io.rigscope.sut.db.PgUrl;
import io.rigscope.sut.db.Sql;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * After a repeat: what the database gained, by configured SQL, against what the generator claimed.
 *
 * <p>The SQL returns one row with two columns, {@code rows_written} and {@code qty_sum_gained}, and may use
 * the parameters {@code :window_start} and {@code :window_end} (timestamptz), {@code :run} (text) and
 * {@code :rep} (integer). The default ({@link #DEFAULT_SQL}) counts the reference SUT's rows by
 * {@code received_at} (the inserting transaction's start) in {@code [window_start, window_end)}.
 *
 * <p>The rule: a repeat is reconciled only when {@code rows_written == events_claimed} and
 * {@code qty_sum_gained == qty_sum_sent}; anything else, either way, is not.
 *
 * <p>Blocking; not for event loops.
 */
public final class Reconciliation {

    /** Rows and Σ quantity the reference SUT stored in the window. */
    public static final String DEFAULT_SQL = """
            SELECT count(*) AS rows_written, coalesce(sum(quantity), 0) AS qty_sum_gained
            FROM usage_events
            WHERE received_at >= :window_start AND received_at < :window_end""";

    /**
     * What the generator says it delivered in the repeat: events in 2xx answers and the Σ quantity it sent in them.
     *
     * @param eventsClaimed events the SUT acknowledged (sum of 2xx batch sizes)
     * @param qtySumSent sum of those events' quantities
     */
    public record Claim(long eventsClaimed, long qtySumSent) {
        public static final Claim NONE = new Claim(0, 0);

        public Claim {
            if (eventsClaimed < 0 || qtySumSent < 0) {
                throw new IllegalArgumentException("a claim cannot be negative: events " + eventsClaimed + ", qty " + qtySumSent);
            }
        }

        /** What one sample claims: its batch and Σ quantity when it was answered 2xx without error, else nothing. */
        public static Claim of(Sample s) {
            return s.status() / 100 == 2 && !s.failed() ? new Claim(s.batch(), s.qty()) : NONE;
        }

        public Claim plus(Claim other) {
            return new Claim(eventsClaimed + other.eventsClaimed, qtySumSent + other.qtySumSent);
        }
    }

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

        /**
         * {@code [firstStart - margin, lastEnd + margin)}: from the repeat's start to its last answer, widened on
         * both sides by a margin that covers the rig-database clock difference and stays inside the cool-down.
         */
        public static Window around(Instant firstStart, Instant lastEnd, Duration margin) {
            return new Window(firstStart.minus(margin), lastEnd.plus(margin));
        }
    }

    /**
     * The comparison. {@link #toMarkerData()} is the marker's {@code data}.
     */
    public record Result(long rowsWritten, long eventsClaimed, long qtySumSent, long qtySumGained) {
        /** rows == claimed and Σ gained == Σ sent. */
        public boolean reconciled() {
            return rowsWritten == eventsClaimed && qtySumGained == qtySumSent;
        }

        /** {@code {"rows_written":N,"events_claimed":N,"qty_sum_sent":N,"qty_sum_gained":N,"reconciled":bool}} */
        public Map<String, Object> toMarkerData() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rows_written", rowsWritten);
            m.put("events_claimed", eventsClaimed);
            m.put("qty_sum_sent", qtySumSent);
            m.put("qty_sum_gained", qtySumGained);
            m.put("reconciled", reconciled());
            return m;
        }

        /** A {@link Marker.Kind#RECONCILIATION} marker for the repeat. */
        public Marker toMarker(String run, int rep, String src, long tsUs, String phase) {
            return new Marker(run, rep, src, tsUs, Marker.Kind.RECONCILIATION, phase, toMarkerData());
        }

        @Override
        public String toString() {
            return (reconciled() ? "reconciled" : "UNRECONCILED") + ": rows " + rowsWritten + " / claimed "
                    + eventsClaimed + ", qty gained " + qtySumGained + " / sent " + qtySumSent;
        }
    }

    private final ConnectionFactory factory;
    private final NamedSql sql;

    /**
     * @param pg the database, as a role that can read the counted table
     * @param configuredSql the reconciliation SQL, or null for {@link #DEFAULT_SQL}
     */
    public Reconciliation(PgUrl pg, String configuredSql) {
        this.factory = pg.connectionFactory("rigscope-reconcile");
        this.sql = NamedSql.parse(configuredSql == null ? DEFAULT_SQL : configuredSql);
    }

    /** Runs the SQL for the repeat's window and compares it with the claim. */
    public Result reconcile(String run, int rep, Window window, Claim claim) {
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
        return new Result(rows.get(0)[0], claim.eventsClaimed(), claim.qtySumSent(), rows.get(0)[1]);
    }
}
