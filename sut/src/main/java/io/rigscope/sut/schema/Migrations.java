package io.rigscope.sut.schema;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.rigscope.sut.db.Sql;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The reference SUT's schema: versioned SQL files ({@code V001__name.sql}, ...) shipped as resources and
 * listed in order in {@code index.txt}, applied in order, each in its own transaction, each recorded in
 * {@code schema_migrations (version, name, checksum, applied_at)}. A migration already applied is skipped;
 * one whose file changed since (a different SHA-256) stops the run. Concurrent migrators serialize on an
 * advisory lock.
 *
 * <p>Run as the owner of the schema (a role that can create tables and roles). The app role the service
 * connects as, {@value #APP_ROLE}, is created by a migration.
 *
 * <p>Blocking; not for event loops. Thread-safe (stateless apart from the parsed file list).
 */
public final class Migrations {

    /** The role the service connects as; created by V003 with only the grants the service needs. */
    public static final String APP_ROLE = "rigscope_app";

    private static final String DIR = "/io/rigscope/sut/schema/";
    private static final Pattern FILE = Pattern.compile("V(\\d{3})__([a-z0-9_]+)\\.sql");
    private static final long LOCK_KEY = 0x7269_6773_636f_7065L; // "rigscope"
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    /**
     * One migration file.
     *
     * @param version its number (1 for V001)
     * @param name the file's descriptive part
     * @param sql the script
     * @param checksum lower-case hex SHA-256 of the script's UTF-8 bytes
     */
    public record Migration(int version, String name, String sql, String checksum) {
        public Migration {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(sql, "sql");
            Objects.requireNonNull(checksum, "checksum");
        }
    }

    /** What {@link #apply} did. */
    public record Applied(List<Integer> appliedVersions, List<Integer> alreadyPresent) {
        public Applied {
            appliedVersions = List.copyOf(appliedVersions);
            alreadyPresent = List.copyOf(alreadyPresent);
        }
    }

    /** The state of a database's schema compared with what this build ships. */
    public record Status(boolean tableExists, List<Integer> missing, List<Integer> changed, List<Integer> unknown) {
        public Status {
            missing = List.copyOf(missing);
            changed = List.copyOf(changed);
            unknown = List.copyOf(unknown);
        }

        /** Every shipped migration applied, unchanged, and none unknown to this build. */
        public boolean clean() {
            return tableExists && missing.isEmpty() && changed.isEmpty() && unknown.isEmpty();
        }
    }

    private final List<Migration> migrations;

    private Migrations(List<Migration> migrations) {
        this.migrations = List.copyOf(migrations);
    }

    /** The migrations this build ships, in order. */
    public static Migrations shipped() {
        List<Migration> list = new ArrayList<>();
        String index = resource("index.txt");
        for (String line : index.split("\n")) {
            String file = line.strip();
            if (file.isEmpty()) {
                continue;
            }
            Matcher m = FILE.matcher(file);
            if (!m.matches()) {
                throw new IllegalStateException("schema index lists '" + file + "', not a V###__name.sql file");
            }
            String sql = resource(file);
            list.add(new Migration(Integer.parseInt(m.group(1)), m.group(2), sql, sha256(sql)));
        }
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).version() != i + 1) {
                throw new IllegalStateException("schema migrations must be numbered 1, 2, 3, ... in order; found V"
                        + list.get(i).version() + " at position " + (i + 1));
            }
        }
        return new Migrations(list);
    }

    public List<Migration> all() {
        return migrations;
    }

    /** Applies every migration not yet recorded, in order; fails if a recorded one changed since. */
    public Applied apply(ConnectionFactory owner) {
        List<Integer> applied = new ArrayList<>();
        List<Integer> present = new ArrayList<>();
        Sql.withConnection(owner, c -> Flux.concat(
                        Sql.update(c, """
                                CREATE TABLE IF NOT EXISTS schema_migrations (
                                    version    integer PRIMARY KEY,
                                    name       text        NOT NULL,
                                    checksum   text        NOT NULL,
                                    applied_at timestamptz NOT NULL DEFAULT now())"""),
                        Flux.fromIterable(migrations).concatMap(m -> applyOne(c, m, applied, present))))
                .blockLast(TIMEOUT);
        return new Applied(applied, present);
    }

    private Mono<Long> applyOne(Connection c, Migration m, List<Integer> applied, List<Integer> present) {
        Mono<Long> body = Sql.update(c, "SELECT pg_advisory_xact_lock(" + LOCK_KEY + ")")
                .then(Sql.query(c, "SELECT checksum FROM schema_migrations WHERE version = $1",
                        row -> row.get("checksum", String.class), m.version()).next()
                        .map(java.util.Optional::of).defaultIfEmpty(java.util.Optional.empty()))
                .flatMap(recorded -> {
                    if (recorded.isPresent()) {
                        if (!recorded.get().equals(m.checksum())) {
                            return Mono.error(new IllegalStateException("migration V" + pad(m.version()) + " ("
                                    + m.name() + ") changed since it was applied: recorded checksum "
                                    + recorded.get() + ", shipped " + m.checksum()));
                        }
                        present.add(m.version());
                        return Mono.just(0L);
                    }
                    return Sql.update(c, m.sql())
                            .then(Sql.update(c, "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                                    m.version(), m.name(), m.checksum()))
                            .doOnSuccess(n -> applied.add(m.version()));
                });
        return Mono.from(c.beginTransaction())
                .then(body)
                .flatMap(n -> Mono.from(c.commitTransaction()).thenReturn(n))
                .onErrorResume(e -> Mono.from(c.rollbackTransaction()).then(Mono.error(
                        e instanceof IllegalStateException ? e : new IllegalStateException(
                                "migration V" + pad(m.version()) + " (" + m.name() + ") failed: " + e.getMessage(), e))));
    }

    /** Compares the database's recorded migrations with the shipped ones; changes nothing. */
    public Status status(ConnectionFactory anyReader) {
        Function<io.r2dbc.spi.Readable, Object[]> row = r -> new Object[] {r.get("version", Integer.class),
            r.get("checksum", String.class)};
        boolean exists = Boolean.TRUE.equals(Sql.withConnection(anyReader, c -> Sql.query(c,
                "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
                r -> r.get("present", Boolean.class))).blockLast(TIMEOUT));
        if (!exists) {
            return new Status(false, migrations.stream().map(Migration::version).toList(), List.of(), List.of());
        }
        Map<Integer, String> recorded = Sql.blockList(anyReader, TIMEOUT,
                        "SELECT version, checksum FROM schema_migrations ORDER BY version", row).stream()
                .collect(Collectors.toMap(a -> (Integer) a[0], a -> (String) a[1]));
        List<Integer> missing = new ArrayList<>();
        List<Integer> changed = new ArrayList<>();
        for (Migration m : migrations) {
            String sum = recorded.get(m.version());
            if (sum == null) {
                missing.add(m.version());
            } else if (!sum.equals(m.checksum())) {
                changed.add(m.version());
            }
        }
        List<Integer> unknown = recorded.keySet().stream().filter(v -> v < 1 || v > migrations.size()).sorted().toList();
        return new Status(true, missing, changed, unknown);
    }

    /**
     * Gives the app role a login password (a server that does not trust local connections needs one).
     * The password is sent as a literal; it is never logged.
     */
    public static void setAppPassword(ConnectionFactory owner, String password) {
        Objects.requireNonNull(password, "password");
        Sql.blockUpdate(owner, TIMEOUT, "ALTER ROLE " + APP_ROLE + " LOGIN PASSWORD '" + password.replace("'", "''") + "'");
    }

    static String pad(int version) {
        return String.format("%03d", version);
    }

    private static String resource(String name) {
        try (InputStream in = Migrations.class.getResourceAsStream(DIR + name)) {
            if (in == null) {
                throw new IllegalStateException("schema resource " + DIR + name + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read schema resource " + name, e);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
