package io.rigscope.analyzer.telemetry;

import io.rigscope.model.topic.Topic;
import java.util.Optional;

/**
 * The telemetry streams the analyzer follows beside the load's, and how a record of each is placed in time to
 * say whether the stream covered a span: a periodic stream covers {@code [start, end)} when it has a record
 * within {@link #toleranceSec()} of the span (its cadence plus delivery slack); an event stream (the Postgres
 * log) emits only when something happens, so it counts as present over any span once it delivered a record in
 * the series.
 *
 * <p>Tolerance: a stream's records are taken to cover {@code ±toleranceSec} around themselves, where
 * {@code toleranceSec} is twice the stream's resolution (the smallest gap seen between its records, or its
 * nominal resolution until two arrived), at least
 * 2 s and at most {@link #maxToleranceSec()}: vmstat and the canary at 1 s join within 2 s, Enhanced Monitoring
 * at 60 s within 60 s, CloudWatch within 120 s.
 */
public enum TelemetryStream {
    /** vmstat, 1-5 s. */
    VMSTAT(Topic.VMSTAT, false, 1, 10),
    /** OS and disk metrics (local /proc or RDS Enhanced Monitoring), 1-60 s. */
    OS(Topic.OS, false, 1, 60),
    /** Active sessions by wait event (pg_stat_activity or Performance Insights), 1 s. */
    WAITS(Topic.WAITS, false, 1, 10),
    /** The DB sampler: WAL, checkpoints, WAL files, vacuum progress, table stats, 1-5 s. */
    DB(Topic.DB, false, 1, 10),
    /** Parsed Postgres log events (autovacuum, checkpoints, errors): on event. */
    PGLOG(Topic.PGLOG, true, 0, 2),
    /** The disk canary's fsync latency, 1 s. */
    CANARY(Topic.CANARY, false, 1, 10),
    /** CloudWatch datapoints, 60 s. */
    CLOUDWATCH(Topic.CLOUDWATCH, false, 60, 120),
    /** The service's process (CPU, RSS, threads, run-queue wait, stops, JVM pauses), 1 s. */
    PROCESS(Topic.PROCESS, false, 1, 10);

    private final Topic topic;
    private final boolean events;
    private final int nominalResolutionSec;
    private final int toleranceSec;

    TelemetryStream(Topic topic, boolean events, int nominalResolutionSec, int toleranceSec) {
        this.topic = topic;
        this.events = events;
        this.nominalResolutionSec = nominalResolutionSec;
        this.toleranceSec = toleranceSec;
    }

    /** The resolution assumed until two records show the stream's own, seconds (CloudWatch: its 60-s period). */
    public int nominalResolutionSec() {
        return nominalResolutionSec;
    }

    /** The topic the stream travels on. */
    public Topic topic() {
        return topic;
    }

    /** True for a stream that emits only on events (present over a span once it delivered anything). */
    public boolean events() {
        return events;
    }

    /** The most a record of this stream may lie from a span and still cover it, seconds. */
    public int maxToleranceSec() {
        return toleranceSec;
    }

    /** The stream of a topic, if the topic carries telemetry. */
    public static Optional<TelemetryStream> of(Topic topic) {
        for (TelemetryStream s : values()) {
            if (s.topic == topic) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
