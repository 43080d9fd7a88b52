package io.rigscope.rig.calibrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The stand-in instance's description, as {@link RdsStandIn} serves it to the AWS SDK's {@code RdsClient} in the RDS
 * Query API's XML (API version 2014-10-31): {@code DescribeDBInstances} (one instance, by
 * {@code DBInstanceIdentifier}) and {@code DescribeDBParameters} (its parameter group, {@code MaxRecords} a page,
 * the next page's start in {@code Marker}). Immutable.
 */
final class RdsDescribe {

    /** Parameters a page when the request asks for more (AWS's own page is 100; smaller here so paging is used). */
    static final int PAGE = 20;

    private static final String NS = "http://rds.amazonaws.com/doc/2014-10-31/";

    private final RdsStandInRig.Instance instance;
    private final List<Map.Entry<String, String>> parameters;

    RdsDescribe(RdsStandInRig.Instance instance) {
        this.instance = Objects.requireNonNull(instance, "instance");
        this.parameters = List.copyOf(instance.parameters().entrySet());
    }

    /** The DescribeDBInstancesResponse, or null when the identifier asked for is not this instance's. */
    String describeDbInstances(Map<String, String> form) {
        String asked = form.get("DBInstanceIdentifier");
        if (asked != null && !asked.equals(instance.identifier())) {
            return null;
        }
        RdsStandInRig.Instance i = instance;
        StringBuilder x = new StringBuilder("<DescribeDBInstancesResponse xmlns=\"" + NS + "\"><DescribeDBInstancesResult>"
                + "<DBInstances><DBInstance>");
        tag(x, "DBInstanceIdentifier", i.identifier());
        tag(x, "DBInstanceClass", i.dbInstanceClass());
        tag(x, "Engine", "postgres");
        tag(x, "DBInstanceStatus", "available");
        x.append("<Endpoint>");
        tag(x, "Address", i.address());
        tag(x, "Port", String.valueOf(i.port()));
        x.append("</Endpoint>");
        tag(x, "AllocatedStorage", String.valueOf(i.allocatedGb()));
        tag(x, "AvailabilityZone", i.availabilityZone());
        tag(x, "MultiAZ", String.valueOf(i.multiAz()));
        tag(x, "EngineVersion", i.engineVersion());
        tag(x, "StorageType", i.storageType());
        tag(x, "Iops", String.valueOf(i.iops()));
        tag(x, "StorageThroughput", String.valueOf(i.throughputMibps()));
        tag(x, "DbiResourceId", i.dbiResourceId());
        x.append("<DBParameterGroups><DBParameterGroup>");
        tag(x, "DBParameterGroupName", i.parameterGroup());
        tag(x, "ParameterApplyStatus", "in-sync");
        x.append("</DBParameterGroup></DBParameterGroups>");
        tag(x, "MonitoringInterval", String.valueOf(i.monitoringIntervalSec()));
        if (i.monitoringRoleArn() != null) {
            tag(x, "MonitoringRoleArn", i.monitoringRoleArn());
        }
        tag(x, "PerformanceInsightsEnabled", String.valueOf(i.performanceInsights()));
        x.append("<EnabledCloudwatchLogsExports><member>postgresql</member></EnabledCloudwatchLogsExports>");
        x.append("</DBInstance></DBInstances></DescribeDBInstancesResult>").append(RdsStandIn.requestId())
                .append("</DescribeDBInstancesResponse>");
        return x.toString();
    }

    /** The DescribeDBParametersResponse's page, or null when the group asked for is not this instance's. */
    String describeDbParameters(Map<String, String> form) {
        if (!instance.parameterGroup().equals(form.get("DBParameterGroupName"))) {
            return null;
        }
        int from = form.get("Marker") == null ? 0 : Integer.parseInt(form.get("Marker"));
        int max = form.get("MaxRecords") == null ? 100 : Integer.parseInt(form.get("MaxRecords"));
        int to = Math.min(parameters.size(), from + Math.min(max, PAGE));
        StringBuilder x = new StringBuilder("<DescribeDBParametersResponse xmlns=\"" + NS + "\"><DescribeDBParametersResult>");
        if (to < parameters.size()) {
            tag(x, "Marker", String.valueOf(to));
        }
        x.append("<Parameters>");
        List<Map.Entry<String, String>> page = new ArrayList<>(parameters.subList(from, to));
        for (Map.Entry<String, String> p : page) {
            x.append("<Parameter>");
            tag(x, "ParameterName", p.getKey());
            if (p.getValue() != null) {
                tag(x, "ParameterValue", p.getValue());
            }
            tag(x, "Source", p.getValue() == null ? "engine-default" : "user");
            tag(x, "ApplyType", "dynamic");
            tag(x, "IsModifiable", "true");
            tag(x, "ApplyMethod", "pending-reboot");
            x.append("</Parameter>");
        }
        x.append("</Parameters></DescribeDBParametersResult>").append(RdsStandIn.requestId())
                .append("</DescribeDBParametersResponse>");
        return x.toString();
    }

    private static void tag(StringBuilder x, String name, String value) {
        x.append('<').append(name).append('>').append(RdsStandIn.xml(value)).append("</").append(name).append('>');
    }
}
