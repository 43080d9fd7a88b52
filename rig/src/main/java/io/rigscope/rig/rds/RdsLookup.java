package io.rigscope.rig.rds;

import io.rigscope.collectors.aws.AwsSettings;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.environment.EnvironmentFacts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.rds.model.DBInstance;
import software.amazon.awssdk.services.rds.model.DbInstanceNotFoundException;
import software.amazon.awssdk.services.rds.model.DescribeDbParametersResponse;
import software.amazon.awssdk.services.rds.model.Parameter;

/**
 * Reads an instance through the RDS API: {@code DescribeDBInstances} for the instance, then
 * {@code DescribeDBParameters} for its parameter group, every page ({@code Marker}). Blocking; call from a command
 * thread.
 */
final class RdsLookup {

    /**
     * Parameters recorded: the settings rules and levers read ({@link EnvironmentFacts#SETTINGS}), every
     * {@code autovacuum_*} and {@code checkpoint_*}, and the two the log collector's evidence needs
     * ({@code log_autovacuum_min_duration}, {@code log_checkpoints}).
     */
    static boolean recorded(String name) {
        return EnvironmentFacts.SETTINGS.contains(name) || name.startsWith("autovacuum_") || name.startsWith("checkpoint_")
                || name.equals("log_autovacuum_min_duration") || name.equals("log_checkpoints");
    }

    private RdsLookup() {
    }

    /**
     * The instance and its parameter group's recorded parameters.
     *
     * @throws UsageException when no such instance exists ({@code rds.db_instance} is wrong: exit 2)
     * @throws IllegalStateException with one line when AWS cannot be asked (no credentials, access denied,
     *     unreachable)
     */
    public static RdsInstance describe(RdsRig.Target target, AwsSettings aws) {
        try (RdsClient rds = aws.build(RdsClient.builder())) {
            DBInstance db;
            try {
                List<DBInstance> found = rds.describeDBInstances(b -> b.dbInstanceIdentifier(target.dbInstance()))
                        .dbInstances();
                if (found.isEmpty()) {
                    throw new UsageException("rds.db_instance: no DB instance '" + target.dbInstance() + "' in "
                            + aws.region());
                }
                db = found.get(0);
            } catch (DbInstanceNotFoundException e) {
                throw new UsageException("rds.db_instance: no DB instance '" + target.dbInstance() + "' in "
                        + aws.region() + " (" + e.awsErrorDetails().errorMessage() + ")");
            }
            String group = db.dbParameterGroups().isEmpty() ? null : db.dbParameterGroups().get(0).dbParameterGroupName();
            Map<String, String> parameters = group == null ? Map.of() : parameters(rds, group);
            return new RdsInstance(db.dbInstanceIdentifier(), db.dbiResourceId(), db.dbInstanceClass(), db.engine(),
                    db.engineVersion(), db.storageType(), nz(db.allocatedStorage()), nz(db.iops()),
                    nz(db.storageThroughput()), db.availabilityZone(), Boolean.TRUE.equals(db.multiAZ()),
                    db.endpoint() == null ? null : db.endpoint().address() + ":" + db.endpoint().port(), group,
                    nz(db.monitoringInterval()), db.monitoringRoleArn(),
                    Boolean.TRUE.equals(db.performanceInsightsEnabled()), db.enabledCloudwatchLogsExports(),
                    parameters);
        } catch (SdkException e) {
            throw new IllegalStateException("rds: cannot describe DB instance '" + target.dbInstance() + "' in "
                    + aws.region() + (aws.endpoint() == null ? "" : " at " + aws.endpoint()) + ": "
                    + oneLine(e.getMessage()));
        }
    }

    private static Map<String, String> parameters(RdsClient rds, String group) {
        Map<String, String> out = new LinkedHashMap<>();
        String marker = null;
        for (int page = 0; page < 100; page++) {
            String from = marker;
            DescribeDbParametersResponse resp = rds.describeDBParameters(b -> b.dbParameterGroupName(group)
                    .maxRecords(100).marker(from));
            for (Parameter p : resp.parameters()) {
                if (p.parameterValue() != null && recorded(p.parameterName())) {
                    out.put(p.parameterName(), p.parameterValue());
                }
            }
            marker = resp.marker();
            if (marker == null || marker.isEmpty()) {
                break;
            }
        }
        return new java.util.TreeMap<>(out);
    }

    private static int nz(Integer v) {
        return v == null ? 0 : v;
    }

    static String oneLine(String s) {
        if (s == null) {
            return "no reason given";
        }
        String line = s.strip().replaceAll("\\s+", " ");
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }
}
