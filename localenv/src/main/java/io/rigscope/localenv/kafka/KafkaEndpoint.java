package io.rigscope.localenv.kafka;

import io.rigscope.wire.kafka.BrokerAddressFile;
import io.rigscope.wire.kafka.KafkaClients;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where this process's Kafka is: a cluster named with {@code --bootstrap}, or the embedded broker on a data
 * directory: by default a {@link DetachedBroker} (a process of its own that this process finds or starts, holds a
 * lease on, and never stops), or, with {@link Mode#IN_PROCESS} (test suites), one in this JVM as before
 * ({@link EmbeddedKafka}; another process's broker on the same directory is used when it runs).
 *
 * <p>On a detached broker a {@link BrokerWatch} checks every half second that its process lives, and starts it
 * again on the same port when it died; the producers' buffers carry the records of the gap.
 *
 * <p>Close it when done: that drops this process's lease (detached) or stops the broker this process started
 * (in-process).
 */
public final class KafkaEndpoint implements AutoCloseable {

    /** How the embedded broker runs. */
    public enum Mode {
        /** A process of its own that outlives the command ({@link DetachedBroker}): the default. */
        DETACHED,
        /** In this JVM, stopped when the endpoint closes: for test suites ({@code RIGSCOPE_BROKER=in-process}). */
        IN_PROCESS;

        /** {@code RIGSCOPE_BROKER=in-process} in the environment, else {@link #DETACHED}. */
        public static Mode fromEnvironment() {
            return "in-process".equals(System.getenv("RIGSCOPE_BROKER")) ? IN_PROCESS : DETACHED;
        }
    }

    private final KafkaClients clients;
    private final EmbeddedKafka owned;
    private final String description;
    private final Thread shutdownHook;
    private final DetachedBroker.Running detached;
    private final BrokerWatch watch;

    private KafkaEndpoint(KafkaClients clients, EmbeddedKafka owned, String description) {
        this(clients, owned, description, null, null);
    }

    private KafkaEndpoint(KafkaClients clients, EmbeddedKafka owned, String description,
                          DetachedBroker.Running detached, BrokerWatch watch) {
        this.clients = clients;
        this.owned = owned;
        this.description = description;
        this.detached = detached;
        this.watch = watch;
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
        return resolve(bootstrap, dataDir, properties, Mode.fromEnvironment(), DetachedBroker.DEFAULT_IDLE_STOP,
                System.err::println);
    }

    /**
     * Resolves the endpoint with the broker's mode stated.
     *
     * @param idleStop a detached broker started now stops itself this long after its last lease ends
     * @param console where the watch's lines go (a broker that died and was started again), one line each
     */
    public static KafkaEndpoint resolve(String bootstrap, Path dataDir, Map<String, String> properties, Mode mode,
                                        java.time.Duration idleStop, java.util.function.Consumer<String> console) {
        return resolve(bootstrap, dataDir, properties, mode, idleStop, console, KafkaClients.DEFAULT_DELIVERY_TIMEOUT);
    }

    /**
     * Resolves the endpoint with the broker's mode and the producers' delivery limit stated.
     *
     * @param deliveryTimeout how long the producers made from {@link #clients()} retry a record the broker does not
     *                        take ({@link KafkaClients#deliveryTimeout()})
     */
    public static KafkaEndpoint resolve(String bootstrap, Path dataDir, Map<String, String> properties, Mode mode,
                                        java.time.Duration idleStop, java.util.function.Consumer<String> console,
                                        java.time.Duration deliveryTimeout) {
        if (bootstrap != null && !bootstrap.isBlank()) {
            return new KafkaEndpoint(new KafkaClients(bootstrap, properties, deliveryTimeout), null,
                    "cluster at " + bootstrap);
        }
        Path dir = dataDir == null ? defaultDataDir() : dataDir;
        if (mode == Mode.DETACHED) {
            long self = ProcessHandle.current().pid();
            DetachedBroker.Running r = DetachedBroker.findOrStart(dir, idleStop, self);
            BrokerWatch watch = BrokerWatch.start(r, self, console);
            return new KafkaEndpoint(new KafkaClients(r.bootstrap(), properties, deliveryTimeout), null,
                    "embedded broker at " + r.bootstrap() + " (pid " + r.pid() + ", data " + dir + ")", r, watch);
        }
        Optional<String> running = BrokerAddressFile.find(dir);
        if (running.isPresent()) {
            return new KafkaEndpoint(new KafkaClients(running.get(), properties, deliveryTimeout), null,
                    "embedded broker already running at " + running.get()
                    + " (" + dir + ")");
        }
        EmbeddedKafka kafka = EmbeddedKafka.start(dir, EmbeddedKafka.PREFERRED_PORT);
        return new KafkaEndpoint(new KafkaClients(kafka.bootstrap(), properties, deliveryTimeout), kafka,
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

    /** True when this process started the broker (in-process, or the detached broker's process). */
    public boolean ownsBroker() {
        return owned != null || (detached != null && detached.started());
    }

    /** The detached broker this endpoint holds a lease on; empty for a cluster or an in-process broker. */
    public Optional<DetachedBroker.Running> detachedBroker() {
        return Optional.ofNullable(detached);
    }

    /** The started broker's log file ({@link EmbeddedKafka#logFile()}); empty when this process started none. */
    public Optional<Path> brokerLog() {
        return owned != null ? Optional.of(owned.logFile())
                : detached != null ? Optional.of(detached.logFile()) : Optional.empty();
    }

    /** One phrase on where Kafka is, for the console. */
    public String description() {
        return description;
    }

    @Override
    public void close() {
        if (watch != null) {
            watch.close(); // drops the lease too
        }
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
