package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;

/**
 * One record on a rigscope topic. Every record is keyed by its series id ({@link #run()}) and carries
 * where it came from and when.
 *
 * <p>Implementations are immutable records that validate themselves in their compact constructors, so
 * a decoded record is always well formed: a payload that cannot build one is a dead letter
 * ({@link DeadLetter}), never a half-filled record.
 */
public sealed interface WireRecord
        permits Marker, SampleBatch, Ledger, Health, Vmstat, OsMetrics, Waits, DbSample, PgLogEvent,
                CloudWatchPoint, Canary, ProcessMetrics, Verdict, DeadLetter {

    /** The series id; also the Kafka key. Never blank. */
    String run();

    /** The repeat number, 1-based; 0 outside a repeat. */
    int rep();

    /** The producer id, e.g. {@code gen-1}, {@code vmstat@app-1}, {@code em@db-ABC}. Never blank. */
    String src();

    /** Epoch microseconds, UTC, from the source's own clock. */
    long ts();

    /** The topic this kind of record travels on. */
    Topic topic();
}
