package io.rigscope.localenv.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.logging.Level;
import java.util.logging.Logger;
import io.rigscope.localenv.net.LoopbackPorts;
import io.rigscope.wire.kafka.BrokerAddressFile;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.utils.Time;

/**
 * A single-node KRaft broker (broker and controller in one) running inside this JVM, from the Apache Kafka
 * jars. Its log directory is kept between runs, so topics written by one run can be replayed by the next.
 *
 * <p>Listens on 127.0.0.1 only. The address is written to {@code <dataDir>/bootstrap} ({@link BrokerAddressFile})
 * while the broker runs, so that another rigscope process can find and use it instead of starting a second broker
 * ({@link KafkaEndpoint}).
 *
 * <p>Kafka's own logging goes to {@code <dataDir>/broker.log} while the broker runs ({@link #logFile()}), not
 * to the console; a start that fails throws one exception whose message names the cause and that file.
 *
 * <p>Not thread-safe: start and close from one thread.
 */
public final class EmbeddedKafka implements AutoCloseable {

    /** The client port tried first; another free port is taken when it is busy. */
    public static final int PREFERRED_PORT = 19092;

    private final Path dataDir;
    private final int port;
    private final KafkaRaftServer server;
    private final BrokerLog log;
    private boolean closed;

    private EmbeddedKafka(Path dataDir, int port, KafkaRaftServer server, BrokerLog log) {
        this.dataDir = dataDir;
        this.port = port;
        this.server = server;
        this.log = log;
    }

    /**
     * Formats the log directory if it is new, starts the broker and returns once it accepts connections.
     *
     * @param dataDir the broker's home; its log directory is {@code dataDir/logs}
     * @param port the client port; 0 for any free port; {@link #PREFERRED_PORT} falls back to any free port
     *             when it is busy
     * @throws IllegalStateException if the broker does not start
     */
    public static EmbeddedKafka start(Path dataDir, int port) {
        return start(dataDir, port, port == PREFERRED_PORT);
    }

    /**
     * As {@link #start(Path, int)}, with the fallback stated: {@code fallBackWhenBusy} false makes a busy
     * {@code port} a failed start (a restarted broker must come back where its clients look for it).
     */
    static EmbeddedKafka start(Path dataDir, int port, boolean fallBackWhenBusy) {
        Objects.requireNonNull(dataDir, "dataDir");
        BrokerLog log;
        try {
            Files.createDirectories(dataDir);
            log = BrokerLog.open(dataDir);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the embedded Kafka broker in " + dataDir + ": " + e, e);
        }
        KafkaRaftServer server = null;
        try {
            Path logDir = dataDir.resolve("logs");
            int clientPort = port == 0 || (fallBackWhenBusy && !LoopbackPorts.isFree(port)) ? LoopbackPorts.free() : port;
            int controllerPort = LoopbackPorts.free();
            Properties props = properties(logDir, clientPort, controllerPort);
            Path propsFile = dataDir.resolve("server.properties");
            try (var out = Files.newOutputStream(propsFile)) {
                props.store(out, "written by rigscope for its embedded broker");
            }
            if (!Files.exists(logDir.resolve("meta.properties"))) {
                format(propsFile);
            }
            server = new KafkaRaftServer(KafkaConfig.fromProps(props), Time.SYSTEM);
            server.startup();
            EmbeddedKafka kafka = new EmbeddedKafka(dataDir, clientPort, server, log);
            kafka.awaitListening(Duration.ofSeconds(30));
            BrokerAddressFile.write(dataDir, kafka.bootstrap());
            return kafka;
        } catch (IOException | RuntimeException e) {
            Logger.getLogger("kafka").log(Level.SEVERE,
                    "rigscope: the embedded broker did not start", e);
            if (server != null) {
                shutdownQuietly(server);
            }
            log.close();
            throw new IllegalStateException("the embedded Kafka broker did not start in " + dataDir + ": "
                    + causeInOneLine(e) + " (log " + log.file() + ")", e);
        }
    }

