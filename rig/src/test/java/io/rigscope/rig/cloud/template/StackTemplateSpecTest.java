package io.rigscope.rig.cloud.template;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rigscope.rig.cloud.CloudSection;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The template checked against AWS's published CloudFormation resource specification ({@link CfnSpec}). */
class StackTemplateSpecTest {

    private static CfnSpec spec;

    @BeforeAll
    static void specification() throws Exception {
        spec = CfnSpec.load();
    }

    static final String REFERENCE_SUT = """
            series: spec-check
            sustained: {rate: 100, repeats: 1, duration: 1m}
            cloud:
              region: ap-south-1
              availability_zone: ap-south-1a
              lifetime: 4h
              database: {class: db.m7g.4xlarge, engine_version: "16", storage: {type: gp3, gb: 100}, parameters: {max_wal_size: "8192"}}
              load: {instance_type: c7g.2xlarge, count: 2}
            """;

    static final String IMAGE_AND_PROVISIONED_IOPS = """
            series: spec-check-image
            sustained: {rate: 100, repeats: 1, duration: 1m}
            cloud:
              region: eu-west-1
              availability_zone: eu-west-1b
              lifetime: 2h
              database: {class: db.r6i.2xlarge, engine_version: "15.7", storage: {type: gp3, gb: 500, iops: 16000, throughput_mibps: 1000}}
              app: {instance_type: c6i.2xlarge, image: registry.example.com/orders:1.4, port: 9000, env: {SPRING_PROFILES: "bench", PRICE: "${x}"}}
              load: {instance_type: c6i.xlarge, count: 1}
            """;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parsedBack(String seriesYaml) throws Exception {
        CloudSection.Spec s = CloudSection.read("series.yaml", seriesYaml, null);
        String yaml = StackTemplate.of(s, "tester", Instant.parse("2026-12-06T09:00:00Z")).toYaml();
        return new ObjectMapper(new YAMLFactory()).readValue(yaml, Map.class);
    }

    @Test
    void everyResourceTypeAndPropertyIsKnownRequiredOnesArePresentAndValuesHaveTheirTypes() throws Exception {
        for (String file : List.of(REFERENCE_SUT, IMAGE_AND_PROVISIONED_IOPS)) {
            Map<String, Object> template = parsedBack(file);
            assertThat(spec.problems(template)).as("template problems against CloudFormation spec " + spec.version())
                    .isEmpty();
            assertThat((Map<?, ?>) template.get("Resources")).hasSizeGreaterThan(15);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyTaggableResourceCarriesTheSeriesOwnerAndExpiryTags() throws Exception {
        Map<String, Object> resources = (Map<String, Object>) parsedBack(REFERENCE_SUT).get("Resources");
        int taggable = 0;
        for (Map.Entry<String, Object> e : resources.entrySet()) {
            Map<String, Object> body = (Map<String, Object>) e.getValue();
            if (!spec.hasTags((String) body.get("Type"))) {
                continue;
            }
            taggable++;
            List<Map<String, Object>> tags = (List<Map<String, Object>>) ((Map<String, Object>) body.get("Properties"))
                    .get("Tags");
            assertThat(tags).as(e.getKey()).isNotNull();
            Map<Object, Object> byKey = new java.util.HashMap<>();
            tags.forEach(t -> byKey.put(t.get("Key"), t.get("Value")));
            assertThat(byKey).as(e.getKey()).containsEntry("rigscope:series", "spec-check")
                    .containsEntry("rigscope:owner", "tester")
                    .containsEntry("rigscope:expires-at", "2026-12-06T09:00:00Z");
        }
        assertThat(taggable).isGreaterThanOrEqualTo(14);
    }

    @Test
    void aBrokenTemplateIsCaughtByTheCheck() {
        Map<String, Object> broken = Map.of("Resources", Map.of(
                "Db", Map.of("Type", "AWS::RDS::DBInstance", "Properties", Map.of("MonitoringIntervall", 1,
                        "MultiAZ", "maybe", "DBSubnetGroupName", Map.of("Ref", "Nowhere"))),
                "Sg", Map.of("Type", "AWS::EC2::SecurityGroup", "Properties", Map.of()),
                "X", Map.of("Type", "AWS::EC2::Instanze")));
        assertThat(String.join("\n", spec.problems(broken)))
                .contains("Db.MonitoringIntervall: not a property of AWS::RDS::DBInstance")
                .contains("Db.MultiAZ: must be a Boolean")
                .contains("Ref Nowhere resolves to nothing")
                .contains("Sg: required property GroupDescription is missing")
                .contains("X: unknown resource type AWS::EC2::Instanze");
    }
}
