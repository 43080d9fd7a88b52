package io.rigscope.wire.kafka;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Where rigscope's Kafka clients connect and with which client properties: {@code bootstrap.servers} and the
 * user's own properties ({@code --kafka-property k=v}, {@code --kafka-config FILE}: security, SASL, TLS, timeouts),
 * applied to every producer, consumer and admin client rigscope makes ({@code WirePublisher}, {@code WireSource},
 * {@link TopicAdmin}) after rigscope's own settings, so a user's value wins. Immutable.
 *
 * <p>Refused: {@code bootstrap.servers} (given as {@code bootstrap}) and the key and value (de)serializers (the wire
 * format is rigscope's).
 *
 * <p>{@code deliveryTimeout} is the delivery limit: how long rigscope's producers ({@code WirePublisher}) retry a record
 * the broker does not take (a broker away, a cluster gone) before it fails, Kafka's {@code delivery.timeout.ms};
 * {@code --kafka-delivery-timeout}, or a series file's {@code kafka.delivery_timeout}, sets it.
 *
 * @param bootstrap {@code host:port[,host:port]}
 * @param properties client properties, by name
 * @param deliveryTimeout the delivery limit of rigscope's producers
 */
public record KafkaClients(String bootstrap, Map<String, String> properties, Duration deliveryTimeout) {

    /** Properties a user may not set: rigscope owns them. */
    public static final Set<String> MANAGED = Set.of("bootstrap.servers", "key.serializer", "value.serializer",
            "key.deserializer", "value.deserializer");

    /** The delivery limit when none is given: Kafka's own default of {@code delivery.timeout.ms}, 2 minutes. */
    public static final Duration DEFAULT_DELIVERY_TIMEOUT = Duration.ofMinutes(2);

    /** Clients with the {@link #DEFAULT_DELIVERY_TIMEOUT}. */
    public KafkaClients(String bootstrap, Map<String, String> properties) {
        this(bootstrap, properties, DEFAULT_DELIVERY_TIMEOUT);
    }

    public KafkaClients {
        Objects.requireNonNull(bootstrap, "bootstrap");
        Objects.requireNonNull(deliveryTimeout, "deliveryTimeout");
        if (deliveryTimeout.isNegative() || deliveryTimeout.isZero()) {
            throw new IllegalArgumentException("the delivery limit must be > 0, was " + deliveryTimeout);
        }
        if (bootstrap.isBlank()) {
            throw new IllegalArgumentException("bootstrap is blank");
        }
        properties = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(properties, "properties")));
        for (var e : properties.entrySet()) {
            if (MANAGED.contains(e.getKey())) {
                throw new IllegalArgumentException("the Kafka client property " + e.getKey() + " is rigscope's own"
                        + (e.getKey().equals("bootstrap.servers") ? "; use --bootstrap" : ""));
            }
            Objects.requireNonNull(e.getValue(), () -> "the Kafka client property " + e.getKey() + " has no value");
        }
    }

    /** A cluster with no client properties of the user's. */
    public static KafkaClients of(String bootstrap) {
        return new KafkaClients(bootstrap, Map.of());
    }

    /** Puts {@code bootstrap.servers} and then the user's properties into {@code props}; returns it. */
    public Properties applyTo(Properties props) {
        props.put("bootstrap.servers", bootstrap);
        props.putAll(properties);
        return props;
    }

    /** These clients with the delivery limit {@code limit}. */
    public KafkaClients withDeliveryTimeout(Duration limit) {
        return new KafkaClients(bootstrap, properties, limit);
    }

    /** The property names, without their values (values may be credentials). */
    @Override
    public String toString() {
        return "KafkaClients[" + bootstrap + ", properties " + properties.keySet() + ", delivery limit "
                + deliveryTimeout + "]";
    }
}
