package io.rigscope.rig.environment;

import io.rigscope.model.wire.Environment;
import io.rigscope.model.wire.Marker;
import io.rigscope.pg.PgUrl;
import io.rigscope.sut.db.Sql;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The facts a published figure must carry: the host's CPU, memory and disk, the PostgreSQL version and the
 * settings that decide write behaviour, and a cost per hour when one is configured. Published as the data of
 * a {@link Marker.Kind#ENVIRONMENT} marker (keys in docs/protocol.md).
 *
 * <p>Host facts are this machine's ({@code /proc}, {@code /sys}); when the database runs elsewhere they
 * describe the rig's host, and the database's facts come from the server itself.
 *
 * @param hostname this host's name
 * @param cpuModel {@code model name} from /proc/cpuinfo, or "unknown"
 * @param cpuCount logical CPUs this JVM sees
 * @param memTotalBytes MemTotal from /proc/meminfo, or 0 when unknown
 * @param disk the filesystem holding {@code diskPath}
 * @param pgVersion {@code server_version}
 * @param pgSettings each of {@link #SETTINGS} as {@code current_setting} shows it (with units)
 * @param costPerHour the configured price of the setup per hour, or null
 * @param tableRows the watched tables' live rows ({@code n_live_tup}) when the facts were taken, by table as named;
 *     empty when none was asked for
 * @param rigscopeVersion the rigscope build's version
 */
public record EnvironmentFacts(String hostname, String cpuModel, int cpuCount, long memTotalBytes, Disk disk,
                               String pgVersion, Map<String, String> pgSettings, Double costPerHour,
                               Map<String, Long> tableRows, String rigscopeVersion) {

    /** The PostgreSQL settings recorded, in this order. */
    public static final List<String> SETTINGS = List.of(
            "shared_buffers", "max_wal_size", "min_wal_size",
            "autovacuum", "autovacuum_vacuum_scale_factor", "autovacuum_vacuum_insert_scale_factor",
            "autovacuum_analyze_scale_factor", "autovacuum_naptime", "autovacuum_vacuum_cost_delay",
            "wal_compression", "wal_segment_size", "checkpoint_timeout", "synchronous_commit", "fsync",
            "full_page_writes", "data_checksums", "max_connections",
            // what the levers read (docs/attribution.md, Levers): the WAL pool's recycling, the vacuum's thresholds
            "wal_recycle", "wal_init_zero", "checkpoint_completion_target", "autovacuum_vacuum_insert_threshold",
            "autovacuum_vacuum_cost_limit", "vacuum_cost_limit", "backend_flush_after");

    /**
     * A filesystem.
     *
     * @param path the path asked about
     * @param device the mounted device (e.g. /dev/vda1), or "unknown"
     * @param type the filesystem type (ext4, xfs, ...)
     * @param totalBytes its size
     * @param rotational true for a spinning disk, false for SSD/virtual, null when unknown
     */
    public record Disk(String path, String device, String type, long totalBytes, Boolean rotational) {
    }

    public EnvironmentFacts {
        Objects.requireNonNull(disk, "disk");
        pgSettings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(pgSettings));
        tableRows = tableRows == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tableRows));
    }

    /** The facts without table rows. */
    public static EnvironmentFacts collect(PgUrl pg, Path diskPath, Double costPerHour) {
        return collect(pg, diskPath, costPerHour, List.of());
    }

    /**
     * Collects the facts now.
     *
     * @param pg the database
     * @param diskPath a path on the filesystem that matters (the data directory when local, else the working directory)
     * @param costPerHour the setup's price per hour, or null when not configured
     */
    public static EnvironmentFacts collect(PgUrl pg, Path diskPath, Double costPerHour, List<String> tables) {
        var factory = pg.connectionFactory("rigscope-environment");
        String version = Sql.blockList(factory, Duration.ofSeconds(30), "SELECT current_setting('server_version') AS v",
                r -> r.get("v", String.class)).get(0);
        Map<String, String> settings = new LinkedHashMap<>();
        List<String[]> rows = Sql.blockList(factory, Duration.ofSeconds(30),
                "SELECT u.n AS name, current_setting(u.n, true) AS value FROM unnest($1::text[]) AS u (n)",
                r -> new String[] {r.get("name", String.class), r.get("value", String.class)},
                (Object) SETTINGS.toArray(String[]::new));
        Map<String, String> found = new LinkedHashMap<>();
        rows.forEach(r -> found.put(r[0], r[1] == null ? "n/a" : r[1]));
        SETTINGS.forEach(s -> settings.put(s, found.getOrDefault(s, "n/a")));
        Map<String, Long> liveRows = new LinkedHashMap<>();
        for (String table : tables) {
            List<Long> live = Sql.blockList(factory, Duration.ofSeconds(30), "SELECT n_live_tup AS n FROM "
                    + "pg_stat_user_tables WHERE relid = to_regclass($1::text)", r -> r.get("n", Long.class), table);
            if (!live.isEmpty() && live.get(0) != null) {
                liveRows.put(table, live.get(0));
            }
        }
        return new EnvironmentFacts(readHostname(), readCpuModel(), Runtime.getRuntime().availableProcessors(), readMemTotalBytes(),
                readDisk(diskPath), version, settings, costPerHour, liveRows, readVersion());
    }

    /** The ENVIRONMENT marker's body: flat keys, documented in docs/protocol.md. */
    public Environment toEnvironment() {
        return Environment.of(hostname, cpuModel, cpuCount, memTotalBytes, new Environment.Disk(disk.path(),
                disk.device(), disk.type(), disk.totalBytes(), disk.rotational()), pgVersion, pgSettings, costPerHour,
                tableRows, rigscopeVersion);
    }

    /** An {@link Marker.Kind#ENVIRONMENT} marker for a series. */
    public Marker toMarker(String run, String src, long tsUs) {
        return new Marker(run, 0, src, tsUs, null, toEnvironment());
    }

    /** The build's version (rigscope-version.properties, filtered by Maven), or "unknown". */
    public static String readVersion() {
        try (var in = EnvironmentFacts.class.getResourceAsStream("/rigscope-version.properties")) {
            if (in == null) {
                return "unknown";
            }
            var p = new java.util.Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String readHostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String readCpuModel() {
        return readLines(Path.of("/proc/cpuinfo")).stream()
                .filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).strip())
                .findFirst().orElse("unknown");
    }

    private static long readMemTotalBytes() {
        return readLines(Path.of("/proc/meminfo")).stream()
                .filter(l -> l.startsWith("MemTotal:"))
                .map(l -> l.replaceAll("[^0-9]", ""))
                .filter(s -> !s.isEmpty())
                .map(s -> Long.parseLong(s) * 1024)
                .findFirst().orElse(0L);
    }

    private static Disk readDisk(Path path) {
        Path p = path.toAbsolutePath();
        long total = 0;
        String type = "unknown";
        String device = "unknown";
        try {
            FileStore store = Files.getFileStore(p);
            total = store.getTotalSpace();
            type = store.type();
            device = store.name();
        } catch (IOException e) {
            // leave unknown
        }
        return new Disk(p.toString(), device, type, total, rotational(device).orElse(null));
    }

    private static Optional<Boolean> rotational(String device) {
        if (!device.startsWith("/dev/")) {
            return Optional.empty();
        }
        String name = device.substring(5);
        for (String candidate : new String[] {name, name.replaceAll("p?\\d+$", "")}) {
            Path flag = Path.of("/sys/block", candidate, "queue", "rotational");
            List<String> lines = readLines(flag);
            if (!lines.isEmpty()) {
                return Optional.of("1".equals(lines.get(0).strip()));
            }
        }
        return Optional.empty();
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
