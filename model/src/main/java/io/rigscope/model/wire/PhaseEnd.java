package io.rigscope.model.wire;

import java.util.Map;

/**
 * {@link Marker.Kind#PHASE_END}. The analyzer reads {@code rows_per_s} of the {@code denominator} phase.
 *
 * @param schedule a generator's schedule facts when its plan is a phase, or null
 * @param rowsPerSec the denominator's rows/s (pgbench: the database alone), or null
 * @param tps the denominator's transactions/s, or null
 * @param batch rows per transaction in the denominator, or null
 * @param clients pgbench clients, or null
 * @param failedTransactions pgbench transactions that failed, or null
 * @param other keys this record does not know, kept in order (see {@link MarkerBody})
 */
public record PhaseEnd(ScheduleEnd schedule, Double rowsPerSec, Double tps, Long batch, Long clients,
                       Long failedTransactions, Map<String, Object> other) implements MarkerBody {

    static final String ROWS_PER_S = "rows_per_s";
    static final String TPS = "tps";
    static final String BATCH = "batch";
    static final String CLIENTS = "clients";
    static final String FAILED_TRANSACTIONS = "failed_transactions";

    public PhaseEnd {
        other = BodyFields.copy(other);
    }

    /** The denominator phase's end. */
    public static PhaseEnd denominator(double rowsPerSec, double tps, long batch, long clients,
                                       long failedTransactions) {
        return new PhaseEnd(null, rowsPerSec, tps, batch, clients, failedTransactions, null);
    }

    @Override
    public Marker.Kind kind() {
        return Marker.Kind.PHASE_END;
    }

    static PhaseEnd read(BodyFields f) {
        ScheduleEnd schedule = ScheduleEnd.read(f);
        return new PhaseEnd(schedule, f.decimal(ROWS_PER_S), f.decimal(TPS), f.whole(BATCH), f.whole(CLIENTS),
                f.whole(FAILED_TRANSACTIONS), f.rest());
    }

    @Override
    public Map<String, Object> toData() {
        BodyFields.Writer w = BodyFields.out();
        if (schedule != null) {
            schedule.write(w);
        }
        return w.put(ROWS_PER_S, rowsPerSec).put(TPS, tps).put(BATCH, batch).put(CLIENTS, clients)
                .put(FAILED_TRANSACTIONS, failedTransactions).putAll(other).done();
    }
}
