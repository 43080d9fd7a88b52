package io.rigscope.model.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link Marker.Kind#ENVIRONMENT}: the facts of the setup (instance, settings, cost), copied whole and in their
 * writer's order into the report's {@code environment}: a map by nature (an evidence manifest may state any fact;
 * recorded series carry the keys in older orders, and a replay must report them as it did). The facts
 * {@code rigscope run} collects have typed accessors and a factory ({@link #of}) that writes them in their order.
 *
 * @param facts the facts, never null
 */
public record Environment(Map<String, Object> facts) implements MarkerBody {

    static final String HOSTNAME = "hostname";
    static final String CPU_MODEL = "cpu_model";
    static final String CPU_COUNT = "cpu_count";
    static final String MEM_TOTAL_BYTES = "mem_total_bytes";
    static final String DISK = "disk";
    static final String PG_VERSION = "pg_version";
    static final String PG_SETTINGS = "pg_settings";
    static final String COST_PER_HOUR = "cost_per_hour";
    static final String TABLE_ROWS = "table_rows";
    static final String RIGSCOPE_VERSION = "rigscope_version";

    public Environment {
        facts = BodyFields.copy(facts);
    }

    /**
     * The disk that matters (the data directory's when local).
     *
     * @param rotational true for a spinning disk, null when unknown
     */
    public record Disk(String path, String device, String type, long totalBytes, Boolean rotational) {
        Map<String, Object> toData() {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("path", path);
            d.put("device", device);
            d.put("type", type);
            d.put("total_bytes", totalBytes);
            d.put("rotational", rotational);
            return d;
        }
    }

    /**
     * The facts {@code rigscope run} collects, in their order; {@code costPerHour} null and {@code tableRows} empty
     * are left out.
     */
    public static Environment of(String hostname, String cpuModel, int cpuCount, long memTotalBytes, Disk disk,
                                 String pgVersion, Map<String, String> pgSettings, Double costPerHour,
                                 Map<String, Long> tableRows, String rigscopeVersion) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(HOSTNAME, hostname);
        m.put(CPU_MODEL, cpuModel);
        m.put(CPU_COUNT, cpuCount);
        m.put(MEM_TOTAL_BYTES, memTotalBytes);
        m.put(DISK, disk.toData());
        m.put(PG_VERSION, pgVersion);
        m.put(PG_SETTINGS, pgSettings);
        if (costPerHour != null) {
            m.put(COST_PER_HOUR, costPerHour);
        }
        if (tableRows != null && !tableRows.isEmpty()) {
            m.put(TABLE_ROWS, tableRows);
        }
        m.put(RIGSCOPE_VERSION, rigscopeVersion);
        return new Environment(m);
    }

    @Override
    public Marker.Kind kind() {
        return Marker.Kind.ENVIRONMENT;
    }

    @Override
    public Map<String, Object> toData() {
        return facts;
    }

    /** The host's name, or null. */
    public String hostname() {
        return facts.get(HOSTNAME) instanceof String s ? s : null;
    }

    /** The CPUs online, or null. */
    public Long cpuCount() {
        return facts.get(CPU_COUNT) instanceof Number n ? n.longValue() : null;
    }

    /** The Postgres version, or null. */
    public String pgVersion() {
        return facts.get(PG_VERSION) instanceof String s ? s : null;
    }

    /** The rigscope build that took the facts, or null (facts from before it was recorded). */
    public String rigscopeVersion() {
        return facts.get(RIGSCOPE_VERSION) instanceof String s ? s : null;
    }

    /** The watched tables' live rows when the facts were taken, by table; empty when not recorded. */
    public Map<String, Long> tableRows() {
        Map<String, Long> out = new LinkedHashMap<>();
        if (facts.get(TABLE_ROWS) instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                if (v instanceof Number n) {
                    out.put(String.valueOf(k), n.longValue());
                }
            });
        }
        return out;
    }

    /** The setup's price per hour, or null. */
    public Double costPerHour() {
        return BodyFields.decimalOf(facts.get(COST_PER_HOUR));
    }
}
