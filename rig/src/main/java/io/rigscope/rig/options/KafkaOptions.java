package io.rigscope.rig.options;

import io.rigscope.localenv.kafka.DetachedBroker;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.wire.kafka.KafkaClients;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Option;
import io.rigscope.generator.outbox.SampleJournal;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.wire.WirePublisher;
import java.util.Objects;
import java.util.Locale;

/**
 * Where Kafka is and how to talk to it: {@code --bootstrap} for an existing cluster, else the embedded broker in
 * {@code --data-dir}; {@code --kafka-config FILE} and {@code --kafka-property k=v} for the clients' own settings
 * (security, SASL, TLS, timeouts), given to every producer, consumer and admin client the command makes.
 */
public final class KafkaOptions {

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT",
            description = "Use this Kafka cluster (bootstrap.servers) and start no broker.")
    String bootstrap;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "The embedded broker's data directory, kept between runs (default: ~/.rigscope/kafka).")
    Path dataDir;

    @Option(names = "--broker-idle-stop", paramLabel = "DURATION", defaultValue = "5m",
            description = {"A detached embedded broker this command starts stops itself this long after the last "
                + "command using it ends (default: ${DEFAULT-VALUE}). A broker already running keeps its own; "
                + "'rigscope broker stop' stops it at once."})
    Duration brokerIdleStop = DetachedBroker.DEFAULT_IDLE_STOP;

    @Option(names = "--kafka-delivery-timeout", paramLabel = "DURATION",
            description = {"The delivery limit: how long the command's producers retry a record the broker does not "
                + "take (an embedded broker being started again, a cluster gone) before it fails; Kafka's "
                + "delivery.timeout.ms (default: 2m, or a series file's kafka.delivery_timeout). What fails stays in "
                + "the command's write-ahead journal; the command exits 1 naming it ('rigscope recover' publishes it)."})
    Duration deliveryTimeout;

    /** A series file's {@code kafka.delivery_timeout} and where it was given, or null ({@link #fromFile}). */
    private Duration fileDeliveryTimeout;
    private String fileDeliveryTimeoutKey;

    @Option(names = "--kafka-property", paramLabel = "KEY=VALUE",
            description = "A Kafka client property for every producer, consumer and admin client, e.g. "
                + "security.protocol=SASL_SSL. Repeatable; wins over --kafka-config.")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = "--kafka-config", paramLabel = "FILE",
            description = "A Java properties file of Kafka client properties (as for Kafka's own tools' "
                + "--command-config).")
    Path configFile;

    /**
     * Resolves the endpoint, starting the embedded broker if needed; prints where Kafka is (and where a started
     * broker logs) on stderr.
     *
     * @throws UsageException (exit 2) for a bad {@code --bootstrap}, an unreadable {@code --kafka-config}, or a
     *     property that is not a Kafka client's, is rigscope's own, or has a value Kafka refuses
     */
    public KafkaEndpoint open() {
        if (bootstrap != null && !bootstrap.matches("[^,\\s:]+:\\d+(,[^,\\s:]+:\\d+)*")) {
            throw new UsageException("--bootstrap '" + bootstrap + "' is not host:port[,host:port...]");
        }
        Map<String, String> clientProperties = clientProperties();
        Durations.positive("--broker-idle-stop", brokerIdleStop);
        Duration limit = deliveryLimit(clientProperties);
        long startNs = System.nanoTime();
        KafkaEndpoint endpoint = KafkaEndpoint.resolve(bootstrap, dataDir, clientProperties,
                KafkaEndpoint.Mode.fromEnvironment(), brokerIdleStop, System.err::println, limit);
        if (endpoint.detachedBroker().isPresent()) {
            DetachedBroker.Running r = endpoint.detachedBroker().get();
            String ends = "; it stops itself " + Durations.text(r.idleStop()) + " after the last command using it "
                    + "ends, or 'rigscope broker stop'";
            if (r.started()) {
                System.err.printf("kafka: started embedded broker at %s (pid %d, data %s) in %.1f s%s (log %s)%n",
                        r.bootstrap(), r.pid(), r.dataDir(), (System.nanoTime() - startNs) / 1e9, ends, r.logFile());
            } else {
                System.err.printf("kafka: using embedded broker at %s (pid %d, data %s)%s%n", r.bootstrap(), r.pid(),
                        r.dataDir(), ends);
            }
        } else if (endpoint.ownsBroker()) {
            System.err.printf("kafka: started %s in %.1f s (log %s)%n", endpoint.description(),
                    (System.nanoTime() - startNs) / 1e9, endpoint.brokerLog().orElseThrow());
        } else {
            System.err.println("kafka: using " + endpoint.description());
        }
        if (!clientProperties.isEmpty()) {
            // names only: values may be credentials
            System.err.println("kafka: client properties " + String.join(", ", clientProperties.keySet()));
        }
        if (!limit.equals(KafkaClients.DEFAULT_DELIVERY_TIMEOUT)) {
            System.err.println("kafka: delivery limit " + Durations.text(limit) + " (" + deliveryLimitKey() + ")");
        }
        return endpoint;
    }

    /**
     * Takes a series file's {@code kafka.delivery_timeout} ({@code run --config}); {@code --kafka-delivery-timeout}
     * wins over it.
     *
     * @param limit the file's value, or null when it gives none
     * @param key where it was given, named in an error: {@code FILE: kafka.delivery_timeout}
     */
    public void fromFile(Duration limit, String key) {
        this.fileDeliveryTimeout = limit;
        this.fileDeliveryTimeoutKey = key;
    }

    /** Where the delivery limit in force was given. */
    private String deliveryLimitKey() {
        return deliveryTimeout != null ? "--kafka-delivery-timeout"
                : fileDeliveryTimeout != null ? fileDeliveryTimeoutKey : "default";
    }

    /**
     * The delivery limit in force: {@code --kafka-delivery-timeout}, else the series file's, else
     * {@link KafkaClients#DEFAULT_DELIVERY_TIMEOUT}.
     *
     * @throws UsageException (exit 2) naming the key for a limit that is not positive, or shorter than the
     *     producer's {@code request.timeout.ms + linger.ms} (Kafka refuses such a producer)
     */
    Duration deliveryLimit(Map<String, String> clientProperties) {
        Duration limit = deliveryTimeout != null ? deliveryTimeout
                : fileDeliveryTimeout != null ? fileDeliveryTimeout : KafkaClients.DEFAULT_DELIVERY_TIMEOUT;
        String key = deliveryLimitKey();
        Durations.positive(key, limit);
        long floorMs = Long.parseLong(clientProperties.getOrDefault(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "30000").strip())
                + Long.parseLong(clientProperties.getOrDefault(ProducerConfig.LINGER_MS_CONFIG, "5").strip());
        if (limit.toMillis() < floorMs) {
            throw new UsageException(key + " " + Durations.text(limit) + " is shorter than the producer's "
                    + "request.timeout.ms + linger.ms (" + floorMs + " ms), which Kafka refuses: give at least that, "
                    + "or a shorter request.timeout.ms with --kafka-property");
        }
        return limit;
    }

    /**
     * Where {@code run}, {@code demo} and {@code recover} keep the write-ahead sample journal: {@code journal} in the
     * data directory ({@code --data-dir}, default {@code ~/.rigscope/kafka}), with or without {@code --bootstrap}.
     */
    public Path journalDir() {
        return (dataDir == null ? KafkaEndpoint.defaultDataDir() : dataDir).resolve("journal");
    }

    /** The file's properties, then the command line's, checked against Kafka's own client config definitions. */
    public Map<String, String> clientProperties() {
        Map<String, String> all = new LinkedHashMap<>();
        if (configFile != null) {
            Properties file = new Properties();
            try (Reader in = Files.newBufferedReader(configFile, StandardCharsets.UTF_8)) {
                file.load(in);
            } catch (IOException | IllegalArgumentException e) {
                throw new UsageException("--kafka-config " + configFile + ": cannot read it (" + e.getMessage() + ")");
            }
            file.stringPropertyNames().stream().sorted().forEach(k -> all.put(k, file.getProperty(k).strip()));
        }
        all.putAll(properties);
        Set<String> known = new HashSet<>(ProducerConfig.configNames());
        known.addAll(ConsumerConfig.configNames());
        known.addAll(AdminClientConfig.configNames());
        for (var e : all.entrySet()) {
            String where = properties.containsKey(e.getKey()) ? "--kafka-property " : "--kafka-config " + configFile
                    + ": ";
            if (e.getKey().equals(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG)) {
                throw new UsageException(where + e.getKey() + " is rigscope's delivery limit: use "
                        + "--kafka-delivery-timeout (or kafka.delivery_timeout in a series file)");
            }
            if (KafkaClients.MANAGED.contains(e.getKey())) {
                throw new UsageException(where + e.getKey() + " is set by rigscope"
                        + (e.getKey().equals("bootstrap.servers") ? "; use --bootstrap" : ""));
            }
            if (!known.contains(e.getKey())) {
                throw new UsageException(where + e.getKey() + " is not a Kafka producer, consumer or admin client "
                        + "property");
            }
        }
        checkValues(all);
        return all;
    }

    /** Kafka's own parsing of each client's properties: a value it refuses is exit 2 naming the property. */
    private static void checkValues(Map<String, String> all) {
        try {
            Map<String, Object> producer = only(all, ProducerConfig.configNames());
            producer.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
            producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            new ProducerConfig(producer);
            Map<String, Object> consumer = only(all, ConsumerConfig.configNames());
            consumer.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
            consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            new ConsumerConfig(consumer);
            Map<String, Object> admin = only(all, AdminClientConfig.configNames());
            admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
            new AdminClientConfig(admin);
        } catch (ConfigException e) {
            throw new UsageException("--kafka-property/--kafka-config: " + e.getMessage());
        }
    }

    private static Map<String, Object> only(Map<String, String> all, Set<String> names) {
        Map<String, Object> out = new LinkedHashMap<>();
        all.forEach((k, v) -> {
            if (names.contains(k)) {
                out.put(k, v);
            }
        });
        return out;
    }

    /**
     * The rule for every part of rigscope that publishes records it made itself ({@code collect}'s telemetry, the
     * analyzer's verdicts and dead letters in {@code analyze}, {@code run}, {@code demo} and {@code experiment},
     * {@code rescan}, {@code import k6}): each record is appended to a write-ahead journal ({@link SampleJournal}, the
     * generator's, in {@code <data-dir>/journal}, named for the command and its stream: {@code collect-<series>},
     * {@code analyze-<series>}...) before the producer takes it, and the broker's acknowledgements are counted in its
     * header. A broker that goes away is retried by the producer, in order, until it comes back or the delivery limit
     * ({@code --kafka-delivery-timeout}) passes; what it never took stays in the journal, which {@code rigscope recover}
     * (or the next command on that data directory) publishes. Closing it closes the publisher, then the journal: deleted
     * when every record was acknowledged, kept otherwise.
     *
     * <p>Thread-safe as {@link WirePublisher} is.
     */
    public static final class JournaledPublisher implements AutoCloseable {

        private final WirePublisher publisher;
        private final SampleJournal journal;

        private JournaledPublisher(WirePublisher publisher, SampleJournal journal) {
            this.publisher = publisher;
            this.journal = journal;
        }

        /**
         * Creates the journal {@code <journalDir>/rigscope-journal-<name>@<nonce>.bin} and a publisher on {@code clients}
         * that appends every record to it before the send.
         *
         * @param name what command and stream the journal holds: {@code analyze-<series>}, {@code collect-<series>}...
         */
        public static JournaledPublisher open(KafkaClients clients, Path journalDir, String name, WireCodec codec,
                                              WirePublisher.Options options) {
            Objects.requireNonNull(clients, "clients");
            SampleJournal journal = SampleJournal.create(Objects.requireNonNull(journalDir, "journalDir"), name, codec);
            try {
                return new JournaledPublisher(new WirePublisher(clients, codec, options, journal), journal);
            } catch (RuntimeException e) {
                journal.close();
                throw e;
            }
        }

        /** The publisher: every record it sends is journalled first. */
        public WirePublisher publisher() {
            return publisher;
        }

        /** The journal's file. */
        public Path journal() {
            return journal.path();
        }

        /** Waits until every record handed over so far is acknowledged or failed. Blocking. */
        public void flush() {
            publisher.flush();
        }

        /** True when the broker did not take a record (call after {@link #flush}). */
        public boolean failed() {
            return publisher.failed() > 0;
        }

        /**
         * The one console line when records were not published (call after {@link #flush}): how many, the last error,
         * and the journal that keeps them; null when every record was acknowledged.
         */
        public String notPublishedLine() {
            if (!failed()) {
                return null;
            }
            Exception last = publisher.lastError();
            return "kafka: " + publisher.failed() + " record(s) were not published (last error: "
                    + (last == null ? "none" : last.getClass().getSimpleName() + ": " + last.getMessage()) + "); "
                    + journal.unacknowledged() + " record(s) are in the journal " + journal.path()
                    + ": 'rigscope recover' publishes them";
        }

        /** Closes the publisher (flushing it), then the journal: deleted when every record was acknowledged. */
        @Override
        public void close() {
            try {
                publisher.close();
            } finally {
                journal.close();
            }
        }

        /**
         * The write-ahead journals ({@code generator.outbox.SampleJournal}, in {@link KafkaOptions#journalDir()}) an earlier
         * command left behind: what every command that publishes to Kafka does first, and the line {@code rigscope recover}
         * prints for a journal it keeps. Stateless; the caller's thread.
         */
        public static final class Leftovers {

            private Leftovers() {
            }

            /**
             * What {@code run}, {@code demo}, {@code collect} and {@code analyze} do first: publish the journals an earlier
             * command on the same data directory left in {@code dir} (a broker that did not come back in time, a kill), with
             * a publisher of their own (not the command's, so nothing of another series reaches its {@code --out} file); one
             * line per journal. Nothing when the directory has none.
             */
            public static void publish(KafkaEndpoint endpoint, Path dir, java.io.PrintStream console) {
                if (!Files.isDirectory(dir)) {
                    return;
                }
                try (var files = Files.list(dir)) {
                    if (files.noneMatch(f -> f.getFileName().toString().startsWith("rigscope-journal-"))) {
                        return;
                    }
                } catch (java.io.IOException e) {
                    console.println("recover: cannot list " + dir + ": " + e.getMessage());
                    return;
                }
                WireCodec codec = new WireCodec();
                try (WirePublisher publisher = new WirePublisher(endpoint.clients(), codec,
                        WirePublisher.Options.defaults().withClientId("rigscope-recover"))) {
                    for (SampleJournal.Recovered r : SampleJournal.recover(dir, null, SampleJournal.Destination.of(publisher),
                            codec)) {
                        if (r.complete()) {
                            console.printf(Locale.ROOT, "recover: published what an earlier command left in %s: %d record(s)"
                                    + " (%d sample(s))%n", r.file(), r.published(), r.samples());
                        } else {
                            console.println(kept(r));
                        }
                    }
                }
            }

            /** The one line for a journal recovery kept. */
            public static String kept(SampleJournal.Recovered r) {
                return String.format(Locale.ROOT, "recover: kept the journal %s: %d of %d record(s) not published (%s); "
                        + "'rigscope recover' publishes them once the broker is back", r.file(), r.failed(), r.entries(),
                        r.error());
            }
        }
    }
}
