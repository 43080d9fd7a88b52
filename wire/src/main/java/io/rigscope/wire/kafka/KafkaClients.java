package io.rigscope.wire.kafka;

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
 * @param bootstrap {@code host:port[,host:port]}
 * @param properties client properties, by name
 */
public record KafkaClients(String bootstrap, Map<String, String> properties) {

    /** Properties a user may not set: rigscope owns them. */
    public static final Set<String> MANAGED = Set.of("bootstrap.servers", "key.serializer", "value.serializer",
            "key.deserializer", "value.deserializer");

    public KafkaClients {
        Objects.requireNonNull(bootstrap, "bootstrap");
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

    /** The property names, without their values (values may be credentials). */
    @Override
    public String toString() {
        return "KafkaClients[" + bootstrap + ", properties " + properties.keySet() + "]";
    }
}
