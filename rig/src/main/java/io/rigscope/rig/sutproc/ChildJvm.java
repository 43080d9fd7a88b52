package io.rigscope.rig.sutproc;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service in a JVM of its own: {@code java <options> -cp <this JVM's class path> <main> <arguments>}, started with
 * the {@code java} of this process, so that the instrument never shares a JVM (its collector, its threads) with what it
 * measures. The child's stdout and stderr are appended to a log file; it counts as up once it prints a line
 * {@code <listening prefix>http://...}, whose URL becomes {@link #baseUri()}. {@link #close()}, and a shutdown hook
 * for a JVM stopped with Ctrl-C, send SIGTERM, give the child {@link #STOP_GRACE} to close its server and pool, then
 * SIGKILL it.
 *
 * <pre>{@code
 * Map<String, String> env = new HashMap<>();
 * env.put("LEDGER_PG", pg.libpq());          // secrets go here, never in the arguments
 * env.put("LEDGER_TOKEN", token);            // null: removed from the inherited environment
 * try (ChildJvm ledger = ChildJvm.start(new ChildJvm.Spec("the ledger service", List.of("-Xmx256m"),
 *         "com.example.Ledger", List.of("--pg", "env:LEDGER_PG"), env, "listening on ",
 *         Duration.ofSeconds(60), ChildJvm.newLogFile("rigscope-ledger-", "the ledger service")))) {
 *     URI graphql = ledger.baseUri().resolve("/graphql");
 * }
 * }</pre>
 *
 * <p>Secrets (database URLs with passwords, keys, tokens) go in {@link Spec#environment()}, never in
 * {@link Spec#arguments()} or {@link Spec#javaOptions()}: the command line is what {@code ps} shows to every user of
 * the machine.
 *
 * <p>Blocking; not thread-safe, except that {@link #close()} may race the shutdown hook.
 */
public final class ChildJvm implements AutoCloseable {

    /** How long {@link #close()} waits after SIGTERM before it sends SIGKILL. */
    public static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);
    private static final int TAIL_LINES = 10;

    /**
     * How to start it.
     *
     * @param name what it is, as messages name it: {@code the reference SUT}
     * @param javaOptions the child's JVM options (copied)
     * @param mainClass the class whose {@code main} it runs
     * @param arguments the arguments of {@code main} (copied); no secrets: {@code ps} shows them
     * @param environment variables set in the child on top of this process's environment; a null value removes the
     *        variable from what the child inherits (copied)
     * @param listeningPrefix how the line that announces its URL starts, e.g. {@code "sut: listening on "}; the URL
     *        ({@code http://} up to the first white space) follows it
     * @param startTimeout how long it may take to print that line, &gt; 0
     * @param logFile where its stdout and stderr go (appended; only what this child writes is read)
     */
    public record Spec(String name, List<String> javaOptions, String mainClass, List<String> arguments,
                       Map<String, String> environment, String listeningPrefix, Duration startTimeout, Path logFile) {
        public Spec {
            Objects.requireNonNull(name, "name");
            javaOptions = List.copyOf(Objects.requireNonNull(javaOptions, "javaOptions"));
            Objects.requireNonNull(mainClass, "mainClass");
            arguments = List.copyOf(Objects.requireNonNull(arguments, "arguments"));
            environment = Collections.unmodifiableMap(
                    new LinkedHashMap<>(Objects.requireNonNull(environment, "environment")));
            Objects.requireNonNull(listeningPrefix, "listeningPrefix");
            Objects.requireNonNull(logFile, "logFile");
            if (startTimeout == null || startTimeout.isNegative() || startTimeout.isZero()) {
                throw new IllegalArgumentException(name + "'s start timeout must be > 0, was " + startTimeout);
            }
        }
    }

    private final Process process;
    private final URI baseUri;
    private final Path logFile;
    private final Thread hook;

    private ChildJvm(Process process, URI baseUri, Path logFile) {
        this.process = process;
        this.baseUri = baseUri;
        this.logFile = logFile;
        this.hook = new Thread(this::stop, "child-jvm-stop-" + process.pid());
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * A fresh, empty log file in the temp directory, {@code <prefix><n>.log}.
     *
     * @param name what will write it, for the message when it cannot be created
     * @throws IllegalStateException when it cannot be created
     */
    public static Path newLogFile(String prefix, String name) {
        try {
            return Files.createTempFile(prefix, ".log");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create " + name + "'s log file: " + e.getMessage(), e);
        }
    }

    /**
     * Starts the child and returns once it prints its URL, checking every 50 ms.
     *
     * @throws IllegalStateException when it cannot be started, exits first, or stays silent past the start timeout
     *         (it is then killed); the message names it ({@link Spec#name()}) and its log file, and quotes the last
     *         10 lines it wrote there
     */
    public static ChildJvm start(Spec spec) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(spec.javaOptions());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), spec.mainClass()));
        command.addAll(spec.arguments());
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(spec.logFile().toFile()));
        Map<String, String> env = pb.environment();
        spec.environment().forEach((key, value) -> {
            if (value != null) {
                env.put(key, value);
            } else {
                env.remove(key);
            }
        });
        Pattern listening = Pattern.compile("^" + Pattern.quote(spec.listeningPrefix()) + "(http://\\S+)");
        long logStartBytes = sizeOf(spec.logFile());
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + spec.name() + " (" + command.get(0) + "): "
                    + e.getMessage(), e);
        }
        long deadlineNs = System.nanoTime() + spec.startTimeout().toNanos();
        try {
            while (true) {
                URI uri = listening(listening, spec.logFile(), logStartBytes);
                if (uri != null) {
                    return new ChildJvm(process, uri, spec.logFile());
                }
                if (!process.isAlive()) {
                    throw new IllegalStateException(spec.name() + " exited with code " + process.exitValue()
                            + " before it listened (log " + spec.logFile() + "):" + tail(spec.logFile(), logStartBytes));
                }
                if (System.nanoTime() > deadlineNs) {
                    kill(process);
                    throw new IllegalStateException(spec.name() + " did not come up within "
                            + spec.startTimeout().toSeconds() + " s; killed it (log " + spec.logFile() + "):"
                            + tail(spec.logFile(), logStartBytes));
                }
                Thread.sleep(POLL_INTERVAL.toMillis());
            }
        } catch (InterruptedException e) {
            kill(process);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + spec.name() + " was starting", e);
        } catch (RuntimeException e) {
            kill(process);
            throw e;
        }
    }

    /** Where it listens, e.g. {@code http://127.0.0.1:41234}. */
    public URI baseUri() {
        return baseUri;
    }

    /** Its stdout and stderr. */
    public Path logFile() {
        return logFile;
    }

    /** Its process id. */
    public long pid() {
        return process.pid();
    }

    /** SIGTERM, up to {@link #STOP_GRACE} for it to close its server and pool, then SIGKILL. Idempotent. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting: the hook is running or has run
        }
    }

    private void stop() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                kill(process);
            }
        } catch (InterruptedException e) {
            kill(process);
            Thread.currentThread().interrupt();
        }
    }

    private static void kill(Process process) {
        process.destroyForcibly();
        try {
            process.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The {@code java} this process runs, else the one in its {@code java.home}. */
    static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private static URI listening(Pattern listening, Path log, long fromBytes) {
        List<String> lines;
        try {
            lines = linesFrom(log, fromBytes);
        } catch (IOException notYet) {
            return null;
        }
        for (String line : lines) {
            Matcher m = listening.matcher(line);
            if (m.find()) {
                return URI.create(m.group(1));
            }
        }
        return null;
    }

    private static String tail(Path log, long fromBytes) {
        List<String> all;
        try {
            all = linesFrom(log, fromBytes);
        } catch (IOException e) {
            return " (unreadable: " + e.getMessage() + ")";
        }
        List<String> last = all.subList(Math.max(0, all.size() - TAIL_LINES), all.size());
        return last.isEmpty() ? " (empty)" : "\n  " + String.join("\n  ", last);
    }

    /** The lines of the log after its first {@code fromBytes} bytes (what an earlier writer left there). */
    private static List<String> linesFrom(Path log, long fromBytes) throws IOException {
        byte[] bytes = Files.readAllBytes(log);
        int from = (int) Math.min(fromBytes, bytes.length);
        String text = new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : text.lines().toList();
    }

    private static long sizeOf(Path log) {
        try {
            return Files.exists(log) ? Files.size(log) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
