package io.rigscope.importers.k6.follow;

import io.rigscope.wire.kafka.KafkaClients;
import io.rigscope.wire.kafka.KafkaConsumers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * The topic k6's xk6-output-kafka extension writes, read from its start: each message one k6 sample in its
 * default {@code json} format (k6's JSON output envelope; lines of k6's own {@code --out json} are read too).
 * Its {@code influxdb} format (InfluxDB line protocol) is refused with {@link WrongFormat}, naming it.
 *
 * <p>xk6-output-kafka sends messages without a key, spread over the topic's partitions: order is k6's within a
 * partition only. A one-partition topic keeps k6's order; with several, the follower's lateness must cover the
 * spread. No consumer group, no committed offsets: every follow reads the whole topic. Not thread-safe.
 */
public final class K6Topic implements K6LineSource {

    /** A line of InfluxDB line protocol: {@code measurement[,tag=v...] field=v[,...] [timestamp]}. */
    private static final Pattern INFLUX_LINE = Pattern.compile("^[A-Za-z_][\\w.\\-]*[, ].*=.*");

    /** The topic holds a format rigscope does not read. */
    public static final class WrongFormat extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WrongFormat(String message) {
            super(message);
        }
    }

    private final String topic;
    private final Consumer<String> notes;
    private final KafkaConsumer<byte[], String> consumer;
    private boolean assigned;
    private boolean waitingTold;

    /**
     * @param clients the Kafka cluster k6 writes to, with the user's client properties
     * @param topic the topic ({@code k6 run --out xk6-kafka=brokers=...,topic=T})
     * @param notes receives one sentence per event worth telling (waiting for the topic, reading it)
     */
    public K6Topic(KafkaClients clients, String topic, Consumer<String> notes) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.notes = Objects.requireNonNull(notes, "notes");
        this.consumer = KafkaConsumers.textReader(clients, "rigscope-collect-k6"); // the user's properties win
    }

    @Override
    public String name() {
        return "topic:" + topic;
    }

    @Override
    public List<String> poll(Duration wait) {
        if (!assigned && !assign(wait)) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        for (ConsumerRecord<byte[], String> r : consumer.poll(wait)) {
            String value = r.value();
            if (value == null) {
                continue;
            }
            for (String line : value.split("\n")) {
                refuseInflux(line, r);
                lines.add(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
            }
        }
        return lines;
    }

    /** A message has no "last line cut short": each arrives whole. */
    @Override
    public String remainder() {
        return null;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }

    private boolean assign(Duration wait) {
        List<PartitionInfo> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10));
        if (partitions == null || partitions.isEmpty()) {
            if (!waitingTold) {
                notes.accept("waiting for topic " + topic + " to appear");
                waitingTold = true;
            }
            try {
                Thread.sleep(wait.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        }
        List<TopicPartition> tps = partitions.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(tps);
        consumer.seekToBeginning(tps);
        assigned = true;
        notes.accept("following topic " + topic + " (" + tps.size() + " partition" + (tps.size() == 1 ? "" : "s")
                + ", from its start)");
        return true;
    }

    private void refuseInflux(String line, ConsumerRecord<byte[], String> r) {
        String t = line.strip();
        if (!t.isEmpty() && t.charAt(0) != '{' && INFLUX_LINE.matcher(t).matches()) {
            throw new WrongFormat("topic " + topic + " holds InfluxDB line protocol (xk6-output-kafka's format=influxdb; "
                    + "partition " + r.partition() + " offset " + r.offset() + ": '" + abbreviate(t) + "'): rigscope "
                    + "reads its json format, the default: k6 run --out xk6-kafka=brokers=HOST:PORT,topic=" + topic);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
