package io.rigscope.model.wire;

/**
 * What the database gained during one repeat, counted by the series' reconciliation SQL: the checked content of a
 * {@link Marker.Kind#RECONCILIATION} marker ({@link Reconciliation}). It carries only the database's side; what the
 * load claims (events in 2xx answers and their Σ quantity) the analyzer derives from the samples themselves, and
 * compares, once.
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

    public DatabaseGain {
        Checks.header(run, rep, src, ts);
        if (rep < 1) {
            throw new IllegalArgumentException("a database gain belongs to a repeat (rep >= 1), got rep " + rep);
        }
        Checks.nonNegative(rowsWritten, Reconciliation.ROWS_WRITTEN);
        Checks.nonNegative(qtySumGained, Reconciliation.QTY_SUM_GAINED);
    }

    /** As published: a RECONCILIATION marker. */
    public Marker toMarker() {
        return new Marker(run, rep, src, ts, phase, new Reconciliation(rowsWritten, qtySumGained));
    }

    /**
     * Reads a RECONCILIATION marker.
     *
     * @throws IllegalArgumentException naming the key when the marker is of another kind or a count is missing,
     *     not a whole number, or negative
     */
    public static DatabaseGain of(Marker m) {
        if (!(m.body() instanceof Reconciliation r)) {
            throw new IllegalArgumentException("not a RECONCILIATION marker: " + m.kind());
        }
        return new DatabaseGain(m.run(), m.rep(), m.src(), m.ts(), m.phase(),
                count(m, r.rowsWritten(), r, Reconciliation.ROWS_WRITTEN),
                count(m, r.qtySumGained(), r, Reconciliation.QTY_SUM_GAINED));
    }

    private static long count(Marker m, Long value, Reconciliation r, String key) {
        if (value != null) {
            return value;
        }
        Object v = r.other().get(key);
        throw new IllegalArgumentException("RECONCILIATION marker of rep " + m.rep() + ": " + key
                + (v == null ? " is missing" : " is not a whole number: " + v));
    }
}
