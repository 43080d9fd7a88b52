package io.rigscope.wire.kafka;

import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The Kafka consumers rigscope makes outside {@code WireSource}, built here so that every Kafka client comes from
 * {@code wire} and carries the user's client properties ({@link KafkaClients}: {@code --kafka-property},
 * {@code --kafka-config}). Each consumer is the caller's: it polls it on one thread and closes it.
 */
public final class KafkaConsumers {

    private KafkaConsumers() {
    }

    /**
     * A member of consumer group {@code group} that commits its offsets by hand (auto-commit off, whatever the user
     * set), keys as text and values as bytes: {@code rigscope analyze} without {@code --series} following
     * {@code rig.markers}. The user's {@code group.id}, {@code auto.offset.reset} and {@code client.id} win over
     * {@code group}, {@code fromEarliest} and {@code clientId}.
     *
     * @param fromEarliest with no committed offset, start at the topic's beginning instead of its end
     */
    public static KafkaConsumer<String, byte[]> groupMember(KafkaClients clients, String group,
                                                            boolean fromEarliest, String clientId) {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(clientId, "clientId");
        Properties props = Objects.requireNonNull(clients, "clients").applyTo(new Properties());
        props.putIfAbsent(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromEarliest ? "earliest" : "latest");
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        return new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * A consumer of a foreign topic whose values are text (xk6-output-kafka's), keys as bytes: no auto-commit, from
     * the earliest offset, for {@code assign} and {@code seek} rather than a group. The user's properties win over
     * every one of these, as for rigscope's other clients.
     */
    public static KafkaConsumer<byte[], String> textReader(KafkaClients clients, String clientId) {
        Objects.requireNonNull(clientId, "clientId");
        Properties p = new Properties();
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        return new KafkaConsumer<>(Objects.requireNonNull(clients, "clients").applyTo(p));
    }
}
