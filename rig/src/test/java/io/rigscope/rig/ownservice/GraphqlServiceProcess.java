package io.rigscope.rig.ownservice;

import io.rigscope.pg.PgUrl;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link GraphqlService} in a JVM of its own ({@code java} of this JVM's {@code java.home}, this JVM's class path),
 * as every system under test runs: the instrument never shares a JVM with the service.
 *
 * <pre>{@code
 * PgUrl pg = PgUrl.parse("test", postgres.libpqUrl("postgres", "postgres"));
 * try (GraphqlServiceProcess ledger = GraphqlServiceProcess.start(GraphqlServiceProcess.Spec.of(pg, "t0ken"))) {
 *     URI graphql = ledger.baseUri().resolve("/graphql");   // POST with Authorization: Bearer t0ken
 * }
 * }</pre>
 *
 * <p>The child's stdout and stderr go, line by line, to a log file (a thread of this process copies them, and
 * watches for the {@code listening on http://...} line). The database URL and the token reach the child through
 * its environment ({@code LEDGER_PG}, {@code LEDGER_TOKEN}; the service reads {@code --pg env:LEDGER_PG}), never its
 * command line, which {@code ps} shows. {@link #close()}, and a shutdown hook for a test JVM that is stopped, send
 * SIGTERM, give the service 10 s to close its server and pool, then kill it.
 *
 * <p>Blocking; not thread-safe.
 */
public final class GraphqlServiceProcess implements AutoCloseable {

    /** The child's JVM options: small, since it shares the machine with the instrument. */
    public static final List<String> JAVA_OPTS = List.of("-Xms64m", "-Xmx256m", "-XX:+UseSerialGC");

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);

    /**
     * How to start it.
     *
     * @param pg the database (the service creates its table there)
     * @param token the bearer token it requires, or null for none
     * @param atomic one transaction per request (true) or per field
     * @param startTimeout how long it may take to print its URL
     * @param logFile where its output goes (appended)
     */
    public record Spec(PgUrl pg, String token, boolean atomic, Duration startTimeout, Path logFile) {
        public Spec {
            Objects.requireNonNull(pg, "pg");
            Objects.requireNonNull(logFile, "logFile");
            if (startTimeout == null || startTimeout.isNegative() || startTimeout.isZero()) {
                throw new IllegalArgumentException("the start timeout must be > 0, was " + startTimeout);
            }
        }

        /** Atomic, up to 60 s to start, a fresh log file in the temp directory. */
        public static Spec of(PgUrl pg, String token) {
            return new Spec(pg, token, true, Duration.ofSeconds(60), newLogFile());
        }

        /** This spec with each field of a request on its own ({@code --atomic false}) or all in one transaction. */
        public Spec withAtomic(boolean atomicNow) {
            return new Spec(pg, token, atomicNow, startTimeout, logFile);
        }

        /** This spec with another start timeout. */
        public Spec withStartTimeout(Duration timeout) {
            return new Spec(pg, token, atomic, timeout, logFile);
        }
    }

    private final Process process;
    private final URI baseUri;
    private final Path logFile;
    private final Thread hook;

    private GraphqlServiceProcess(Process process, URI baseUri, Path logFile) {
        this.process = process;
        this.baseUri = baseUri;
        this.logFile = logFile;
        this.hook = new Thread(this::stop, "ledger-process-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** A fresh, empty log file in the temp directory, {@code rigscope-ledger-<n>.log}. */
    public static Path newLogFile() {
        try {
            return Files.createTempFile("rigscope-ledger-", ".log");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the ledger service's log file: " + e.getMessage(), e);
        }
    }

    /**
     * Starts the service and returns once it listens.
     *
     * @throws IllegalStateException when it exits first, or stays silent past the start timeout (it is then
     *         killed); the message names the log file and quotes its last lines
     */
    public static GraphqlServiceProcess start(Spec spec) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JAVA_OPTS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), GraphqlService.class.getName(),
                "--port", "0", "--pg", "env:LEDGER_PG", "--atomic", Boolean.toString(spec.atomic())));
        if (spec.token() != null) {
            command.addAll(List.of("--token", "env:LEDGER_TOKEN"));
        }
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("LEDGER_PG", spec.pg().libpq());
        if (spec.token() != null) {
            pb.environment().put("LEDGER_TOKEN", spec.token());
        } else {
            pb.environment().remove("LEDGER_TOKEN");
        }
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the ledger service (" + command.get(0) + "): "
                    + e.getMessage(), e);
        }
        CompletableFuture<URI> listening = new CompletableFuture<>();
        Thread copier = new Thread(() -> copyOutput(process.getInputStream(), spec.logFile(), listening),
                "ledger-process-log");
        copier.setDaemon(true);
        copier.start();
        try {
            URI uri = listening.get(spec.startTimeout().toMillis(), TimeUnit.MILLISECONDS);
            return new GraphqlServiceProcess(process, uri, spec.logFile());
        } catch (TimeoutException e) {
            kill(process);
            throw new IllegalStateException("the ledger service did not listen within " + spec.startTimeout().toSeconds()
                    + " s; killed it (log " + spec.logFile() + "):" + tail(spec.logFile()), e);
        } catch (ExecutionException e) {
            kill(process);
            String code = process.isAlive() ? "?" : Integer.toString(process.exitValue());
            throw new IllegalStateException("the ledger service exited with code " + code + " before it listened (log "
                    + spec.logFile() + "):" + tail(spec.logFile()), e.getCause());
        } catch (InterruptedException e) {
            kill(process);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the ledger service was starting", e);
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

    /** SIGTERM, up to 10 s for it to close its server and pool, then SIGKILL. Idempotent. */
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

    /**
     * Copies the child's output to the log until the child closes it (it exits), completing {@code listening} with
     * the URL of the first {@code listening on} line, or exceptionally at the end of the output.
     */
    private static void copyOutput(InputStream output, Path logFile, CompletableFuture<URI> listening) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8));
             BufferedWriter log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                     StandardOpenOption.APPEND)) {
            String line;
            while ((line = in.readLine()) != null) {
                log.write(line);
                log.newLine();
                log.flush();
                if (!listening.isDone() && line.startsWith(GraphqlService.LISTENING)) {
                    listening.complete(URI.create(line.substring(GraphqlService.LISTENING.length()).strip()));
                }
            }
            listening.completeExceptionally(new IllegalStateException("its output ended"));
        } catch (IOException | RuntimeException e) {
            listening.completeExceptionally(e);
        }
    }

    private static String tail(Path log) {
        List<String> all;
        try {
            all = Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return " (unreadable: " + e.getMessage() + ")";
        }
        List<String> last = all.subList(Math.max(0, all.size() - 10), all.size());
        return last.isEmpty() ? " (empty)" : "\n  " + String.join("\n  ", last);
    }
}
