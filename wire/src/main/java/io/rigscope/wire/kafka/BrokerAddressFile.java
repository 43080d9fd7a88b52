package io.rigscope.wire.kafka;

import io.rigscope.wire.host.HostPort;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The file a running embedded broker leaves in its data directory, {@code <dataDir>/bootstrap}, so that another
 * process can find the broker and connect to it instead of starting a second one. Two lines: the broker's
 * {@code host:port}, then the id of the process that runs it.
 *
 * <p>Finding needs only a socket, not the broker's jars: a process that only publishes or consumes can use a broker
 * another process started. Starting one is {@code localenv}'s job, which writes and deletes this file.
 *
 * <p>Stateless; the file itself is the only state, and a stale one (its process gone, or its port silent) is
 * ignored.
 */
public final class BrokerAddressFile {

    private static final String FILE_NAME = "bootstrap";
    private static final int CONNECT_TIMEOUT_MS = 500;

    private BrokerAddressFile() {
    }

    /**
     * The address of a broker running on {@code dataDir}, if the file names a live process and its port answers.
     *
     * @return {@code host:port} for {@code bootstrap.servers}; empty when no file, a stale or unreadable one
     */
    public static Optional<String> find(Path dataDir) {
        Path file = Objects.requireNonNull(dataDir, "dataDir").resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            List<String> lines = Files.readAllLines(file);
            if (lines.size() < 2) {
                return Optional.empty();
            }
            long pid = Long.parseLong(lines.get(1).strip());
            if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                String address = lines.get(0).strip();
                HostPort broker = HostPort.parse(address);
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(broker.host(), broker.port()), CONNECT_TIMEOUT_MS);
                    return Optional.of(address);
                }
            }
        } catch (IOException | RuntimeException stale) {
            // a stale or unreadable file: the caller starts its own broker
        }
        return Optional.empty();
    }

    /**
     * What the file says, live or not: the address and pid it names. A broker killed without a chance to delete it
     * leaves it behind; whoever starts the broker again reads the port it had here, so clients that knew it reach
     * the new one.
     *
     * @param address {@code host:port}
     * @param pid the process that wrote it
     */
    public record Entry(String address, long pid) {
        public Entry {
            Objects.requireNonNull(address, "address");
        }

        /** The port in {@link #address}. */
        public int port() {
            return HostPort.parse(address).port();
        }

        /** True while the process that wrote the file runs. */
        public boolean processAlive() {
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        }
    }

    /** The file's contents without any liveness check; empty when there is no readable file. */
    public static Optional<Entry> read(Path dataDir) {
        Path file = Objects.requireNonNull(dataDir, "dataDir").resolve(FILE_NAME);
        try {
            List<String> lines = Files.readAllLines(file);
            if (lines.size() < 2) {
                return Optional.empty();
            }
            return Optional.of(new Entry(lines.get(0).strip(), Long.parseLong(lines.get(1).strip())));
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    /** Writes the file for a broker this process runs on {@code dataDir} at {@code bootstrap}. */
    public static void write(Path dataDir, String bootstrap) throws IOException {
        Objects.requireNonNull(bootstrap, "bootstrap");
        Files.writeString(Objects.requireNonNull(dataDir, "dataDir").resolve(FILE_NAME),
                bootstrap + "\n" + ProcessHandle.current().pid() + "\n");
    }

    /** Deletes the file, if there is one. */
    public static void delete(Path dataDir) throws IOException {
        Files.deleteIfExists(Objects.requireNonNull(dataDir, "dataDir").resolve(FILE_NAME));
    }
}
