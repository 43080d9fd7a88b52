package io.rigscope.model.topic;

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
    MARKERS("rig.markers", 1, "series/repeat/phase start and end, config, reconciliation, environment"),
    SAMPLES("rig.samples", 3, "finished requests, several to a record"),
    LEDGER("rig.ledger", 3, "per generator, scenario and second: scheduled, sent, dropped, completed"),
    HEALTH("rig.health", 1, "the generator's own health per second"),
    VMSTAT("rig.vmstat", 1, "one parsed vmstat line"),
    OS("rig.os", 1, "Enhanced-Monitoring-shaped OS and disk metrics"),
    WAITS("rig.waits", 1, "active sessions by wait event"),
    DB("rig.db", 1, "DB sampler: WAL, checkpoints, WAL files, vacuum progress, table stats"),
    PGLOG("rig.pglog", 1, "one parsed Postgres log event"),
    CLOUDWATCH("rig.cloudwatch", 1, "one CloudWatch datapoint"),
    CANARY("rig.canary", 1, "disk canary fsync latency per second"),
    VERDICTS("rig.verdicts", 3, "analyzer output"),
    DLQ("rig.dlq", 1, "records that could not be decoded, with the reason"),
    // appended, never inserted: a generator's spool file stores a topic by its ordinal
    PROCESS("rig.process", 1,
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
    private final int partitions;
    private final String description;

    Topic(String topicName, int partitions, String description) {
        this.topicName = topicName;
        this.partitions = partitions;
        this.description = description;
    }

    /** The Kafka topic name, e.g. {@code rig.samples}. */
    public String topicName() {
        return topicName;
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
