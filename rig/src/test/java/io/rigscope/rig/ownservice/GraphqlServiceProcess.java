package io.rigscope.rig.ownservice;

import io.rigscope.pg.PgUrl;
import io.rigscope.localenv.childjvm.ChildJvm;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@link GraphqlService} in a JVM of its own (a {@link ChildJvm}: the {@code java} of this process, this JVM's class
 * path), as every system under test runs: the instrument never shares a JVM with the service.
 *
 * <pre>{@code
 * PgUrl pg = PgUrl.parse("test", postgres.libpqUrl("postgres", "postgres"));
 * try (GraphqlServiceProcess ledger = GraphqlServiceProcess.start(GraphqlServiceProcess.Spec.of(pg, "t0ken"))) {
 *     URI graphql = ledger.baseUri().resolve("/graphql");   // POST with Authorization: Bearer t0ken
 * }
 * }</pre>
 *
 * <p>The child's stdout and stderr are appended to a log file, which is watched for the
 * {@code listening on http://...} line. The database URL and the token reach the child through
 * its environment ({@code LEDGER_PG}, {@code LEDGER_TOKEN}; the service reads {@code --pg env:LEDGER_PG}), never its
 * command line, which {@code ps} shows. {@link #close()}, and a shutdown hook for a test JVM that is stopped, send
 * SIGTERM, give the service 10 s to close its server and pool, then kill it.
 *
 * <p>Blocking; not thread-safe.
 */
public final class GraphqlServiceProcess implements AutoCloseable {

    /** The child's JVM options: small, since it shares the machine with the instrument. */
    public static final List<String> JAVA_OPTS = List.of("-Xms64m", "-Xmx256m", "-XX:+UseSerialGC");

    private static final String NAME = "the ledger service";

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

    private final ChildJvm child;

    private GraphqlServiceProcess(ChildJvm child) {
        this.child = child;
    }

    /** A fresh, empty log file in the temp directory, {@code rigscope-ledger-<n>.log}. */
    public static Path newLogFile() {
        return ChildJvm.newLogFile("rigscope-ledger-", NAME);
    }

    /**
     * Starts the service and returns once it listens.
     *
     * @throws IllegalStateException when it exits first, or stays silent past the start timeout (it is then
     *         killed); the message names the log file and quotes its last lines
     */
    public static GraphqlServiceProcess start(Spec spec) {
        List<String> arguments = new ArrayList<>(List.of("--port", "0", "--pg", "env:LEDGER_PG",
                "--atomic", Boolean.toString(spec.atomic())));
        if (spec.token() != null) {
            arguments.addAll(List.of("--token", "env:LEDGER_TOKEN"));
        }
        Map<String, String> env = new HashMap<>();
        env.put("LEDGER_PG", spec.pg().libpq());
        env.put("LEDGER_TOKEN", spec.token()); // null: not inherited either
        return new GraphqlServiceProcess(ChildJvm.start(new ChildJvm.Spec(NAME, JAVA_OPTS,
                GraphqlService.class.getName(), arguments, env, GraphqlService.LISTENING, spec.startTimeout(),
                spec.logFile())));
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
