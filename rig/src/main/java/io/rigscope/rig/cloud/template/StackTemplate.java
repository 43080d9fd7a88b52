package io.rigscope.rig.cloud.template;

import static io.rigscope.rig.cloud.template.Cfn.allow;
import static io.rigscope.rig.cloud.template.Cfn.getAtt;
import static io.rigscope.rig.cloud.template.Cfn.map;
import static io.rigscope.rig.cloud.template.Cfn.ref;
import static io.rigscope.rig.cloud.template.Cfn.sub;
import static io.rigscope.rig.cloud.template.Cfn.trust;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.rigscope.rig.cloud.CloudSection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rigscope.rig.pricing.PriceTable;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The one CloudFormation template a {@link CloudSection.Spec} becomes: a VPC with one public subnet in the rig's AZ (and a
 * second, empty one the DB subnet group needs), the RDS instance, the app node, the load nodes and the evidence
 * bucket. The rules it meets (monitoring, logs, deletion, network, tags) are listed in docs/cloud.md; the suite checks
 * it against AWS's published resource specification (StackTemplateSpecTest).
 *
 * @param parameters the template's parameters (the AMI lookups)
 * @param resources every resource, in template order
 * @param outputs the stack's outputs ({@code cloud up} prints them, {@code cloud run} reads them)
 */
public record StackTemplate(Map<String, Object> parameters, List<Resource> resources, Map<String, Object> outputs) {

    /** The logical id of the RDS instance. */
    public static final String DATABASE = "Database";
    /** The logical id of the app node. */
    public static final String APP_NODE = "AppNode";
    /** The logical id of the evidence bucket (kept after teardown). */
    public static final String EVIDENCE_BUCKET = "EvidenceBucket";
    /** The object key of rigscope's jar in the evidence bucket, which {@code cloud up} uploads and nodes fetch. */
    public static final String JAR_KEY = "rig/rigscope.jar";
    /** Every node's root volume (gp3), GiB. */
    public static final int ROOT_VOLUME_GB = 30;
    /** The master user of the RDS instance (its password is RDS-managed, in Secrets Manager). */
    public static final String MASTER_USER = "rigscope";
    /** The database the instance is created with. */
    public static final String DATABASE_NAME = "rigscope";

    private static final String ARM64_IMAGE = "ImageArm64";
    private static final String X86_IMAGE = "ImageX8664";

    public StackTemplate {
        parameters = Map.copyOf(parameters);
        resources = List.copyOf(resources);
        outputs = Map.copyOf(outputs);
    }

    /**
     * One resource.
     *
     * @param logicalId its id in the template
     * @param type its CloudFormation type, e.g. {@code AWS::RDS::DBInstance}
     * @param properties its properties
     * @param deletionPolicy {@code Delete} or {@code Retain}
     * @param dependsOn logical ids it must wait for (beyond the references in its properties)
     */
    public record Resource(String logicalId, String type, Map<String, Object> properties, String deletionPolicy,
                           List<String> dependsOn) {
        public Resource {
            Objects.requireNonNull(logicalId, "logicalId");
            Objects.requireNonNull(type, "type");
            properties = new LinkedHashMap<>(properties);
            dependsOn = List.copyOf(dependsOn);
        }
    }

    /** The load nodes' logical ids: {@code LoadNode1} to {@code LoadNodeN}. */
    public static String loadNode(int index) {
        return "LoadNode" + index;
    }

    /** The RDS instance's identifier (the stack's name). */
    public static String dbInstanceIdentifier(CloudSection.Spec spec) {
        return spec.stackName();
    }

    /** The RDS parameter group family of the spec's engine: {@code postgres16}. */
    public static String parameterFamily(CloudSection.Spec spec) {
        return "postgres" + spec.database().majorVersion();
    }

    /** True when the instance type runs arm64 (Graviton: a {@code g} after the generation, or {@code a1}). */
    public static boolean isArm64(String instanceType) {
        String family = instanceType.substring(0, instanceType.indexOf('.'));
        return family.equals("a1") || family.matches("[a-z]+\\d+[a-z]*g[a-z]*");
    }

    /**
     * The template for {@code spec}.
     *
     * @param owner the {@code rigscope:owner} tag's value
     * @param expiresAt the {@code rigscope:expires-at} tag's value
     */
    public static StackTemplate of(CloudSection.Spec spec, String owner, Instant expiresAt) {
        return new Builder(spec, owner, expiresAt).build();
    }

