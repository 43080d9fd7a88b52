package io.rigscope.wire.kafka;

import io.rigscope.model.topic.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Creates rigscope's topics and counts what they hold. Blocking: call from a command thread, never from an
 * event loop.
 */
public final class TopicAdmin implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** The pause before asking again for partitions whose topic the broker's metadata does not name yet. */
    private static final long METADATA_RETRY_MS = 50;

    private final String bootstrap;
    private final KafkaClients clients;
    private final Admin admin;

    public TopicAdmin(String bootstrap) {
        this(KafkaClients.of(bootstrap));
    }

    /** An admin client with the user's client properties ({@link KafkaClients}). */
    public TopicAdmin(KafkaClients clients) {
        this.clients = java.util.Objects.requireNonNull(clients, "clients");
        this.bootstrap = clients.bootstrap();
        Properties p = new Properties();
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        this.admin = Admin.create(clients.applyTo(p));
    }

    /**
     * Creates every rigscope topic that does not exist yet, with its partitions and {@code retention.ms=-1}.
     *
     * @return the names of the topics this call created
     */
    public List<String> ensureTopics() {
        Set<String> existing = names();
        List<NewTopic> missing = new ArrayList<>();
        for (Topic topic : Topic.values()) {
            if (!existing.contains(topic.topicName())) {
                missing.add(new NewTopic(topic.topicName(), topic.partitions(), (short) 1)
                        .configs(Map.of("retention.ms", Topic.RETENTION_MS, "retention.bytes", "-1",
                                "max.message.bytes", String.valueOf(8 * 1024 * 1024))));
            }
        }
        List<String> created = new ArrayList<>();
        if (missing.isEmpty()) {
            return created;
        }
        var result = admin.createTopics(missing);
        for (NewTopic topic : missing) {
            try {
                result.values().get(topic.name()).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                created.add(topic.name());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("cannot create topic " + topic.name() + ": " + e.getCause(), e);
                }
            } catch (TimeoutException e) {
                throw new IllegalStateException("creating topic " + topic.name() + " timed out at " + bootstrap, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        awaitLeaders(created);
        return created;
    }

    /**
     * Waits until the leader of every partition of the rigscope {@code topics} answers for it (a ListOffsets, which
     * the admin client retries while the leader says NOT_LEADER_OR_FOLLOWER). A topic's creation completes once the
     * controller has recorded it, and the broker's metadata names the leader before it has opened the partition: a
     * producer writing at once then has one batch refused while a later one is appended, and an idempotent producer
     * retries the first against an out-of-order sequence until its delivery timeout (seen in a test that published
     * on a fresh broker: 2 records lost after 120 s).
     */
    private void awaitLeaders(List<String> topics) {
        Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
        for (Topic topic : Topic.values()) {
            if (topics.contains(topic.topicName())) {
                for (int p = 0; p < topic.partitions(); p++) {
                    partitions.put(new TopicPartition(topic.topicName(), p), OffsetSpec.latest());
                }
            }
        }
        if (partitions.isEmpty()) {
            return;
        }
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        try {
            while (true) {
                try {
                    admin.listOffsets(partitions).all().get(
                            Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    return;
                } catch (ExecutionException e) {
                    // the broker's metadata may not name a topic the controller has just created: ask again
                    if (!(e.getCause() instanceof RetriableException) || System.nanoTime() > deadline) {
                        throw new IllegalStateException("created topics " + topics + " but their partitions did "
                                + "not answer at " + bootstrap + ": " + e.getCause(), e);
                    }
                    Thread.sleep(METADATA_RETRY_MS);
                }
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("created topics " + topics + " but their partitions had no leader "
                    + "within " + TIMEOUT.toSeconds() + " s at " + bootstrap, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Creates a topic another program writes (not a rigscope topic) with one partition, so its writer's order is
     * kept, when it does not exist yet (the embedded broker creates no topic on first use).
     *
     * @return true when this call created it
     */
    public boolean ensureOnePartitionTopic(String name) {
        if (names().contains(name)) {
            return false;
        }
        try {
            admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                return false;
            }
            throw new IllegalStateException("cannot create topic " + name + ": " + e.getCause(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("creating topic " + name + " timed out at " + bootstrap, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Creates a reader's write-probe topic (one partition, records kept an hour) when it does not exist yet.
     *
     * @return true when this call created it
     */
    public boolean ensureProbeTopic(String name) {
        if (names().contains(name)) {
            return false;
        }
        try {
            admin.createTopics(List.of(new NewTopic(name, 1, (short) 1)
                            .configs(Map.of("retention.ms", String.valueOf(Duration.ofHours(1).toMillis())))))
                    .all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                return false;
            }
            throw new IllegalStateException("cannot create topic " + name + ": " + e.getCause(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("creating topic " + name + " timed out at " + bootstrap, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Names of all topics on the cluster. */
    public Set<String> names() {
        try {
            return admin.listTopics().names().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot list topics at " + bootstrap + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Counts records per topic and series (by key), reading every key once.
     *
     * @return topic name -> series -> record count, for each rigscope topic that exists
     */
    public Map<String, Map<String, Long>> countsBySeries() {
        Set<String> existing = names();
        Map<String, Map<String, Long>> counts = new TreeMap<>();
        Properties p = new Properties();
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        try (var consumer = new KafkaConsumer<>(clients.applyTo(p), new StringDeserializer(), new ByteArrayDeserializer())) {
            for (Topic topic : Topic.values()) {
                if (!existing.contains(topic.topicName())) {
                    continue;
                }
                Map<String, Long> bySeries = new TreeMap<>();
                counts.put(topic.topicName(), bySeries);
                List<TopicPartition> partitions = new ArrayList<>();
                consumer.partitionsFor(topic.topicName(), TIMEOUT)
                        .forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                Map<TopicPartition, Long> end = consumer.endOffsets(partitions, TIMEOUT);
                Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions, TIMEOUT);
                long remaining = 0;
                for (TopicPartition tp : partitions) {
                    remaining += end.get(tp) - begin.get(tp);
                }
                while (remaining > 0 && !done(consumer, end)) {
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                        bySeries.merge(r.key() == null ? "(no key)" : r.key(), 1L, Long::sum);
                    }
                }
            }
        }
        return counts;
    }

    private static boolean done(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (var e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
