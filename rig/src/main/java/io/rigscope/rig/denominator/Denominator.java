package io.rigscope.rig.denominator;

import io.rigscope.pg.PgUrl;
import io.rigscope.sut.SutContract;
import io.rigscope.sut.schema.Provisioning;
import io.rigscope.wire.host.ExecutableSearch;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The database's own ceiling for the SUT's row shape: pgbench, closed loop, running a custom script that
 * inserts {@link Spec#batch} rows into {@code usage_events} per transaction (the same columns, indexes,
 * constraints and {@code ON CONFLICT} clause the SUT's multi-row insert uses) into the same database; for a
 * service rigscope did not write, the series file's own row ({@link InsertTemplate}).
 * {@code rows/s = tps × batch}.
 *
 * <p>The rows stay in the table (keys {@code denominator-<nonce>-<uuid>}), as the SUT's rows do; run it after
 * the repeats it stands beside, not between them.
 *
 * <p>Blocking; not for event loops.
 */
public final class Denominator {

    /**
     * How to measure.
     *
     * @param pg the database (a role that may INSERT into usage_events)
     * @param batch rows per transaction, the SUT's batch size
     * @param duration how long pgbench runs
     * @param clients concurrent pgbench clients
     * @param tenant the tenant whose id the rows carry
     * @param pgbench the pgbench binary, or null to find it (PATH, then /usr/lib/postgresql/N/bin)
     * @param script the user's row as a pgbench script ({@link InsertTemplate#script}), or null for the reference
     *               SUT's row shape (then {@code tenant} is required)
     */
    public record Spec(PgUrl pg, int batch, Duration duration, int clients, String tenant, Path pgbench,
                       String script) {
        public Spec {
            Objects.requireNonNull(pg, "pg");
            Objects.requireNonNull(duration, "duration");
            if (script == null) {
                Objects.requireNonNull(tenant, "tenant");
            }
            if (batch < 1 || batch > 10_000) {
                throw new IllegalArgumentException("--batch must be 1..10000, got " + batch);
            }
            if (duration.toSeconds() < 1) {
                throw new IllegalArgumentException("--duration must be at least 1s, got " + duration);
            }
            if (clients < 1 || clients > 1000) {
                throw new IllegalArgumentException("--clients must be 1..1000, got " + clients);
            }
        }

        /** The reference SUT's row shape. */
        public Spec(PgUrl pg, int batch, Duration duration, int clients, String tenant, Path pgbench) {
            this(pg, batch, duration, clients, tenant, pgbench, null);
        }

        public static Spec of(PgUrl pg, int batch, Duration duration) {
            return new Spec(pg, batch, duration, 8, Provisioning.DEMO_TENANT, null);
        }
    }

    /**
     * What pgbench measured.
     *
     * @param rowsPerSec tps × batch
     * @param tps transactions per second (pgbench's, without connection time)
     * @param transactions transactions processed
     * @param failedTransactions transactions that failed (0 on a clean run)
     * @param latencyAvgMs pgbench's average latency
     * @param spec what was run
     * @param script the script pgbench ran
     */
    public record Result(double rowsPerSec, double tps, long transactions, long failedTransactions, double latencyAvgMs,
                         Spec spec, String script) {
        /** {@code database alone M rows/s}. */
        public String line() {
            return String.format("database alone %,.0f rows/s (pgbench, batch %d, %d clients, %d s)", rowsPerSec,
                    spec.batch(), spec.clients(), spec.duration().toSeconds());
        }
    }

    private static final Pattern TPS = Pattern.compile("^tps = ([0-9.]+)", Pattern.MULTILINE);
    private static final Pattern PROCESSED = Pattern.compile("number of transactions actually processed: (\\d+)");
    private static final Pattern FAILED = Pattern.compile("number of failed transactions: (\\d+)");
    private static final Pattern LATENCY = Pattern.compile("latency average = ([0-9.]+) ms");

    private final Spec spec;

    public Denominator(Spec spec) {
        this.spec = spec;
    }

    /** The pgbench script for a tenant id and batch: the reference SUT's row shape ({@link SutContract}). */
    public static String script(long tenantId, int batch, String nonce) {
        return SutContract.denominatorScript(tenantId, batch, nonce);
    }

    /**
     * Runs pgbench and parses its summary. {@code onProgress} gets pgbench's per-second progress lines.
     *
     * @throws IllegalStateException when pgbench is missing, fails, or prints no tps
     */
    public Result run(Consumer<String> onProgress) {
        Path bin = spec.pgbench() != null ? spec.pgbench() : findPgbench().orElseThrow(() -> new IllegalStateException(
                "pgbench not found on PATH or under /usr/lib/postgresql/<major>/bin; install postgresql-contrib "
                        + "(Debian: apt-get install postgresql-contrib) or pass its path"));
        String script = spec.script() != null ? spec.script()
                : script(Provisioning.tenantId(spec.pg().connectionFactory("rigscope-denominator"), spec.tenant()),
                        spec.batch(), Long.toString(System.currentTimeMillis(), 36));
        Path file;
        try {
            file = Files.createTempFile("rigscope-denominator-", ".sql");
            Files.writeString(file, script, StandardCharsets.UTF_8);
            file.toFile().setReadable(true, false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the pgbench script", e);
        }
        try {
            int threads = Math.max(1, Math.min(spec.clients(), Runtime.getRuntime().availableProcessors()));
            List<String> cmd = List.of(bin.toString(), "-n", "-f", file.toString(), "-c", String.valueOf(spec.clients()),
                    "-j", String.valueOf(threads), "-T", String.valueOf(spec.duration().toSeconds()), "-P", "1",
                    spec.pg().as(spec.pg().user(), null).libpq());
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            if (spec.pg().password() != null) {
                pb.environment().put("PGPASSWORD", spec.pg().password());
            }
            Process p = pb.start();
            StringBuilder out = new StringBuilder();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    out.append(line).append('\n');
                    if (line.startsWith("progress:")) {
                        onProgress.accept(line);
                    }
                }
            }
            if (!p.waitFor(spec.duration().toSeconds() + 60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("pgbench did not finish within " + (spec.duration().toSeconds() + 60) + " s");
            }
            String text = out.toString();
            Matcher tps = TPS.matcher(text);
            if (p.exitValue() != 0 || !tps.find()) {
                throw new Failed("pgbench failed (exit " + p.exitValue() + "): " + tail(text), errorLine(text));
            }
            double t = Double.parseDouble(tps.group(1));
            return new Result(t * spec.batch(), t, group(PROCESSED, text), group(FAILED, text),
                    groupDouble(LATENCY, text), spec, script);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + bin, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pgbench ran", e);
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a leftover temp script is harmless
            }
        }
    }

    /** pgbench on PATH, else the newest /usr/lib/postgresql/N/bin/pgbench. */
    public static Optional<Path> findPgbench() {
        Optional<Path> onPath = ExecutableSearch.onPath("pgbench");
        if (onPath.isPresent()) {
            return onPath;
        }
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> majors = Files.list(root)) {
            return majors.filter(p -> p.getFileName().toString().matches("\\d+"))
                    .filter(p -> Files.isExecutable(p.resolve("bin/pgbench")))
                    .max(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString())))
                    .map(p -> p.resolve("bin/pgbench"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static long group(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static double groupDouble(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    /**
     * pgbench ended without a result. {@link #cause()} is pgbench's own error line ({@code pgbench: error: client 0
     * script 0 aborted in command 2 query 0: ERROR:  new row for relation "t" violates check constraint "t_q_check"}),
     * the first that names an error rather than the closing {@code Run was aborted}.
     */
    public static final class Failed extends IllegalStateException {
        private static final long serialVersionUID = 1L;
        private final String cause;

        Failed(String message, String cause) {
            super(message);
            this.cause = cause;
        }

        /** pgbench's own error line, or the message when it printed none. */
        public String cause() {
            return cause == null ? getMessage() : cause;
        }
    }

    /** The first line of pgbench's output that names an error (not its closing "Run was aborted"), or null. */
    static String errorLine(String text) {
        String fallback = null;
        for (String line : text.lines().map(String::strip).toList()) {
            boolean error = line.contains("error:") || line.contains("ERROR:") || line.contains("FATAL:");
            if (!error) {
                continue;
            }
            if (line.contains("Run was aborted") || line.contains("above results are incomplete")) {
                fallback = fallback == null ? line : fallback;
                continue;
            }
            return line;
        }
        return fallback;
    }

    private static String tail(String text) {
        List<String> lines = new ArrayList<>(text.strip().lines().toList());
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    }
}