    /** The template as CloudFormation YAML. */
    public String toYaml() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("AWSTemplateFormatVersion", "2010-09-09");
        root.put("Description", "rigscope rig (written by rigscope cloud plan; see docs/cloud.md)");
        root.put("Parameters", new TreeMap<>(parameters));
        Map<String, Object> rs = new LinkedHashMap<>();
        for (Resource r : resources) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("Type", r.type());
            if (r.deletionPolicy() != null) {
                body.put("DeletionPolicy", r.deletionPolicy());
                body.put("UpdateReplacePolicy", r.deletionPolicy());
            }
            if (!r.dependsOn().isEmpty()) {
                body.put("DependsOn", r.dependsOn());
            }
            body.put("Properties", r.properties());
            rs.put(r.logicalId(), body);
        }
        root.put("Resources", rs);
        root.put("Outputs", new TreeMap<>(outputs));
        try {
            return new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER))
                    .writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the template", e);
        }
    }

    private static final class Builder {
        private final CloudSection.Spec spec;
        private final String owner;
        private final Instant expiresAt;
        private final List<Resource> resources = new ArrayList<>();
        private final Map<String, Object> parameters = new LinkedHashMap<>();
        private final Map<String, Object> outputs = new LinkedHashMap<>();

        Builder(CloudSection.Spec spec, String owner, Instant expiresAt) {
            this.spec = Objects.requireNonNull(spec, "spec");
            this.owner = Objects.requireNonNull(owner, "owner");
            this.expiresAt = Objects.requireNonNull(expiresAt, "expiresAt");
        }

        StackTemplate build() {
            network();
            securityGroups();
            database();
            bucketAndRole();
            node(APP_NODE, spec.appInstanceType(), NodeUserData.app(spec), "AppSecurityGroup", "app");
            for (int i = 1; i <= spec.load().count(); i++) {
                node(loadNode(i), spec.load().instanceType(), NodeUserData.load(spec), "LoadSecurityGroup", "load-" + i);
            }
            outputs();
            return new StackTemplate(parameters, resources, outputs);
        }

        private List<Object> tags(String name, Map<String, String> extra) {
            List<Object> tags = new ArrayList<>();
            tags.add(map("Key", "Name", "Value", spec.stackName() + "-" + name));
            tags.add(map("Key", CloudSection.Names.TAG_SERIES, "Value", spec.series()));
            tags.add(map("Key", CloudSection.Names.TAG_OWNER, "Value", owner));
            tags.add(map("Key", CloudSection.Names.TAG_EXPIRES_AT, "Value", expiresAt.toString()));
            extra.forEach((k, v) -> tags.add(map("Key", k, "Value", v)));
            return tags;
        }

        private List<Object> tags(String name) {
            return tags(name, Map.of());
        }

        private void add(String id, String type, Map<String, Object> props, String deletionPolicy, String... dependsOn) {
            resources.add(new Resource(id, type, props, deletionPolicy, List.of(dependsOn)));
        }

        private void network() {
            add("Vpc", "AWS::EC2::VPC", map("CidrBlock", "10.42.0.0/16", "EnableDnsSupport", true,
                    "EnableDnsHostnames", true, "Tags", tags("vpc")), "Delete");
            add("InternetGateway", "AWS::EC2::InternetGateway", map("Tags", tags("igw")), "Delete");
            add("GatewayAttachment", "AWS::EC2::VPCGatewayAttachment", map("VpcId", ref("Vpc"),
                    "InternetGatewayId", ref("InternetGateway")), "Delete");
            add("RouteTable", "AWS::EC2::RouteTable", map("VpcId", ref("Vpc"), "Tags", tags("routes")), "Delete");
            // outbound only (packages, S3, SSM): nothing listens to the internet, no security group admits it
            add("DefaultRoute", "AWS::EC2::Route", map("RouteTableId", ref("RouteTable"),
                    "DestinationCidrBlock", "0.0.0.0/0", "GatewayId", ref("InternetGateway")), "Delete",
                    "GatewayAttachment");
            add("RigSubnet", "AWS::EC2::Subnet", map("VpcId", ref("Vpc"), "CidrBlock", "10.42.1.0/24",
                    "AvailabilityZone", spec.availabilityZone(), "MapPublicIpOnLaunch", true,
                    "Tags", tags("rig")), "Delete");
            // RDS requires a subnet group over two AZs even for a single-AZ instance; nothing runs in this one
            add("SpareSubnet", "AWS::EC2::Subnet", map("VpcId", ref("Vpc"), "CidrBlock", "10.42.2.0/24",
                    "AvailabilityZone", spec.secondAvailabilityZone(), "MapPublicIpOnLaunch", false,
                    "Tags", tags("spare")), "Delete");
            add("RigSubnetRoutes", "AWS::EC2::SubnetRouteTableAssociation", map("SubnetId", ref("RigSubnet"),
                    "RouteTableId", ref("RouteTable")), "Delete");
        }

        private void securityGroups() {
            add("LoadSecurityGroup", "AWS::EC2::SecurityGroup", map("GroupDescription",
                    "rigscope load nodes: no inbound from outside the rig", "VpcId", ref("Vpc"),
                    "Tags", tags("load")), "Delete");
            // the load nodes talk to each other (the embedded broker on node 1)
            add("LoadToLoad", "AWS::EC2::SecurityGroupIngress", map("GroupId", getAtt("LoadSecurityGroup", "GroupId"),
                    "IpProtocol", "tcp", "FromPort", 0, "ToPort", 65535,
                    "SourceSecurityGroupId", getAtt("LoadSecurityGroup", "GroupId"),
                    "Description", "load node to load node"), "Delete");
            add("AppSecurityGroup", "AWS::EC2::SecurityGroup", map("GroupDescription",
                    "rigscope app node: its port from the load nodes only", "VpcId", ref("Vpc"),
                    "SecurityGroupIngress", List.of(map("IpProtocol", "tcp", "FromPort", spec.appPort(),
                            "ToPort", spec.appPort(), "SourceSecurityGroupId", getAtt("LoadSecurityGroup", "GroupId"),
                            "Description", "load nodes to the service")),
                    "Tags", tags("app")), "Delete");
            add("DatabaseSecurityGroup", "AWS::EC2::SecurityGroup", map("GroupDescription",
                    "rigscope database: PostgreSQL from the app and load nodes only", "VpcId", ref("Vpc"),
                    "SecurityGroupIngress", List.of(
                            map("IpProtocol", "tcp", "FromPort", 5432, "ToPort", 5432,
                                    "SourceSecurityGroupId", getAtt("AppSecurityGroup", "GroupId"),
                                    "Description", "the service"),
                            map("IpProtocol", "tcp", "FromPort", 5432, "ToPort", 5432,
                                    "SourceSecurityGroupId", getAtt("LoadSecurityGroup", "GroupId"),
                                    "Description", "the load nodes (pgbench, the DB sampler)")),
                    "Tags", tags("db")), "Delete");
        }

        private void database() {
            CloudSection.Spec.Database db = spec.database();
            String id = dbInstanceIdentifier(spec);
            add("DatabaseSubnetGroup", "AWS::RDS::DBSubnetGroup", map("DBSubnetGroupDescription",
                    "rigscope: the rig's AZ and the spare one RDS requires",
                    "SubnetIds", List.of(ref("RigSubnet"), ref("SpareSubnet")), "Tags", tags("db")), "Delete");
            Map<String, Object> params = new TreeMap<>(CloudSection.RIG_PARAMETERS);
            params.putAll(db.parameters());
            add("DatabaseParameters", "AWS::RDS::DBParameterGroup", map("Family", parameterFamily(spec),
                    "Description", "rigscope " + spec.series() + ": autovacuum and checkpoints logged, and the "
                            + "series file's settings", "Parameters", params, "Tags", tags("db")), "Delete");
            add("MonitoringRole", "AWS::IAM::Role", map("AssumeRolePolicyDocument", trust("monitoring.rds.amazonaws.com"),
                    "ManagedPolicyArns", List.of(sub("arn:${AWS::Partition}:iam::aws:policy/service-role/"
                            + "AmazonRDSEnhancedMonitoringRole")), "Tags", tags("monitoring")), "Delete");
            // the exported postgresql log's group, made here so the stack deletes it (RDS would make one that stays)
            add("DatabaseLogGroup", "AWS::Logs::LogGroup", map("LogGroupName", "/aws/rds/instance/" + id + "/postgresql",
                    "RetentionInDays", 1, "Tags", tags("db-log")), "Delete");
            CloudSection.Spec.Storage s = db.storage();
            add(DATABASE, "AWS::RDS::DBInstance", map(
                    "DBInstanceIdentifier", id,
                    "Engine", "postgres",
                    "EngineVersion", db.engineVersion(),
                    "DBInstanceClass", db.instanceClass(),
                    "DBName", DATABASE_NAME,
                    "MasterUsername", MASTER_USER,
                    "ManageMasterUserPassword", true,
                    "AllocatedStorage", Integer.toString(s.sizeGb()),
                    "StorageType", s.type(),
                    "Iops", s.iops(),
                    "StorageThroughput", s.throughputMibps(),
                    "StorageEncrypted", true,
                    "MultiAZ", false,
                    "AvailabilityZone", spec.availabilityZone(),
                    "DBSubnetGroupName", ref("DatabaseSubnetGroup"),
                    "VPCSecurityGroups", List.of(getAtt("DatabaseSecurityGroup", "GroupId")),
                    "PubliclyAccessible", false,
                    "DBParameterGroupName", ref("DatabaseParameters"),
                    "MonitoringInterval", 1,
                    "MonitoringRoleArn", getAtt("MonitoringRole", "Arn"),
                    "EnablePerformanceInsights", true,
                    "PerformanceInsightsRetentionPeriod", 7,
                    "EnableCloudwatchLogsExports", List.of("postgresql"),
                    "BackupRetentionPeriod", 0,
                    "DeleteAutomatedBackups", true,
                    "DeletionProtection", false,
                    "AutoMinorVersionUpgrade", false,
                    "Tags", tags("db")), "Delete", "DatabaseLogGroup");
        }

        private void bucketAndRole() {
            add(EVIDENCE_BUCKET, "AWS::S3::Bucket", map(
                    "PublicAccessBlockConfiguration", map("BlockPublicAcls", true, "BlockPublicPolicy", true,
                            "IgnorePublicAcls", true, "RestrictPublicBuckets", true),
                    "BucketEncryption", map("ServerSideEncryptionConfiguration", List.of(map(
                            "ServerSideEncryptionByDefault", map("SSEAlgorithm", "AES256")))),
                    // the jar the nodes install is gone a day later; the evidence stays
                    "LifecycleConfiguration", map("Rules", List.of(map("Id", "rig-jar", "Status", "Enabled",
                            "Prefix", "rig/", "ExpirationInDays", 1))),
                    "Tags", tags("evidence", Map.of(CloudSection.Names.TAG_ROLE, CloudSection.Names.ROLE_EVIDENCE))), "Retain");
            add("NodeRole", "AWS::IAM::Role", map(
                    "AssumeRolePolicyDocument", trust("ec2.amazonaws.com"),
                    "ManagedPolicyArns", List.of(sub("arn:${AWS::Partition}:iam::aws:policy/AmazonSSMManagedInstanceCore")),
                    "Policies", List.of(map("PolicyName", "rigscope-node", "PolicyDocument", map(
                            "Version", "2012-10-17",
                            "Statement", List.of(
                                    allow(List.of("s3:GetObject", "s3:PutObject"), sub("${EvidenceBucket.Arn}/*")),
                                    allow(List.of("s3:ListBucket"), getAtt(EVIDENCE_BUCKET, "Arn")),
                                    allow(List.of("secretsmanager:GetSecretValue"),
                                            getAtt(DATABASE, "MasterUserSecret.SecretArn")))))),
                    "Tags", tags("node")), "Delete");
            add("NodeProfile", "AWS::IAM::InstanceProfile", map("Roles", List.of(ref("NodeRole"))), "Delete");
        }

        private void node(String id, String instanceType, String userData, String securityGroup, String name) {
            String image = isArm64(instanceType) ? ARM64_IMAGE : X86_IMAGE;
            parameters.computeIfAbsent(image, k -> map(
                    "Type", "AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>",
                    "Default", "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-"
                            + (k.equals(ARM64_IMAGE) ? "arm64" : "x86_64"),
                    "Description", "Amazon Linux 2023, " + (k.equals(ARM64_IMAGE) ? "arm64" : "x86_64")));
            add(id, "AWS::EC2::Instance", map(
                    "ImageId", ref(image),
                    "InstanceType", instanceType,
                    "AvailabilityZone", spec.availabilityZone(),
                    "SubnetId", ref("RigSubnet"),
                    "SecurityGroupIds", List.of(getAtt(securityGroup, "GroupId")),
                    "IamInstanceProfile", ref("NodeProfile"),
                    "BlockDeviceMappings", List.of(map("DeviceName", "/dev/xvda", "Ebs", map(
                            "VolumeSize", ROOT_VOLUME_GB, "VolumeType", "gp3", "DeleteOnTermination", true,
                            "Encrypted", true))),
                    "PropagateTagsToVolumeOnCreation", true,
                    "UserData", Cfn.base64(sub(userData)),
                    "Tags", tags(name)), "Delete", "DefaultRoute");
        }

        private void outputs() {
            outputs.put("DatabaseInstanceId", map("Value", ref(DATABASE)));
            outputs.put("DatabaseEndpoint", map("Value", getAtt(DATABASE, "Endpoint.Address")));
            outputs.put("DatabasePort", map("Value", getAtt(DATABASE, "Endpoint.Port")));
            outputs.put("DatabaseSecretArn", map("Value", getAtt(DATABASE, "MasterUserSecret.SecretArn")));
            outputs.put("AppUrl", map("Value", sub("http://${AppNode.PrivateIp}:" + spec.appPort())));
            outputs.put("AppInstanceId", map("Value", ref(APP_NODE)));
            for (int i = 1; i <= spec.load().count(); i++) {
                outputs.put(loadNode(i) + "InstanceId", map("Value", ref(loadNode(i))));
                outputs.put(loadNode(i) + "PrivateIp", map("Value", getAtt(loadNode(i), "PrivateIp")));
            }
            outputs.put("EvidenceBucketName", map("Value", ref(EVIDENCE_BUCKET)));
        }
    }

    /**
     * What {@code cloud plan} prints: every resource of the template with its hourly price, the total, the region, AZ and
     * expiry. A resource AWS does not bill by the hour costs 0; one whose price the table does not know has a null price
     * and says why (the total then counts what is known and says so).
     *
     * @param template where the template was written
     * @param region the region
     * @param availabilityZone the AZ
     * @param expiresAt when the rig deletes itself, if stood up now
     * @param resources every resource, in template order
     * @param pricesFrom the price table's date and source
     * @param publicIpv4Addresses how many public IPv4 addresses the nodes hold (billed hourly; not in the price table)
     */
    public record Plan(Path template, String region, String availabilityZone, Instant expiresAt,
                            List<Priced> resources, String pricesFrom, int publicIpv4Addresses) {

        public Plan {
            Objects.requireNonNull(template, "template");
            resources = List.copyOf(resources);
        }

        /**
         * One resource's price.
         *
         * @param logicalId its id in the template
         * @param type its CloudFormation type
         * @param hourlyUsd USD per hour, or null when unknown
         * @param why why it is unknown (null when known)
         * @param detail how the figure is made up (printed in the table), or empty
         */
        public record Priced(String logicalId, String type, Double hourlyUsd, String why, String detail) {
        }

        /** The sum of the known hourly prices, USD. */
        public double hourlyUsdTotal() {
            return resources.stream().filter(r -> r.hourlyUsd() != null).mapToDouble(Priced::hourlyUsd).sum();
        }

        /** True when some resource's price is unknown (the total is then a lower bound). */
        public boolean totalIsPartial() {
            return resources.stream().anyMatch(r -> r.hourlyUsd() == null);
        }

        /** Prices every resource of {@code template}. */
        public static Plan of(CloudSection.Spec spec, StackTemplate template, Path written, Instant expiresAt,
                                  PriceTable prices) {
            List<Priced> out = new ArrayList<>();
            for (StackTemplate.Resource r : template.resources()) {
                out.add(switch (r.type()) {
                    case "AWS::RDS::DBInstance" -> database(spec, r, prices);
                    case "AWS::EC2::Instance" -> node(spec, r, prices);
                    default -> new Priced(r.logicalId(), r.type(), 0.0, null, "");
                });
            }
            int nodes = 1 + spec.load().count();
            return new Plan(written, spec.region(), spec.availabilityZone(), expiresAt, out,
                    "price table " + prices.date() + " (" + prices.source() + ")", nodes);
        }

        private static Priced database(CloudSection.Spec spec, StackTemplate.Resource r, PriceTable prices) {
            CloudSection.Spec.Database db = spec.database();
            CloudSection.Spec.Storage s = db.storage();
            PriceTable.RdsShape shape = new PriceTable.RdsShape(spec.region(), db.instanceClass(), false, s.type(),
                    s.sizeGb(), s.iops() == null ? s.includedIops() : s.iops(),
                    s.throughputMibps() == null ? s.includedThroughputMibps() : s.throughputMibps());
            return prices.rdsHourlyCost(shape)
                    .map(c -> new Priced(r.logicalId(), r.type(), c.usd(), null, c.basis()))
                    .orElseGet(() -> new Priced(r.logicalId(), r.type(), null,
                            String.join("; ", prices.rdsMissingPrices(shape)), ""));
        }

        private static Priced node(CloudSection.Spec spec, StackTemplate.Resource r, PriceTable prices) {
            String type = (String) r.properties().get("InstanceType");
            OptionalDouble instance = prices.ec2InstanceHourlyUsd(spec.region(), type);
            OptionalDouble gbMonth = prices.ebsGbMonthUsd(spec.region(), "gp3");
            List<String> missing = new ArrayList<>();
            if (instance.isEmpty()) {
                missing.add("no known price for EC2 " + type + " Linux");
            }
            if (gbMonth.isEmpty()) {
                missing.add("no known price for EBS gp3");
            }
            if (!missing.isEmpty()) {
                return new Priced(r.logicalId(), r.type(), null, String.join("; ", missing) + " in " + spec.region()
                        + " (price table " + prices.date() + ")", "");
            }
            double volume = StackTemplate.ROOT_VOLUME_GB * gbMonth.getAsDouble() / PriceTable.HOURS_PER_MONTH;
            return new Priced(r.logicalId(), r.type(), instance.getAsDouble() + volume, null, String.format(Locale.ROOT,
                    "price table %s: %s %s $%.4f/h + %d GB gp3 root x $%.4f/GB-month, per month of %d h", prices.date(),
                    type, spec.region(), instance.getAsDouble(), StackTemplate.ROOT_VOLUME_GB, gbMonth.getAsDouble(),
                    (int) PriceTable.HOURS_PER_MONTH));
        }

        /** The plan as {@code cloud plan --json} prints it. */
        public String toJson() {
            ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            ObjectNode root = json.createObjectNode();
            root.put("template", template.toString());
            root.put("region", region);
            root.put("availability_zone", availabilityZone);
            root.put("expires_at", expiresAt.toString());
            root.put("hourly_usd_total", round(hourlyUsdTotal()));
            ArrayNode rs = root.putArray("resources");
            for (Priced p : resources) {
                ObjectNode n = rs.addObject();
                n.put("logical_id", p.logicalId());
                n.put("type", p.type());
                if (p.hourlyUsd() == null) {
                    n.putNull("hourly_usd");
                    n.put("why", p.why());
                } else {
                    n.put("hourly_usd", round(p.hourlyUsd()));
                }
            }
            try {
                return json.writeValueAsString(root);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }

        /** The plan as the console table. */
        public String toTable(String series, String lifetime) {
            StringBuilder b = new StringBuilder();
            b.append(String.format(Locale.ROOT, "rigscope cloud plan: series %s, %s (%s), expires %s if stood up now "
                    + "(lifetime %s)%n", series, region, availabilityZone, expiresAt, lifetime));
            b.append(String.format(Locale.ROOT, "%-22s %-40s %10s  %s%n", "LOGICAL ID", "TYPE", "USD/HOUR", "MADE OF"));
            for (Priced p : resources) {
                b.append(String.format(Locale.ROOT, "%-22s %-40s %10s  %s%n", p.logicalId(), p.type(),
                        p.hourlyUsd() == null ? "unknown" : String.format(Locale.ROOT, "%.4f", p.hourlyUsd()),
                        p.hourlyUsd() == null ? p.why() : p.detail()));
            }
            b.append(String.format(Locale.ROOT, "total %.4f USD/hour%s; prices: %s%n", hourlyUsdTotal(),
                    totalIsPartial() ? " (lower bound: a price above is unknown)" : "", pricesFrom));
            b.append(String.format(Locale.ROOT, "not in the total: %d public IPv4 addresses (billed hourly by AWS), S3 and "
                    + "CloudWatch Logs storage, Enhanced Monitoring's log ingestion, data transfer%n", publicIpv4Addresses));
            b.append("template: ").append(template).append(System.lineSeparator());
            return b.toString();
        }

        private static double round(double usd) {
            return Math.round(usd * 1e6) / 1e6;
        }
    }
}
