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
import java.io.RandomAccessFile;
import io.rigscope.generator.plan.CustomerPool;
import io.rigscope.rig.options.UsageException;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

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

    /**
     * The Postgres log line that explains a failed step: the log's length is taken before the step ({@link #mark}),
     * and after a failure {@link #firstError} reads what the server wrote since and returns its first {@code ERROR:} or
     * {@code FATAL:} line (pgbench's own line often says only that the run was aborted; the server's says which
     * constraint refused which row).
     *
     * @param log the Postgres log file, or null when the series knows none (then nothing is read)
     * @param fromBytes the log's length when the step began
     */
    public record LogExcerpt(Path log, long fromBytes) {

        /** The most bytes read after the mark: a failed step's first error is near its start. */
        private static final int MAX_READ_BYTES = 1 << 20;

        /** The log as it is now, or a mark that reads nothing when {@code log} is null or unreadable. */
        public static LogExcerpt mark(Path log) {
            if (log == null) {
                return new LogExcerpt(null, 0);
            }
            try {
                return new LogExcerpt(log, Files.size(log));
            } catch (IOException e) {
                return new LogExcerpt(null, 0);
            }
        }

        /**
         * The first error line written since the mark, its message only ({@code ERROR:  new row for relation ...}, the
         * line's prefix cut), or null when the log holds none or cannot be read.
         */
        public String firstError() {
            if (log == null) {
                return null;
            }
            try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
                long length = f.length();
                if (length <= fromBytes) {
                    return null;
                }
                byte[] bytes = new byte[(int) Math.min(MAX_READ_BYTES, length - fromBytes)];
                f.seek(fromBytes);
                f.readFully(bytes);
                for (String line : new String(bytes, StandardCharsets.UTF_8).lines().toList()) {
                    for (String level : new String[] {"ERROR:", "FATAL:"}) {
                        int at = line.indexOf(level);
                        if (at >= 0) {
                            return line.substring(at).strip();
                        }
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        }
    }

    /**
     * The denominator's row for a service rigscope did not write: the series file's {@code denominator.insert}, one
     * row ({@code INSERT INTO t (a, b) VALUES ('${customer_id}', ${quantity})}), turned into a pgbench script that
     * inserts {@code batch} such rows in one multi-row statement per transaction, as the service's batch would.
     *
     * <p>Placeholders: {@code ${quantity}} (a pgbench variable per row, {@code random(min, max)} of the ingest body's
     * quantity), {@code ${customer_id}} (per row: a {@code %d} pattern's number drawn by pgbench, or an id of a listed
     * pool drawn once when the script is written) and {@code ${index}} (the row's index in its statement). Anything
     * else a row needs (a unique key, a timestamp) is SQL: {@code md5(random()::text)}, {@code gen_random_uuid()},
     * {@code now()}. Whatever follows the row's parentheses ({@code ON CONFLICT ...}) ends the statement once.
     */
    public static final class InsertTemplate {

        private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]*)}");
        private static final List<String> ALLOWED = List.of("customer_id", "quantity", "index");

        private final String head;
        private final String row;
        private final String tail;

        private InsertTemplate(String head, String row, String tail) {
            this.head = head;
            this.row = row;
            this.tail = tail;
        }

        /**
         * Parses and checks {@code insert}.
         *
         * @param where the file and key, named in the error ({@code series.yaml: denominator.insert})
         * @throws UsageException when it is not one row's INSERT ... VALUES (...) or holds an unknown placeholder
         */
        public static InsertTemplate check(String insert, String where) {
            String sql = insert.strip();
            if (sql.endsWith(";")) {
                sql = sql.substring(0, sql.length() - 1).strip();
            }
            if (!sql.toUpperCase(Locale.ROOT).startsWith("INSERT INTO ")) {
                throw new UsageException(where + " must be one INSERT INTO table (columns) VALUES (...) statement, was '"
                        + abbreviate(sql) + "'");
            }
            Matcher values = Pattern.compile("(?i)\\bVALUES\\s*\\(").matcher(sql);
            int at = -1;
            while (values.find()) {
                at = values.end() - 1;
            }
            if (at < 0) {
                throw new UsageException(where + " has no VALUES (...) row; write the row the service inserts, e.g. "
                        + "INSERT INTO t (a, b) VALUES ('${customer_id}', ${quantity})");
            }
            int close = closing(sql, at);
            if (close < 0) {
                throw new UsageException(where + ": the VALUES row's parenthesis is not closed");
            }
            Matcher m = PLACEHOLDER.matcher(sql);
            while (m.find()) {
                if (!ALLOWED.contains(m.group(1))) {
                    throw new UsageException(where + ": unknown placeholder ${" + m.group(1) + "}; allowed: "
                            + ALLOWED.stream().map(p -> "${" + p + "}").toList()
                            + " (other values are SQL: md5(random()::text), gen_random_uuid(), now())");
                }
            }
            return new InsertTemplate(sql.substring(0, at), sql.substring(at, close + 1), sql.substring(close + 1));
        }

        /**
         * The pgbench script: one {@code \set} per drawn value, then one statement of {@code batch} rows.
         *
         * @param customers the ingest body's customer pool
         * @param quantityMin the ingest body's smallest quantity
         * @param quantityMax its largest
         */
        public String script(int batch, CustomerPool customers, long quantityMin, long quantityMax) {
            StringBuilder sets = new StringBuilder();
            List<String> rows = new ArrayList<>();
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int i = 0; i < batch; i++) {
                String r = row;
                if (r.contains("${quantity}")) {
                    sets.append("\\set q").append(i).append(" random(").append(quantityMin).append(", ")
                            .append(quantityMax).append(")\n");
                    r = r.replace("${quantity}", ":q" + i);
                }
                if (r.contains("${customer_id}")) {
                    if (customers instanceof CustomerPool.Ranged ranged) {
                        sets.append("\\set c").append(i).append(" random(").append(ranged.from()).append(", ")
                                .append(ranged.to()).append(")\n");
                        // pgbench substitutes :c0 outside string literals only: a quoted id becomes an expression
                        String[] sides = ranged.pattern().split("%d", -1);
                        List<String> parts = new ArrayList<>();
                        if (!sides[0].isEmpty()) {
                            parts.add("'" + sides[0].replace("'", "''") + "'");
                        }
                        parts.add(":c" + i);
                        if (sides.length > 1 && !sides[1].isEmpty()) {
                            parts.add("'" + sides[1].replace("'", "''") + "'");
                        }
                        r = r.replace("'${customer_id}'", "(" + String.join(" || ", parts) + ")")
                                .replace("${customer_id}", ranged.pattern().replace("%d", ":c" + i));
                    } else {
                        r = r.replace("${customer_id}", customers.draw(random).replace("'", "''"));
                    }
                }
                rows.add(r.replace("${index}", Integer.toString(i)));
            }
            return sets + head + String.join(", ", rows) + tail + ";\n";
        }

        /** The index of the parenthesis closing the one at {@code open}, outside quoted strings; -1 when none. */
        private static int closing(String sql, int open) {
            int depth = 0;
            boolean quoted = false;
            for (int i = open; i < sql.length(); i++) {
                char c = sql.charAt(i);
                if (c == '\'') {
                    quoted = !quoted;
                } else if (!quoted && c == '(') {
                    depth++;
                } else if (!quoted && c == ')' && --depth == 0) {
                    return i;
                }
            }
            return -1;
        }

        private static String abbreviate(String s) {
            return s.length() > 60 ? s.substring(0, 60) + "..." : s;
        }
    }
}
