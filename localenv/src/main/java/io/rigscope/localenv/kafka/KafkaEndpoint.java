package io.rigscope.localenv.kafka;

import io.rigscope.wire.kafka.BrokerAddressFile;
import io.rigscope.wire.kafka.KafkaClients;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where this process's Kafka is: a cluster named with {@code --bootstrap}, an embedded broker that another
 * rigscope process already runs on the same data directory (found by {@link BrokerAddressFile}), or one this
 * process starts ({@link EmbeddedKafka}).
 *
 * <p>Close it when done: that stops the broker only if this process started it.
 */
public final class KafkaEndpoint implements AutoCloseable {

    private final KafkaClients clients;
    private final EmbeddedKafka owned;
    private final String description;
    private final Thread shutdownHook;

    private KafkaEndpoint(KafkaClients clients, EmbeddedKafka owned, String description) {
        this.clients = clients;
        this.owned = owned;
        this.description = description;
        // Ctrl-C must not leave the broker's logs unclean: stop it on the way out too.
        this.shutdownHook = owned == null ? null : new Thread(owned::close, "rigscope-kafka-shutdown");
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    /** The default data directory: {@code ~/.rigscope/kafka}. */
    public static Path defaultDataDir() {
        return Path.of(System.getProperty("user.home"), ".rigscope", "kafka");
    }

    /**
     * Resolves the endpoint.
     *
     * @param bootstrap {@code host:port[,host:port]} of an existing cluster, or null to use the embedded broker
     * @param dataDir the embedded broker's directory (null for {@link #defaultDataDir()})
     */
    public static KafkaEndpoint resolve(String bootstrap, Path dataDir) {
        return resolve(bootstrap, dataDir, Map.of());
    }

    /**
     * Resolves the endpoint; every client made from {@link #clients()} takes {@code properties} too (the embedded
     * broker listens on PLAINTEXT, so security properties fit a {@code --bootstrap} cluster only).
     *
     * @param properties Kafka client properties ({@link KafkaClients})
     * @throws IllegalArgumentException for a property rigscope owns
     */
    public static KafkaEndpoint resolve(String bootstrap, Path dataDir, Map<String, String> properties) {
        if (bootstrap != null && !bootstrap.isBlank()) {
            return new KafkaEndpoint(new KafkaClients(bootstrap, properties), null, "cluster at " + bootstrap);
        }
        Path dir = dataDir == null ? defaultDataDir() : dataDir;
        Optional<String> running = BrokerAddressFile.find(dir);
        if (running.isPresent()) {
            return new KafkaEndpoint(new KafkaClients(running.get(), properties), null,
                    "embedded broker already running at " + running.get()
                    + " (" + dir + ")");
        }
        EmbeddedKafka kafka = EmbeddedKafka.start(dir, EmbeddedKafka.PREFERRED_PORT);
        return new KafkaEndpoint(new KafkaClients(kafka.bootstrap(), properties), kafka,
                "embedded broker at " + kafka.bootstrap() + " (" + dir + ")");
    }

    /** {@code bootstrap.servers}. */
    public String bootstrap() {
        return clients.bootstrap();
    }

    /** The bootstrap servers with the user's client properties: what every client of this process connects with. */
    public KafkaClients clients() {
        return clients;
    }

    /** True when this process started the broker. */
    public boolean ownsBroker() {
        return owned != null;
    }

    /** The started broker's log file ({@link EmbeddedKafka#logFile()}); empty when this process started none. */
    public Optional<Path> brokerLog() {
        return owned == null ? Optional.empty() : Optional.of(owned.logFile());
    }

    /** One phrase on where Kafka is, for the console. */
    public String description() {
        return description;
    }

    @Override
    public void close() {
        if (owned != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or will run: it closes the broker
                return;
            }
            owned.close();
        }
    }

    @Override
    public String toString() {
        return Objects.toString(description);
    }
}
