package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;
import java.util.List;

/**
 * One DB sampler reading on {@code rig.db}. Counters named "delta" are differences since the previous
 * reading of the same sampler over {@code intervalMs}; other counters are as the server reports them. Any
 * part the server version or the role's grants do not offer is null.
 *
 * @param serverVersionNum {@code server_version_num}, e.g. 150018
 * @param intervalMs time since the previous reading, ms (0 on the first)
 * @param wal pg_stat_wal deltas
 * @param checkpoints checkpoint counters (pg_stat_bgwriter before 17, pg_stat_checkpointer from 17)
 * @param walDir WAL files present (pg_ls_waldir)
 * @param vacuums every row of pg_stat_progress_vacuum
 * @param tables stats of the configured tables
 * @param database pg_stat_database deltas for the target database
 * @param io pg_stat_io autovacuum deltas (16+)
 */
public record DbSample(String run, int rep, String src, long ts, int serverVersionNum, long intervalMs, Wal wal,
                       Checkpoints checkpoints, WalDir walDir, List<VacuumProgress> vacuums, List<TableStats> tables,
                       Database database, Io io) implements WireRecord {

    public DbSample {
        Checks.header(run, rep, src, ts);
        vacuums = vacuums == null ? List.of() : List.copyOf(vacuums);
        tables = tables == null ? List.of() : List.copyOf(tables);
    }

    @Override
    public Topic topic() {
        return Topic.DB;
    }

    /** pg_stat_wal deltas over the interval. */
    public record Wal(long records, long fpi, long bytes, long buffersFull) {
    }

    /** Cumulative checkpoint counters; times in ms. */
    public record Checkpoints(long timed, long requested, long buffersWritten, double writeTimeMs,
                             double syncTimeMs) {
    }

    /** WAL segment files present and their total size. */
    public record WalDir(int files, long bytes) {
    }

    /** One pg_stat_progress_vacuum row. */
    public record VacuumProgress(int pid, String table, String phase, long heapBlksTotal, long heapBlksScanned,
                                 long heapBlksVacuumed, long indexVacuumCount) {
    }

    /**
     * One configured table's pg_stat_user_tables row.
     *
     * @param lastAutovacuumUs epoch µs of the last autovacuum, null if never
     */
    public record TableStats(String table, long nLiveTup, long nDeadTup, long nInsSinceVacuum, long autovacuumCount,
                             Long lastAutovacuumUs) {
    }

    /** pg_stat_database deltas over the interval. */
    public record Database(long commits, long rollbacks, long blksRead, long blksHit) {
    }

    /** pg_stat_io deltas for backend_type 'autovacuum worker', in blocks. */
    public record Io(long autovacuumWrites, long autovacuumExtends) {
    }
}
