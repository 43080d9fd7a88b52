package io.rigscope.rig.sutproc;

import io.rigscope.pg.PgUrl;
import io.rigscope.localenv.childjvm.ChildJvm;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The reference SUT in its own JVM: {@code java <opts> -cp <rigscope's classpath> io.rigscope.rig.Main sut ...},
 * so that the generator's health (JVM pause, event-loop lag) measures the generator and not the SUT's garbage
 * collector or threads. Its stdout and stderr go to a log file; its URL is read from the line
 * {@code sut: listening on http://...} it prints once the pool is warm and the port bound. {@link #close()} (and a
 * shutdown hook, for Ctrl-C) sends SIGTERM, waits for the SUT to close its server and pool, then kills it. The
 * process handling is {@link ChildJvm}'s; this class gives it the SUT's command line and environment.
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
    private static final String NAME = "the reference SUT";
    private static final String LISTENING = "sut: listening on ";

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
     * @param poolSize its connection pool size ({@code --pool-size}); 0 is the SUT's default
     */
    public record Spec(PgUrl owner, String appUser, String appPassword, String touch, String insert, String tenant,
                       String apiKey, Duration startTimeout, Path logFile, int poolSize) {

        /** The SUT's default pool. */
        public Spec(PgUrl owner, String appUser, String appPassword, String touch, String insert, String tenant,
                    String apiKey, Duration startTimeout, Path logFile) {
            this(owner, appUser, appPassword, touch, insert, tenant, apiKey, startTimeout, logFile, 0);
        }

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

    private final ChildJvm child;

    private SutProcess(ChildJvm child) {
        this.child = child;
    }

    /** A fresh log file in the temp directory, {@code rigscope-sut-<n>.log}. */
    public static Path newLogFile() {
        return ChildJvm.newLogFile("rigscope-sut-", "the SUT");
    }

    /**
     * Starts the child and waits until it prints its URL.
     *
     * @throws IllegalStateException when it exits or stays silent past {@code startTimeout} (it is then killed);
     *         the message names the log file and quotes its last lines
     */
    public static SutProcess start(Spec spec) {
        String opts = System.getenv("RIGSCOPE_SUT_JAVA_OPTS");
        List<String> javaOptions = Arrays.asList((opts == null || opts.isBlank() ? DEFAULT_JAVA_OPTS : opts)
                .strip().split("\\s+"));
        List<String> arguments = new java.util.ArrayList<>(List.of("sut", "--port", "0", "--bind", "127.0.0.1",
                "--migrate", "--app-user", spec.appUser(), "--api-key-touch", spec.touch(), "--insert", spec.insert(),
                "--tenant", spec.tenant()));
        if (spec.poolSize() > 0) {
            arguments.addAll(List.of("--pool-size", Integer.toString(spec.poolSize())));
        }
        Map<String, String> env = new HashMap<>();
        env.put("RIGSCOPE_PG", spec.owner().libpq());
        env.put("RIGSCOPE_API_KEY", spec.apiKey());
        env.put("RIGSCOPE_APP_PASSWORD", spec.appPassword()); // null: not inherited either
        return new SutProcess(ChildJvm.start(new ChildJvm.Spec(NAME, javaOptions, "io.rigscope.rig.Main", arguments,
                env, LISTENING, spec.startTimeout(), spec.logFile())));
    }

    /** Where it listens, e.g. {@code http://127.0.0.1:41234}. */
    public URI baseUri() {
        return child.baseUri();
    }

    /** Its stdout and stderr. */
    public Path logFile() {
        return child.log();
    }

    /** Its process id. */
    public long pid() {
        return child.pid();
    }

    /** SIGTERM, up to 10 s for it to close its server and pool, then SIGKILL. Idempotent. */
    @Override
    public void close() {
        child.close();
    }
}
