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
import io.rigscope.rig.cloud.CloudNames;
import io.rigscope.rig.cloud.CloudSection;
import io.rigscope.rig.cloud.CloudSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The one CloudFormation template a {@link CloudSpec} becomes: a VPC with one public subnet in the rig's AZ (and a
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
    public static String dbInstanceIdentifier(CloudSpec spec) {
        return spec.stackName();
    }

    /** The RDS parameter group family of the spec's engine: {@code postgres16}. */
    public static String parameterFamily(CloudSpec spec) {
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
    public static StackTemplate of(CloudSpec spec, String owner, Instant expiresAt) {
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
        private final CloudSpec spec;
        private final String owner;
        private final Instant expiresAt;
        private final List<Resource> resources = new ArrayList<>();
        private final Map<String, Object> parameters = new LinkedHashMap<>();
        private final Map<String, Object> outputs = new LinkedHashMap<>();

        Builder(CloudSpec spec, String owner, Instant expiresAt) {
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
            tags.add(map("Key", CloudNames.TAG_SERIES, "Value", spec.series()));
            tags.add(map("Key", CloudNames.TAG_OWNER, "Value", owner));
            tags.add(map("Key", CloudNames.TAG_EXPIRES_AT, "Value", expiresAt.toString()));
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
            CloudSpec.Database db = spec.database();
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
            CloudSpec.Storage s = db.storage();
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
                    "Tags", tags("evidence", Map.of(CloudNames.TAG_ROLE, CloudNames.ROLE_EVIDENCE))), "Retain");
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
}
