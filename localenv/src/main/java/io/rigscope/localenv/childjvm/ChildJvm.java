package io.rigscope.localenv.childjvm;

import io.rigscope.model.proc.ProcStat;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A process this JVM starts and owns, so that the instrument never shares a JVM (its collector, its threads) with
 * what it runs or measures. Two kinds:
 *
 * <ul>
 *   <li>a service ({@link #start(Spec)}): {@code java <options> -cp <this JVM's class path> <main> <arguments>},
 *       started with the {@code java} of this process; its stdout and stderr are appended to a log file; it counts as
 *       up once it prints a line {@code <listening prefix>http://...}, whose URL becomes {@link #baseUri()};</li>
 *   <li>a process spoken to over a line protocol ({@link #start(String, List, Path)}, the peer bench's server and
 *       tools): its stdin takes commands ({@link #send}), its stdout answers one line at a time ({@link #next}), its
 *       stderr is appended to the log file.</li>
 * </ul>
 *
 * {@link #close()}, and a shutdown hook for a JVM stopped with Ctrl-C, stop it: a line-protocol child is first sent
 * {@code quit} and given {@link #QUIT_GRACE} to end; then SIGTERM, {@link #STOP_GRACE} for it to close its server
 * and pool, then SIGKILL. Every failure names the child and its log file, and quotes the last lines it wrote there.
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
    /** How long {@link #close()} gives a line-protocol child to end after {@code quit}, before SIGTERM. */
    public static final Duration QUIT_GRACE = Duration.ofSeconds(10);
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);
    /** Marks the end of a line-protocol child's stdout in its queue. */
    private static final String EOF = new String("<eof>");

    /**
     * How to start a service.
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

    private final String name;
    private final Process process;
    private final Path log;
    /** What the log held before this child wrote to it (an earlier writer's lines are not its own). */
    private final long logStartBytes;
    /** A service's URL; null for a line-protocol child. */
    private final URI baseUri;
    /** A line-protocol child's stdin and the lines of its stdout; null for a service. */
    private final PrintStream in;
    private final BlockingQueue<String> lines;
    private final Thread hook;

    private ChildJvm(String name, Process process, Path log, long logStartBytes, URI baseUri, boolean lineProtocol) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.logStartBytes = logStartBytes;
        this.baseUri = baseUri;
        if (lineProtocol) {
            this.in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
            this.lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(this::readLines, "child-jvm-out-" + name);
            reader.setDaemon(true);
            reader.start();
        } else {
            this.in = null;
            this.lines = null;
        }
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
     * Starts a service and returns once it prints its URL, checking every 50 ms.
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
                    return new ChildJvm(spec.name(), process, spec.logFile(), logStartBytes, uri, false);
                }
                if (!process.isAlive()) {
                    throw new IllegalStateException(spec.name() + " exited with code " + process.exitValue()
                            + " before it listened (log " + spec.logFile() + "):"
                            + serviceTail(spec.logFile(), logStartBytes));
                }
                if (System.nanoTime() > deadlineNs) {
                    kill(process);
                    throw new IllegalStateException(spec.name() + " did not come up within "
                            + spec.startTimeout().toSeconds() + " s; killed it (log " + spec.logFile() + "):"
                            + serviceTail(spec.logFile(), logStartBytes));
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

    /**
     * Starts {@code command} as a child spoken to over a line protocol, its stderr appended to {@code log} (whose
     * directory is created); returns at once.
     *
     * @param name what it is, as messages name it
     */
    public static ChildJvm start(String name, List<String> command, Path log) throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        long logStartBytes = sizeOf(log);
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new ChildJvm(name, p, log, logStartBytes, null, true);
    }

    /** A line-protocol child: sends one command line. */
    public void send(String line) {
        requireLineProtocol().println(line);
    }

    /**
     * A line-protocol child: the next line it prints, waiting at most {@code timeout}.
     *
     * @throws IllegalStateException when the child ends or stays silent: the message names it and its log
     */
    public String next(Duration timeout) {
        requireLineProtocol();
        String line;
        try {
            line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name + ": interrupted");
        }
        if (line == null) {
            throw new IllegalStateException(name + " said nothing for " + timeout.toSeconds() + " s (log: " + log + ")");
        }
        if (line == EOF) {
            lines.add(EOF);
            String tail;
            try {
                tail = String.join(" | ", lastLines(log, logStartBytes, 5)).strip();
            } catch (IOException e) {
                tail = "no log";
            }
            throw new IllegalStateException(name + " ended" + exitText() + " (log: " + log + ": " + tail + ")");
        }
        return line;
    }

    /** Where a service listens, e.g. {@code http://127.0.0.1:41234}; null for a line-protocol child. */
    public URI baseUri() {
        return baseUri;
    }

    /** Its log file: a service's stdout and stderr, a line-protocol child's stderr. */
    public Path log() {
        return log;
    }

    /** Its process id. */
    public long pid() {
        return process.pid();
    }

    /** Its CPU time so far (user + system, all its threads, from /proc/PID/stat: {@link ProcStat}), nanoseconds. */
    public long cpuNanos() {
        return ProcStat.ofPid(process.pid()).cpuNanos();
    }

    /**
     * Stops it (see the class comment; a line-protocol child is sent {@code quit} first). Idempotent.
     */
    @Override
    public void close() {
        if (in != null) {
            try {
                send("quit");
                in.close();
                process.waitFor(QUIT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                kill(process);
                Thread.currentThread().interrupt();
            }
        }
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting: the hook is running or has run
        }
    }

    private PrintStream requireLineProtocol() {
        if (in == null) {
            throw new IllegalStateException(name + " is a service, not spoken to over a line protocol");
        }
        return in;
    }

    private void readLines() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the child ended
        } finally {
            lines.add(EOF);
        }
    }

    /** SIGTERM, up to {@link #STOP_GRACE} for it to close its server and pool, then SIGKILL. */
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

    private String exitText() {
        try {
            return process.waitFor(2, TimeUnit.SECONDS) ? " with exit code " + process.exitValue() : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** The {@code java} this process runs, else the one in its {@code java.home}. */
    public static String javaBinary() {
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

    /** A service's last 10 lines, one per line, as its start failures quote them. */
    private static String serviceTail(Path log, long fromBytes) {
        List<String> last;
        try {
            last = lastLines(log, fromBytes, 10);
        } catch (IOException e) {
            return " (unreadable: " + e.getMessage() + ")";
        }
        return last.isEmpty() ? " (empty)" : "\n  " + String.join("\n  ", last);
    }

    /** The last {@code n} lines of the log after its first {@code fromBytes} bytes. */
    private static List<String> lastLines(Path log, long fromBytes, int n) throws IOException {
        List<String> all = linesFrom(log, fromBytes);
        return all.subList(Math.max(0, all.size() - n), all.size());
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
