package io.rigscope.rig.rds;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An RDS instance as {@code DescribeDBInstances} and {@code DescribeDBParameters} describe it: what the series'
 * ENVIRONMENT facts, its price and its bring-up checks read.
 *
 * @param identifier DBInstanceIdentifier
 * @param dbiResourceId DbiResourceId (the Enhanced Monitoring log stream and the Performance Insights identifier)
 * @param dbInstanceClass DBInstanceClass, e.g. db.m7g.large
 * @param engine Engine (postgres)
 * @param engineVersion EngineVersion
 * @param storageType StorageType (gp2, gp3, io1, io2, standard)
 * @param allocatedGb AllocatedStorage, GiB
 * @param iops Iops, 0 when not returned
 * @param throughputMibps StorageThroughput, 0 when not returned
 * @param availabilityZone AvailabilityZone, or null
 * @param multiAz MultiAZ
 * @param endpoint Endpoint.Address:Port, or null
 * @param parameterGroup the first DBParameterGroups member's name, or null
 * @param monitoringIntervalSec MonitoringInterval (0: Enhanced Monitoring off)
 * @param monitoringRoleArn MonitoringRoleArn, or null
 * @param performanceInsights PerformanceInsightsEnabled
 * @param logExports EnabledCloudwatchLogsExports
 * @param parameters the parameter group's parameters that have a value, by name, as DescribeDBParameters gives them
 */
record RdsInstance(String identifier, String dbiResourceId, String dbInstanceClass, String engine,
                          String engineVersion, String storageType, int allocatedGb, int iops, int throughputMibps,
                          String availabilityZone, boolean multiAz, String endpoint, String parameterGroup,
                          int monitoringIntervalSec, String monitoringRoleArn, boolean performanceInsights,
                          List<String> logExports, Map<String, String> parameters) {

    public RdsInstance {
        Objects.requireNonNull(identifier, "identifier");
        Objects.requireNonNull(dbInstanceClass, "dbInstanceClass");
        storageType = storageType == null ? "unknown" : storageType;
        logExports = logExports == null ? List.of() : List.copyOf(logExports);
        parameters = parameters == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /** The region, from the availability zone's name (us-east-1a -> us-east-1), or null. */
    public String regionFromZone() {
        return availabilityZone == null || availabilityZone.length() < 2 ? null
                : availabilityZone.replaceAll("[a-z]$", "");
    }

    /** The instance's facts as one map (snake_case keys), in the ENVIRONMENT marker's {@code rds} fact. */
    public Map<String, Object> facts() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("db_instance", identifier);
        m.put("dbi_resource_id", dbiResourceId);
        m.put("class", dbInstanceClass);
        DbInstanceClasses.of(dbInstanceClass).ifPresent(s -> {
            m.put("vcpus", s.vcpus());
            m.put("memory_gib", s.memoryGib());
        });
        m.put("engine", engine);
        m.put("engine_version", engineVersion);
        m.put("storage_type", storageType);
        m.put("allocated_gb", allocatedGb);
        m.put("iops", iops);
        m.put("throughput_mibps", throughputMibps);
        m.put("availability_zone", availabilityZone);
        m.put("multi_az", multiAz);
        m.put("parameter_group", parameterGroup);
        m.put("monitoring_interval_sec", monitoringIntervalSec);
        m.put("performance_insights", performanceInsights);
        m.put("log_exports", logExports);
        return m;
    }

    /** One line: class, size, storage, placement ({@code db.m7g.large (2 vCPU, 8 GiB); gp3 100 GB, ...}). */
    public String hardware() {
        String size = DbInstanceClasses.of(dbInstanceClass)
                .map(s -> " (" + s.vcpus() + " vCPU, " + trim(s.memoryGib()) + " GiB)").orElse(" (vCPUs and memory "
                        + "not known for this class)");
        return dbInstanceClass + size + "; " + storageType + " " + allocatedGb + " GB, " + iops + " IOPS"
                + (throughputMibps > 0 ? ", " + throughputMibps + " MiB/s" : "") + "; "
                + (availabilityZone == null ? "AZ unknown" : availabilityZone) + ", " + (multiAz ? "Multi-AZ" : "Single-AZ");
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
