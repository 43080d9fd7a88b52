package io.rigscope.localenv.kafka;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;

/**
 * What a detached broker ({@link BrokerMain}) says about itself in {@code <dataDir>/broker.state}, rewritten every
 * second while it runs: for {@code rigscope broker status}.
 *
 * @param pid the broker process
 * @param startedMs when it started (epoch ms)
 * @param idleStop how long it runs on without a live lease
 * @param idleSinceMs since when it has had no live lease (epoch ms); -1 while one is held
 */
public record BrokerState(long pid, long startedMs, Duration idleStop, long idleSinceMs) {

    static final String FILE_NAME = "broker.state";

    /** The state the broker on {@code dataDir} last wrote; empty when none or unreadable. */
    public static Optional<BrokerState> read(Path dataDir) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(dataDir.resolve(FILE_NAME))) {
            p.load(in);
            return Optional.of(new BrokerState(Long.parseLong(p.getProperty("pid")),
                    Long.parseLong(p.getProperty("started_ms")),
                    Duration.ofMillis(Long.parseLong(p.getProperty("idle_stop_ms"))),
                    Long.parseLong(p.getProperty("idle_since_ms"))));
        } catch (IOException | RuntimeException none) {
            return Optional.empty();
        }
    }

    /** Writes it (to a temporary file, then moved over the old one). */
    void write(Path dataDir) throws IOException {
        Properties p = new Properties();
        p.setProperty("pid", Long.toString(pid));
        p.setProperty("started_ms", Long.toString(startedMs));
        p.setProperty("idle_stop_ms", Long.toString(idleStop.toMillis()));
        p.setProperty("idle_since_ms", Long.toString(idleSinceMs));
        Path tmp = dataDir.resolve(FILE_NAME + ".tmp");
        try (Writer out = Files.newBufferedWriter(tmp)) {
            p.store(out, "rigscope's detached broker");
        }
        Files.move(tmp, dataDir.resolve(FILE_NAME), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    static void delete(Path dataDir) {
        try {
            Files.deleteIfExists(dataDir.resolve(FILE_NAME));
        } catch (IOException ignored) {
            // a stale state file is read only with a live bootstrap file
        }
    }
}
