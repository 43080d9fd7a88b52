package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One parsed Postgres log event on {@code rig.pglog}.
 *
 * @param ts the log line's own timestamp, epoch µs
 * @param kind what happened
 * @param pid the backend's process id, or null if the prefix does not carry it
 * @param table the table an autovacuum/autoanalyze worked on, schema-qualified as logged, or null
 * @param metrics numeric facts, keys snake_case with units, e.g. {@code pages_removed},
 *                {@code wal_records}, {@code wal_fpi}, {@code wal_bytes}, {@code elapsed_s},
 *                {@code wal_files_added}; see docs/wire-format.md for each kind's keys
 * @param message the log message as written (first line for multi-line entries); the whole raw text
 *                for {@link Kind#RAW}
 */
public record PgLogEvent(String run, int rep, String src, long ts, Kind kind, Integer pid, String table,
                         Map<String, Double> metrics, String message) implements WireRecord {

    /** The closed set of log event kinds. {@code RAW} is a line that no parser understood, kept as is. */
    public enum Kind {
        AUTOVACUUM, AUTOANALYZE, CHECKPOINT_START, CHECKPOINT_COMPLETE, ERROR, FATAL, PANIC, RAW
    }

    public PgLogEvent {
        Checks.header(run, rep, src, ts);
        Objects.requireNonNull(kind, "kind is missing");
        metrics = metrics == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(metrics));
    }

    @Override
    public Topic topic() {
        return Topic.PGLOG;
    }
}
