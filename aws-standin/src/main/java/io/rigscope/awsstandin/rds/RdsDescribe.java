package io.rigscope.awsstandin.rds;

import static io.rigscope.awsstandin.AwsAnswer.tag;

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

    static final String NS = "http://rds.amazonaws.com/doc/2014-10-31/";

    private final RdsInstance instance;
    private final List<Map.Entry<String, String>> parameters;

    RdsDescribe(RdsInstance instance) {
        this.instance = Objects.requireNonNull(instance, "instance");
        this.parameters = List.copyOf(instance.parameters().entrySet());
    }

    /** The DescribeDBInstancesResponse, or null when the identifier asked for is not this instance's. */
    String describeDbInstances(Map<String, String> form) {
        String asked = form.get("DBInstanceIdentifier");
        if (asked != null && !asked.equals(instance.identifier())) {
            return null;
        }
        RdsInstance i = instance;
        StringBuilder x = new StringBuilder("<DBInstances><DBInstance>");
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
        return x.append("</DBInstance></DBInstances>").toString();
    }

    /** The DescribeDBParametersResponse's page, or null when the group asked for is not this instance's. */
    String describeDbParameters(Map<String, String> form) {
        if (!instance.parameterGroup().equals(form.get("DBParameterGroupName"))) {
            return null;
        }
        int from = form.get("Marker") == null ? 0 : Integer.parseInt(form.get("Marker"));
        int max = form.get("MaxRecords") == null ? 100 : Integer.parseInt(form.get("MaxRecords"));
        int to = Math.min(parameters.size(), from + Math.min(max, PAGE));
        StringBuilder x = new StringBuilder();
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
        return x.append("</Parameters>").toString();
    }

    /**
     * The Price List API's GetProducts (JSON 1.1, {@code AWSPriceListService.GetProducts}): the instance's product
     * when every TERM_MATCH filter matches its attributes (service AmazonRDS, regionCode from its zone,
     * instanceType, databaseEngine PostgreSQL, deploymentOption), its on-demand term priced at the instance's
     * {@code listPriceUsd} per Hrs; else an empty PriceList.
     */
    String getProducts(com.fasterxml.jackson.databind.JsonNode request) {
        RdsInstance i = instance;
        Map<String, String> attributes = new java.util.LinkedHashMap<>();
        attributes.put("regionCode", i.availabilityZone() == null ? "" : i.availabilityZone().replaceAll("[a-z]$", ""));
        attributes.put("instanceType", i.dbInstanceClass());
        attributes.put("databaseEngine", "PostgreSQL");
        attributes.put("deploymentOption", i.multiAz() ? "Multi-AZ" : "Single-AZ");
        boolean match = "AmazonRDS".equals(request.path("ServiceCode").asText()) && i.listPriceUsd() != null;
        for (var f : request.path("Filters")) {
            match &= f.path("Value").asText().equals(attributes.get(f.path("Field").asText()));
        }
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        var out = mapper.createObjectNode().put("FormatVersion", "aws_v1");
        var list = out.putArray("PriceList");
        if (match) {
            var product = mapper.createObjectNode();
            var p = product.putObject("product").put("productFamily", "Database Instance").put("sku", "STANDINSKU");
            var attrs = p.putObject("attributes");
            attributes.forEach(attrs::put);
            product.put("serviceCode", "AmazonRDS");
            var term = product.putObject("terms").putObject("OnDemand").putObject("STANDINSKU.JRTCKXETXF");
            term.put("sku", "STANDINSKU").put("offerTermCode", "JRTCKXETXF").put("effectiveDate", "2026-12-01T00:00:00Z");
            term.putObject("priceDimensions").putObject("STANDINSKU.JRTCKXETXF.6YS6EN2CT7").put("unit", "Hrs")
                    .put("beginRange", "0").put("endRange", "Inf")
                    .put("description", "the stand-in's listed price for " + i.dbInstanceClass())
                    .putObject("pricePerUnit").put("USD", String.format(java.util.Locale.ROOT, "%.10f", i.listPriceUsd()));
            list.add(product.toString());
        }
        return out.toString();
    }

}