    private static void shutdownQuietly(KafkaRaftServer server) {
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException alsoFailing) {
            // the start's own failure is the one to report; this one is in the log
            Logger.getLogger("kafka").log(Level.WARNING,
                    "rigscope: shutting down the broker that failed to start failed too", alsoFailing);
        }
    }

    /**
     * The outermost exception and, when another, its cause as {@code SimpleName: message}, on one line. The cause
     * is the root, or the exception nearest the root that repeats the root's message with more around it (Kafka's
     * "Socket server failed to bind to 127.0.0.1:9092: Address already in use." over the bare BindException).
     */
    static String causeInOneLine(Throwable e) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = e; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        Throwable root = chain.get(chain.size() - 1);
        Throwable cause = root;
        for (int i = chain.size() - 2; i > 0 && root.getMessage() != null; i--) {
            String message = chain.get(i).getMessage();
            if (message != null && message.contains(root.getMessage())) {
                cause = chain.get(i);
                break;
            }
        }
        String text = describe(e);
        if (cause != e && !text.contains(String.valueOf(cause.getMessage()))) {
            text = text + "; cause: " + describe(cause);
        }
        return text.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    private static String describe(Throwable t) {
        String name = t.getClass().getSimpleName();
        return t.getMessage() == null ? name : name + ": " + t.getMessage();
    }

    private static Properties properties(Path logDir, int clientPort, int controllerPort) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + clientPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + clientPort);
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("log.dirs", logDir.toString());
        p.setProperty("num.partitions", "1");
        p.setProperty("default.replication.factor", "1");
        p.setProperty("min.insync.replicas", "1");
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "3");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("auto.create.topics.enable", "false");
        p.setProperty("log.retention.ms", "-1");
        p.setProperty("log.segment.bytes", String.valueOf(256 * 1024 * 1024));
        p.setProperty("message.max.bytes", String.valueOf(8 * 1024 * 1024));
        return p;
    }

    private static void format(Path propsFile) {
        var out = new ByteArrayOutputStream();
        int rc = StorageTool.execute(new String[] {"format", "-t", clusterId(), "-c", propsFile.toString(),
                "--ignore-formatted"}, new PrintStream(out, true, StandardCharsets.UTF_8));
        if (rc != 0) {
            throw new IllegalStateException("formatting the broker's log directory failed (" + rc + "): "
                    + out.toString(StandardCharsets.UTF_8));
        }
    }

    /**
     * A random cluster id. Kafka's own generator never starts the id with '-', which the storage tool's argument
     * parser would take for an option (a base64url UUID does so once in 64 starts).
     */
    private static String clusterId() {
        return org.apache.kafka.common.Uuid.randomUuid().toString();
    }

    private void awaitListening(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the broker", e);
                }
            }
        }
        throw new IllegalStateException("the embedded broker did not listen on 127.0.0.1:" + port + " within " + timeout);
    }

    /** {@code 127.0.0.1:port}, for {@code bootstrap.servers}. */
    public String bootstrap() {
        return "127.0.0.1:" + port;
    }

    /** The broker's home directory. */
    public Path dataDir() {
        return dataDir;
    }

    /** How long {@link #close} waits for the broker to stop. */
    static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(30);

    /** {@code <dataDir>/broker.log}: Kafka's own logging while this broker runs. */
    public Path logFile() {
        return log.file();
    }

    /**
     * Stops the broker and waits for it, at most {@link #SHUTDOWN_WAIT}. Idempotent. Kafka 4.4's broker shutdown
     * can deadlock on its own JMX metrics (a processor thread closing its selector metrics waits for the metrics
     * lock, held by a thread waiting on the MBean server, while the shutdown joins the processor): seen once in a
     * test JVM here, after every test had passed. Past the wait the broker is left to the JVM's exit, with a line
     * on stderr saying so, rather than hanging its caller.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            BrokerAddressFile.delete(dataDir);
        } catch (IOException ignored) {
            // the file only helps other processes find us; a stale one is checked before use
        }
        Thread stopping = new Thread(() -> {
            server.shutdown();
            server.awaitShutdown();
        }, "embedded-kafka-shutdown");
        stopping.setDaemon(true);
        stopping.start();
        try {
            stopping.join(SHUTDOWN_WAIT.toMillis());
            if (stopping.isAlive()) {
                System.err.println("kafka: the embedded broker did not stop within " + SHUTDOWN_WAIT.toSeconds()
                        + " s (log " + log.file() + "); leaving it to the JVM's exit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            log.close();
        }
    }
}
