package io.rigscope.model.topic;

import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.CloudWatchPoint;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.DeadLetter;
import io.rigscope.model.wire.Health;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.ProcessMetrics;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.Verdict;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import java.util.Map;
import java.util.Optional;

/**
 * The topic registry: every rigscope topic with its record type, partition count and retention.
 *
 * <p>Archives are kept: every topic is created with {@code retention.ms=-1} so a series can be replayed
 * at any later time. Every record is keyed by its series id, so one series lives in one partition of
 * each topic and its order is kept.
 */
public enum Topic {
    MARKERS("rig.markers", Marker.class, 1, "series/repeat/phase start and end, config, reconciliation, environment"),
    SAMPLES("rig.samples", SampleBatch.class, 3, "finished requests, several to a record"),
    LEDGER("rig.ledger", Ledger.class, 3, "per generator, scenario and second: scheduled, sent, dropped, completed"),
    HEALTH("rig.health", Health.class, 1, "the generator's own health per second"),
    VMSTAT("rig.vmstat", Vmstat.class, 1, "one parsed vmstat line"),
    OS("rig.os", OsMetrics.class, 1, "Enhanced-Monitoring-shaped OS and disk metrics"),
    WAITS("rig.waits", Waits.class, 1, "active sessions by wait event"),
    DB("rig.db", DbSample.class, 1, "DB sampler: WAL, checkpoints, WAL files, vacuum progress, table stats"),
    PGLOG("rig.pglog", PgLogEvent.class, 1, "one parsed Postgres log event"),
    CLOUDWATCH("rig.cloudwatch", CloudWatchPoint.class, 1, "one CloudWatch datapoint"),
    CANARY("rig.canary", Canary.class, 1, "disk canary fsync latency per second"),
    VERDICTS("rig.verdicts", Verdict.class, 3, "analyzer output"),
    DLQ("rig.dlq", DeadLetter.class, 1, "records that could not be decoded, with the reason"),
    // appended, never inserted: a generator's spool file stores a topic by its ordinal
    PROCESS("rig.process", ProcessMetrics.class, 1,
            "the service's process per second: CPU, RSS, threads, run-queue wait, stops, JVM pauses");

    /** Retention for every topic: kept forever, so archives can be replayed. */
    public static final String RETENTION_MS = "-1";

    private static final Map<String, Topic> BY_NAME;

    static {
        var byName = new java.util.HashMap<String, Topic>();
        for (Topic topic : values()) {
            byName.put(topic.topicName, topic);
        }
        BY_NAME = Map.copyOf(byName);
    }

    private final String topicName;
    private final Class<? extends WireRecord> recordType;
    private final int partitions;
    private final String description;

    Topic(String topicName, Class<? extends WireRecord> recordType, int partitions, String description) {
        this.topicName = topicName;
        this.recordType = recordType;
        this.partitions = partitions;
        this.description = description;
    }

    /** The Kafka topic name, e.g. {@code rig.samples}. */
    public String topicName() {
        return topicName;
    }

    /** The record type every value on this topic decodes to. */
    public Class<? extends WireRecord> recordType() {
        return recordType;
    }

    /** Partitions created by {@code rigscope topics}. */
    public int partitions() {
        return partitions;
    }

    /** One line on what a record is. */
    public String description() {
        return description;
    }

    /** The topic with this Kafka name, if it is a rigscope topic. */
    public static Optional<Topic> byName(String topicName) {
        return Optional.ofNullable(BY_NAME.get(topicName));
    }
}
