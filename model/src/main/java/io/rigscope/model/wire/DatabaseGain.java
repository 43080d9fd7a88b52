package io.rigscope.model.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the database gained during one repeat, counted by the series' reconciliation SQL: the typed content of a
 * {@link Marker.Kind#RECONCILIATION} marker. It carries only the database's side; what the load claims (events in
 * 2xx answers and their Σ quantity) the analyzer derives from the samples themselves, and compares, once.
 *
 * <p>Wire form: a RECONCILIATION marker whose {@code data} holds {@value #ROWS_WRITTEN} and
 * {@value #QTY_SUM_GAINED}. Older markers also carried the claim ({@code events_claimed}, {@code qty_sum_sent},
 * {@code reconciled}); those keys are ignored.
 *
 * @param run series id
 * @param rep the repeat (1 or more)
 * @param src who counted, e.g. {@code rig}
 * @param ts when it was counted, epoch µs
 * @param phase the repeat's phase, or null
 * @param rowsWritten rows the SQL counted in the repeat's window
 * @param qtySumGained the Σ quantity of those rows
 */
public record DatabaseGain(String run, int rep, String src, long ts, String phase, long rowsWritten,
                           long qtySumGained) {

    /** Data key: rows counted. */
    public static final String ROWS_WRITTEN = "rows_written";
    /** Data key: Σ quantity of the rows counted. */
    public static final String QTY_SUM_GAINED = "qty_sum_gained";

    public DatabaseGain {
        Checks.header(run, rep, src, ts);
        if (rep < 1) {
            throw new IllegalArgumentException("a database gain belongs to a repeat (rep >= 1), got rep " + rep);
        }
        Checks.nonNegative(rowsWritten, ROWS_WRITTEN);
        Checks.nonNegative(qtySumGained, QTY_SUM_GAINED);
    }

    /** As published: a RECONCILIATION marker. */
    public Marker toMarker() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(ROWS_WRITTEN, rowsWritten);
        data.put(QTY_SUM_GAINED, qtySumGained);
        return new Marker(run, rep, src, ts, Marker.Kind.RECONCILIATION, phase, data);
    }

    /**
     * Reads a RECONCILIATION marker.
     *
     * @throws IllegalArgumentException naming the key when the marker is of another kind or a count is missing,
     *     not a whole number, or negative
     */
    public static DatabaseGain of(Marker m) {
        if (m.kind() != Marker.Kind.RECONCILIATION) {
            throw new IllegalArgumentException("not a RECONCILIATION marker: " + m.kind());
        }
        return new DatabaseGain(m.run(), m.rep(), m.src(), m.ts(), m.phase(), count(m, ROWS_WRITTEN),
                count(m, QTY_SUM_GAINED));
    }

    private static long count(Marker m, String key) {
        Object v = m.data().get(key);
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
            return n.longValue();
        }
        throw new IllegalArgumentException("RECONCILIATION marker of rep " + m.rep() + ": " + key
                + (v == null ? " is missing" : " is not a whole number: " + v));
    }
}
