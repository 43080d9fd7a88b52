package io.rigscope.rig.sutproc;

import io.rigscope.pg.PgUrl;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference SUT in its own JVM: {@code java <opts> -cp <rigscope's classpath> io.rigscope.rig.Main sut ...},
 * so that the generator's health (JVM pause, event-loop lag) measures the generator and not the SUT's garbage
 * collector or threads. Its stdout and stderr go to a log file; its URL is read from the line
 * {@code sut: listening on http://...} it prints once the pool is warm and the port bound. {@link #close()} (and a
 * shutdown hook, for Ctrl-C) sends SIGTERM, waits for the SUT to close its server and pool, then kills it.
 *
 * <p>The database URL (password included), the app role's password and the API key reach the child through its
 * environment ({@code RIGSCOPE_PG}, {@code RIGSCOPE_APP_PASSWORD}, {@code RIGSCOPE_API_KEY}), never its command
 * line, which {@code ps} shows.
 *
 * <p>Blocking; not thread-safe.
 */
public final class SutProcess implements AutoCloseable {

    /** JVM options of the child unless {@code RIGSCOPE_SUT_JAVA_OPTS} gives others. */
    public static final String DEFAULT_JAVA_OPTS = "-Xms1g -Xmx1g -XX:+UseZGC -Dio.netty.leakDetection.level=disabled";
    private static final Pattern LISTENING = Pattern.compile("^sut: listening on (http://\\S+)");
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    /**
     * How to start it.
     *
     * @param owner the database as the schema owner (the SUT migrates and provisions it)
     * @param appUser the role the SUT connects as
     * @param appPassword that role's password, or null (trust auth)
     * @param touch {@code per-minute} or {@code every-request}
     * @param insert {@code multi-row} or {@code per-event}
     * @param tenant the tenant to provision
     * @param apiKey the key to provision
     * @param startTimeout how long it may take to print its URL
     * @param logFile where its output goes
     */
    public record Spec(PgUrl owner, String appUser, String appPassword, String touch, String insert, String tenant,
                       String apiKey, Duration startTimeout, Path logFile) {
        public Spec {
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(appUser, "appUser");
            Objects.requireNonNull(touch, "touch");
            Objects.requireNonNull(insert, "insert");
            Objects.requireNonNull(tenant, "tenant");
            Objects.requireNonNull(apiKey, "apiKey");
            Objects.requireNonNull(logFile, "logFile");
            if (startTimeout == null || startTimeout.isNegative() || startTimeout.isZero()) {
                throw new IllegalArgumentException("the SUT's start timeout must be > 0");
            }
        }
    }

    private final Process process;
    private final URI baseUri;
    private final Path logFile;
    private final Thread hook;

    private SutProcess(Process process, URI baseUri, Path logFile) {
        this.process = process;
        this.baseUri = baseUri;
        this.logFile = logFile;
        this.hook = new Thread(this::stop, "sut-process-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** A fresh log file in the temp directory, {@code rigscope-sut-<time>-<n>.log}. */
    public static Path newLogFile() {
        try {
            return Files.createTempFile("rigscope-sut-", ".log");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the SUT's log file: " + e.getMessage(), e);
        }
    }

    /**
     * Starts the child and waits until it prints its URL.
     *
     * @throws IllegalStateException when it exits or stays silent past {@code startTimeout} (it is then killed);
     *         the message names the log file and quotes its last lines
     */
    public static SutProcess start(Spec spec) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        String opts = System.getenv("RIGSCOPE_SUT_JAVA_OPTS");
        command.addAll(Arrays.asList((opts == null || opts.isBlank() ? DEFAULT_JAVA_OPTS : opts).strip().split("\\s+")));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.rigscope.rig.Main", "sut",
                "--port", "0", "--bind", "127.0.0.1", "--migrate", "--app-user", spec.appUser(),
                "--api-key-touch", spec.touch(), "--insert", spec.insert(), "--tenant", spec.tenant()));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(spec.logFile().toFile()));
        Map<String, String> env = pb.environment();
        env.put("RIGSCOPE_PG", spec.owner().libpq());
        env.put("RIGSCOPE_API_KEY", spec.apiKey());
        if (spec.appPassword() != null) {
            env.put("RIGSCOPE_APP_PASSWORD", spec.appPassword());
        } else {
            env.remove("RIGSCOPE_APP_PASSWORD");
        }
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the reference SUT (" + command.get(0) + "): " + e.getMessage(), e);
        }
        long deadlineNs = System.nanoTime() + spec.startTimeout().toNanos();
        try {
            while (true) {
                URI uri = listening(spec.logFile());
                if (uri != null) {
                    return new SutProcess(process, uri, spec.logFile());
                }
                if (!process.isAlive()) {
                    throw new IllegalStateException("the reference SUT exited with code " + process.exitValue()
                            + " before it listened (log " + spec.logFile() + "):" + tail(spec.logFile()));
                }
                if (System.nanoTime() > deadlineNs) {
                    kill(process);
                    throw new IllegalStateException("the reference SUT did not come up within "
                            + spec.startTimeout().toSeconds() + " s; killed it (log " + spec.logFile() + "):"
                            + tail(spec.logFile()));
                }
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            kill(process);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the reference SUT was starting", e);
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

    /** SIGTERM, up to 10 s for it to close its server and pool, then SIGKILL. Idempotent. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting and the hook is running or has run
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
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private static URI listening(Path log) {
        for (String line : lines(log)) {
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                return URI.create(m.group(1));
            }
        }
        return null;
    }

    private static List<String> lines(Path log) {
        try {
            return Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of();
        }
    }

    private static String tail(Path log) {
        List<String> all = lines(log);
        List<String> last = all.subList(Math.max(0, all.size() - 10), all.size());
        return last.isEmpty() ? " (empty)" : "\n  " + String.join("\n  ", last);
    }
}
