package io.rigscope.rig.cloud.template;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.rig.cloud.CloudSection;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rules of docs/cloud.md, each read off the template {@link StackTemplate#of} builds. */
class StackTemplateTest {

    private static final Instant EXPIRES = Instant.parse("2026-12-06T09:00:00Z");

    private static StackTemplate template(String yaml) {
        CloudSection.Spec spec = CloudSection.read("series.yaml", yaml, null);
        return StackTemplate.of(spec, "tester", EXPIRES);
    }

    private static StackTemplate.Resource resource(StackTemplate t, String id) {
        return t.resources().stream().filter(r -> r.logicalId().equals(id)).findFirst().orElseThrow();
    }

    private static List<StackTemplate.Resource> ofType(StackTemplate t, String type) {
        return t.resources().stream().filter(r -> r.type().equals(type)).toList();
    }

    @Test
    void theDatabaseIsMonitoredEverySecondWithInsightsAndItsLogExported() {
        Map<String, Object> db = resource(template(StackTemplateSpecTest.REFERENCE_SUT), "Database").properties();
        assertThat(db).containsEntry("MonitoringInterval", 1).containsKey("MonitoringRoleArn")
                .containsEntry("EnablePerformanceInsights", true)
                .containsEntry("EnableCloudwatchLogsExports", List.of("postgresql"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theParameterGroupLogsAutovacuumAndCheckpointsBesideTheUsersSettings() {
        StackTemplate t = template(StackTemplateSpecTest.REFERENCE_SUT);
        Map<String, Object> group = resource(t, "DatabaseParameters").properties();
        assertThat(group).containsEntry("Family", "postgres16");
        assertThat((Map<String, Object>) group.get("Parameters")).containsEntry("log_autovacuum_min_duration", "0")
                .containsEntry("log_checkpoints", "1").containsEntry("max_wal_size", "8192");
        assertThat(resource(t, "Database").properties()).containsEntry("DBParameterGroupName",
                Map.of("Ref", "DatabaseParameters"));
    }

    @Test
    void nothingBillsAfterTeardownButTheEvidenceBucket() {
        StackTemplate t = template(StackTemplateSpecTest.REFERENCE_SUT);
        StackTemplate.Resource db = resource(t, "Database");
        assertThat(db.deletionPolicy()).isEqualTo("Delete");
        assertThat(db.properties()).containsEntry("BackupRetentionPeriod", 0).containsEntry("DeleteAutomatedBackups", true)
                .containsEntry("DeletionProtection", false);
        for (StackTemplate.Resource r : t.resources()) {
            assertThat(r.deletionPolicy()).as(r.logicalId())
                    .isEqualTo(r.logicalId().equals("EvidenceBucket") ? "Retain" : "Delete");
        }
        assertThat(t.toYaml()).doesNotContain("Snapshot");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everythingRunsInTheOneZoneAndTheSubnetGroupSpansTwo() {
        StackTemplate t = template(StackTemplateSpecTest.REFERENCE_SUT);
        assertThat(resource(t, "Database").properties()).containsEntry("MultiAZ", false)
                .containsEntry("AvailabilityZone", "ap-south-1a");
        for (StackTemplate.Resource node : ofType(t, "AWS::EC2::Instance")) {
            assertThat(node.properties()).as(node.logicalId()).containsEntry("AvailabilityZone", "ap-south-1a")
                    .containsEntry("SubnetId", Map.of("Ref", "RigSubnet"));
        }
        assertThat(resource(t, "RigSubnet").properties()).containsEntry("AvailabilityZone", "ap-south-1a");
        assertThat(resource(t, "SpareSubnet").properties()).containsEntry("AvailabilityZone", "ap-south-1b");
        assertThat((List<Object>) resource(t, "DatabaseSubnetGroup").properties().get("SubnetIds")).hasSize(2);
    }

    @Test
    @SuppressWarnings("unchecked")
    void nodesHaveNoKeyNoInboundFromTheInternetAndEveryVolumeGoesWithThem() {
        StackTemplate t = template(StackTemplateSpecTest.REFERENCE_SUT);
        List<StackTemplate.Resource> nodes = ofType(t, "AWS::EC2::Instance");
        assertThat(nodes).extracting(StackTemplate.Resource::logicalId)
                .containsExactly("AppNode", "LoadNode1", "LoadNode2");
        for (StackTemplate.Resource node : nodes) {
            assertThat(node.properties()).as(node.logicalId()).doesNotContainKey("KeyName")
                    .containsEntry("IamInstanceProfile", Map.of("Ref", "NodeProfile"))
                    .containsEntry("PropagateTagsToVolumeOnCreation", true);
            for (Map<String, Object> bdm : (List<Map<String, Object>>) node.properties().get("BlockDeviceMappings")) {
                assertThat((Map<String, Object>) bdm.get("Ebs")).containsEntry("DeleteOnTermination", true);
            }
        }
        String yaml = t.toYaml();
        assertThat(yaml).doesNotContain("CidrIp").doesNotContain("::/0");
        assertThat(ofType(t, "AWS::EC2::SecurityGroupIngress")).allSatisfy(r ->
                assertThat(r.properties()).containsKey("SourceSecurityGroupId"));
        assertThat(resource(t, "NodeRole").properties().get("ManagedPolicyArns").toString())
                .contains("AmazonSSMManagedInstanceCore");
    }

    @Test
    @SuppressWarnings("unchecked")
    void userDataInstallsJava17ThePostgresClientAndRigscopeFromTheStacksBucket() {
        StackTemplate t = template(StackTemplateSpecTest.REFERENCE_SUT);
        Map<String, Object> userData = (Map<String, Object>) resource(t, "LoadNode1").properties().get("UserData");
        String script = (String) ((Map<String, Object>) userData.get("Fn::Base64")).get("Fn::Sub");
        assertThat(script).startsWith("#!/bin/bash").contains("java-17-amazon-corretto-headless")
                .contains("postgresql16 postgresql16-contrib").contains("s3://${EvidenceBucket}/rig/rigscope.jar");
        String app = (String) ((Map<String, Object>) ((Map<String, Object>) resource(t, "AppNode").properties()
                .get("UserData")).get("Fn::Base64")).get("Fn::Sub");
        assertThat(app).contains("rigscope sut --migrate --bind 0.0.0.0 --port 8080");
    }

    @Test
    @SuppressWarnings("unchecked")
    void anImagesEnvironmentIsQuotedAndKeptAwayFromFnSub() {
        StackTemplate t = template(StackTemplateSpecTest.IMAGE_AND_PROVISIONED_IOPS);
        String app = (String) ((Map<String, Object>) ((Map<String, Object>) resource(t, "AppNode").properties()
                .get("UserData")).get("Fn::Base64")).get("Fn::Sub");
        assertThat(app).contains("-e PRICE='${!x}'").contains("'registry.example.com/orders:1.4'")
                .contains("-p 9000:9000");
        assertThat(resource(t, "Database").properties()).containsEntry("Iops", 16000)
                .containsEntry("StorageThroughput", 1000).containsEntry("AllocatedStorage", "500");
    }

    @Test
    void gravitonTypesGetTheArmImage() {
        assertThat(StackTemplate.isArm64("c7g.2xlarge")).isTrue();
        assertThat(StackTemplate.isArm64("m7gd.large")).isTrue();
        assertThat(StackTemplate.isArm64("c7gn.xlarge")).isTrue();
        assertThat(StackTemplate.isArm64("c6i.2xlarge")).isFalse();
        assertThat(StackTemplate.isArm64("g5.xlarge")).isFalse();
    }
}
