package io.rigscope.collectors.aws;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * RDS's CloudWatch metrics (namespace {@code AWS/RDS}) and their CloudWatch units: the one table of them, for the
 * live {@link CloudWatchCollector} and for rescan's reader of GetMetricData responses (which carry no unit).
 * Stateless.
 */
public final class RdsMetricUnits {

    /** Metric name as RDS spells it -> its unit as CloudWatch writes it. */
    private static final Map<String, String> UNITS = Map.ofEntries(Map.entry("WriteIOPS", "Count/Second"),
            Map.entry("ReadIOPS", "Count/Second"), Map.entry("DiskQueueDepth", "Count"),
            Map.entry("CPUUtilization", "Percent"), Map.entry("WriteLatency", "Seconds"),
            Map.entry("ReadLatency", "Seconds"), Map.entry("WriteThroughput", "Bytes/Second"),
            Map.entry("ReadThroughput", "Bytes/Second"), Map.entry("FreeableMemory", "Bytes"),
            Map.entry("DatabaseConnections", "Count"), Map.entry("EBSIOBalance%", "Percent"),
            Map.entry("BurstBalance", "Percent"), Map.entry("TransactionLogsGeneration", "Bytes/Second"));

    private RdsMetricUnits() {
    }

    /** The unit of an RDS metric (RDS's spelling), or {@code None} (CloudWatch's word for no unit). */
    public static String unit(String metric) {
        return UNITS.getOrDefault(metric, "None");
    }

    /** RDS's spelling of a metric named in any case ({@code diskqueuedepth} -> {@code DiskQueueDepth}). */
    public static String canonical(String name) {
        for (String known : UNITS.keySet()) {
            if (known.equalsIgnoreCase(name)) {
                return known;
            }
        }
        return name;
    }

    /**
     * These metrics with their units, an unmodifiable map.
     *
     * @throws IllegalArgumentException for a metric the table does not know
     */
    public static Map<String, String> of(String... metrics) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String m : metrics) {
            String unit = UNITS.get(Objects.requireNonNull(m, "metric"));
            if (unit == null) {
                throw new IllegalArgumentException("RDS metric " + m + " has no unit in the table");
            }
            out.put(m, unit);
        }
        return Map.copyOf(out);
    }
}
