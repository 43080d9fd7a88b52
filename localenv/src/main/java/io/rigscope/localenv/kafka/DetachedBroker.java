package io.rigscope.localenv.kafka;

import io.rigscope.wire.kafka.BrokerAddressFile;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The embedded broker as a process of its own ({@link BrokerMain}), detached from every command: a command that
 * needs it and finds none starts it (same classpath, {@code setsid} when the host has it, so a Ctrl-C in the
 * command's terminal does not reach it), takes a {@link BrokerLeases lease} on it while it runs, and never stops it.
 * The broker stops itself once no live lease has been held for its idle period; {@link #stop} stops it at once.
 *
 * <p>Find-or-start runs under an exclusive lock on {@code <dataDir>/broker.lock} (a file lock, so across processes;
 * and this class's monitor, within one JVM), and the broker's own idle stop takes the same lock: two commands
 * starting at the same instant get one broker, and a command never takes a lease on a broker that is stopping.
 *
 * <p>Files in the data directory: {@code bootstrap} (address and the broker's pid, {@link BrokerAddressFile}),
 * {@code broker.log} (the broker process's stdout and stderr, and Kafka's own logging), {@code broker.state}
 * ({@link BrokerState}), {@code leases/<pid>}.
 *
 * <p>Stateless; blocking (a start takes seconds).
 */
public final class DetachedBroker {

    /** How long the broker runs on with no live lease before it stops itself, unless told otherwise. */
    public static final Duration DEFAULT_IDLE_STOP = Duration.ofMinutes(5);

    /** How long a command waits for a broker it started to answer. */
    static final Duration START_WAIT = Duration.ofSeconds(90);

    static final String LOCK_FILE = "broker.lock";

    private DetachedBroker() {
    }

    /**
     * A broker that runs.
     *
     * @param bootstrap {@code 127.0.0.1:port}
     * @param pid the broker process
     * @param dataDir its data directory
     * @param started true when this call started it
     * @param idleStop its idle period (as it was started with; {@code DEFAULT_IDLE_STOP} when unknown)
     */
    public record Running(String bootstrap, long pid, Path dataDir, boolean started, Duration idleStop) {
        public Running {
            Objects.requireNonNull(bootstrap, "bootstrap");
            Objects.requireNonNull(dataDir, "dataDir");
            Objects.requireNonNull(idleStop, "idleStop");
        }

        /** The broker's log, {@code <dataDir>/broker.log}. */
        public Path logFile() {
            return dataDir.resolve(BrokerLog.FILE_NAME);
        }
    }

    /**
     * Finds the broker running on {@code dataDir}, or starts one, and takes the lease of process {@code holderPid}
     * on it, all under the data directory's lock. A broker started again after it died takes the port it had
     * (read from the {@code bootstrap} file it left), so clients that knew it reconnect.
     *
     * @param idleStop the idle period for a broker this call starts (a running one keeps its own)
     * @throws IllegalStateException if a broker was needed and did not start; the message names {@code broker.log}
     */
    public static Running findOrStart(Path dataDir, Duration idleStop, long holderPid) {
        Objects.requireNonNull(idleStop, "idleStop");
        return underLock(dataDir, () -> {
            Optional<Running> running = find(dataDir);
            Running r = running.orElseGet(() -> start(dataDir, idleStop));
            new BrokerLeases(dataDir).take(holderPid);
            return r;
        });
    }

    /** The broker running on {@code dataDir}: its {@code bootstrap} file names a live process and its port answers. */
    public static Optional<Running> find(Path dataDir) {
        Optional<String> address = BrokerAddressFile.find(dataDir);
        Optional<BrokerAddressFile.Entry> entry = BrokerAddressFile.read(dataDir);
        if (address.isEmpty() || entry.isEmpty() || !entry.get().address().equals(address.get())) {
            return Optional.empty();
        }
        Duration idle = BrokerState.read(dataDir).map(BrokerState::idleStop).orElse(DEFAULT_IDLE_STOP);
        return Optional.of(new Running(address.get(), entry.get().pid(), dataDir, false, idle));
    }

    /**
     * Stops the broker on {@code dataDir} at once (SIGTERM: it stops Kafka cleanly and deletes its {@code bootstrap}
     * file), whoever holds leases on it, and waits for its process to end, at most {@code wait} (then SIGKILL).
     *
     * @return the stopped broker's pid; empty when none ran
     */
    public static Optional<Long> stop(Path dataDir, Duration wait) {
        Optional<BrokerAddressFile.Entry> entry = BrokerAddressFile.read(dataDir);
        Optional<ProcessHandle> process = entry.flatMap(e -> ProcessHandle.of(e.pid())).filter(ProcessHandle::isAlive);
        if (process.isEmpty()) {
            return Optional.empty();
        }
        ProcessHandle p = process.get();
        p.destroy();
        try {
            p.onExit().get(wait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException late) {
            p.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException impossible) {
            throw new IllegalStateException(impossible);
        }
        return Optional.of(p.pid());
    }

    /** Runs {@code body} holding the data directory's lock (created with the directory when missing). */
    static <T> T underLock(Path dataDir, Supplier<T> body) {
        synchronized (DetachedBroker.class) {
            try {
                Files.createDirectories(dataDir);
                try (FileChannel channel = FileChannel.open(dataDir.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE); FileLock ignored = channel.lock()) {
                    return body.get();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot lock the embedded broker's data directory " + dataDir, e);
            }
        }
    }

    private static Running start(Path dataDir, Duration idleStop) {
        Optional<BrokerAddressFile.Entry> left = BrokerAddressFile.read(dataDir);
        int port = left.map(BrokerAddressFile.Entry::port).orElse(EmbeddedKafka.PREFERRED_PORT);
        List<String> command = new ArrayList<>();
        Path setsid = Path.of("/usr/bin/setsid");
        if (Files.isExecutable(setsid)) {
            command.add(setsid.toString());
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xms64m", "-Xmx1g", "-XX:+UseSerialGC", "-cp", absoluteClasspath(),
                BrokerMain.class.getName(), "--data-dir", dataDir.toAbsolutePath().toString(),
                "--port", Integer.toString(port), "--idle-stop-ms", Long.toString(idleStop.toMillis())));
        if (left.isPresent()) {
            command.add("--same-port");
        }
        Path log = dataDir.resolve(BrokerLog.FILE_NAME);
        Process child;
        try {
            child = new ProcessBuilder(command).directory(dataDir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new IllegalStateException("the embedded Kafka broker did not start in " + dataDir + ": " + e, e);
        }
        long deadline = System.nanoTime() + START_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<Running> up = find(dataDir);
            if (up.isPresent()) {
                return new Running(up.get().bootstrap(), up.get().pid(), dataDir, true, idleStop);
            }
            if (!child.isAlive() && child.exitValue() != 0) {
                throw new IllegalStateException(failure(dataDir, log, "its process exited " + child.exitValue()));
            }
            sleep(Duration.ofMillis(100));
        }
        child.destroy();
        throw new IllegalStateException(failure(dataDir, log, "it did not answer within " + START_WAIT.toSeconds()
                + " s"));
    }

    /** The broker process's own one-line reason ({@link BrokerMain#FAILED}) when it wrote one. */
    private static String failure(Path dataDir, Path log, String fallback) {
        String reason = fallback;
        try {
            List<String> lines = Files.readAllLines(log);
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (lines.get(i).startsWith(BrokerMain.FAILED)) {
                    reason = lines.get(i).substring(BrokerMain.FAILED.length()).strip();
                    break;
                }
            }
        } catch (IOException | UncheckedIOException unreadable) {
            // the fallback says enough
        }
        String text = "the embedded Kafka broker did not start in " + dataDir + ": " + reason;
        return text.contains("(log ") ? text : text + " (log " + log + ")";
    }

    private static String absoluteClasspath() {
        List<String> out = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                out.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return String.join(File.pathSeparator, out);
    }

    static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the embedded broker", e);
        }
    }
}
