package io.rigscope.localenv.kafka;

import io.rigscope.wire.kafka.BrokerAddressFile;
import java.nio.file.Path;
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

    private final String bootstrap;
    private final EmbeddedKafka owned;
    private final String description;
    private final Thread shutdownHook;

    private KafkaEndpoint(String bootstrap, EmbeddedKafka owned, String description) {
        this.bootstrap = bootstrap;
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
        if (bootstrap != null && !bootstrap.isBlank()) {
            return new KafkaEndpoint(bootstrap, null, "cluster at " + bootstrap);
        }
        Path dir = dataDir == null ? defaultDataDir() : dataDir;
        Optional<String> running = BrokerAddressFile.find(dir);
        if (running.isPresent()) {
            return new KafkaEndpoint(running.get(), null, "embedded broker already running at " + running.get()
                    + " (" + dir + ")");
        }
        EmbeddedKafka kafka = EmbeddedKafka.start(dir, EmbeddedKafka.PREFERRED_PORT);
        return new KafkaEndpoint(kafka.bootstrap(), kafka, "embedded broker at " + kafka.bootstrap() + " (" + dir + ")");
    }

    /** {@code bootstrap.servers}. */
    public String bootstrap() {
        return bootstrap;
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
