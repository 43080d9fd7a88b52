package io.rigscope.awsstandin.rds;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The stand-in instance's description (what DescribeDBInstances returns), its parameter group's parameters in
 * order (a null value: a parameter the group leaves at the engine default), and the on-demand price per hour the
 * Price List API stand-in lists for its class, deployment and region (null: it lists none). Immutable.
 */
public record RdsInstance(String identifier, String dbiResourceId, String dbInstanceClass, String engineVersion,
                          String storageType, int allocatedGb, int iops, int throughputMibps, String availabilityZone,
                          boolean multiAz, String address, int port, String parameterGroup, int monitoringIntervalSec,
                          String monitoringRoleArn, boolean performanceInsights, Map<String, String> parameters,
                          Double listPriceUsd) {
    public RdsInstance {
        Objects.requireNonNull(identifier, "identifier");
        Objects.requireNonNull(parameterGroup, "parameterGroup");
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }
}
