package io.rigscope.model.wire;

import java.util.Map;

/**
 * {@link Marker.Kind#RECONCILIATION}: what the database gained in one repeat; {@link DatabaseGain} is the checked
 * form the analyzer uses.
 *
 * @param rowsWritten rows the repeat's requests stored, or null when the marker lacks a whole count
 * @param qtySumGained Σ quantity of those rows, or null when the marker lacks a whole count
 * @param other keys this record does not know, kept in order (older markers' {@code events_claimed},
 *     {@code qty_sum_sent}, {@code reconciled}: ignored)
 */
public record Reconciliation(Long rowsWritten, Long qtySumGained, Map<String, Object> other) implements MarkerBody {

    /** Data key of {@link #rowsWritten}, for messages. */
    public static final String ROWS_WRITTEN = "rows_written";
    /** Data key of {@link #qtySumGained}, for messages. */
    public static final String QTY_SUM_GAINED = "qty_sum_gained";

    public Reconciliation {
        other = BodyFields.copy(other);
    }

    public Reconciliation(long rowsWritten, long qtySumGained) {
        this(Long.valueOf(rowsWritten), Long.valueOf(qtySumGained), null);
    }

    @Override
    public Marker.Kind kind() {
        return Marker.Kind.RECONCILIATION;
    }

    static Reconciliation read(BodyFields f) {
        return new Reconciliation(f.whole(ROWS_WRITTEN), f.whole(QTY_SUM_GAINED), f.rest());
    }

    @Override
    public Map<String, Object> toData() {
        return BodyFields.out().put(ROWS_WRITTEN, rowsWritten).put(QTY_SUM_GAINED, qtySumGained).putAll(other)
                .done();
    }
}
