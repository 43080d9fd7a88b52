package io.rigscope.rig.cloud;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.rig.cli.RigscopeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CloudPlanCommandTest {

    @TempDir
    Path dir;

    private RigscopeRun plan(String cloudSection, String... extra) throws Exception {
        Path file = dir.resolve("series.yaml");
        Files.writeString(file, "series: plan-test\nsustained: {rate: 100, repeats: 1, duration: 1m}\n" + cloudSection);
        List<String> args = new ArrayList<>(List.of("cloud", "plan", "--config", file.toString(), "--out",
                dir.resolve("out").toString(), "--owner", "tester"));
        args.addAll(List.of(extra));
        return rigscope(args.toArray(String[]::new));
    }

    private static final String GOOD = """
            cloud:
              region: us-east-1
              availability_zone: us-east-1a
              lifetime: 4h
              database: {class: db.r8g.xlarge, engine_version: "16", storage: {type: gp3, gb: 100}}
              load: {instance_type: m7g.large, count: 2}
            """;

    @Test
    void planJsonHasTheTemplateEveryResourcesHourlyPriceTheTotalAndTheExpiry() throws Exception {
        Instant before = Instant.now();
        RigscopeRun run = plan(GOOD, "--json");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode plan = new ObjectMapper().readTree(run.out());
        List<String> fields = new ArrayList<>();
        plan.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("template", "region", "availability_zone", "expires_at", "hourly_usd_total",
                "resources");
        assertThat(Path.of(plan.get("template").asText())).exists();
        assertThat(plan.get("region").asText()).isEqualTo("us-east-1");
        assertThat(plan.get("availability_zone").asText()).isEqualTo("us-east-1a");
        Instant expires = Instant.parse(plan.get("expires_at").asText());
        assertThat(expires).isBetween(before.plus(Duration.ofHours(4)).minusSeconds(1),
                Instant.now().plus(Duration.ofHours(4)));
        JsonNode db = null;
        double sum = 0;
        for (JsonNode r : plan.get("resources")) {
            if (r.get("logical_id").asText().equals("Database")) {
                db = r;
            }
            if (r.get("type").asText().equals("AWS::EC2::VPC")) {
                assertThat(r.get("hourly_usd").asDouble()).isZero();
            }
            if (r.get("hourly_usd").isNull()) {
                assertThat(r.get("why").asText()).startsWith("no known price");
            } else {
                sum += r.get("hourly_usd").asDouble();
            }
        }
        // the bundled table (2026-12-06): db.r8g.xlarge us-east-1 $0.478/h + 100 GB gp3 x $0.115 / 730
        assertThat(db).isNotNull();
        assertThat(db.get("hourly_usd").asDouble()).isCloseTo(0.478 + 100 * 0.115 / 730, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(plan.get("hourly_usd_total").asDouble()).isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-5));
    }

    @Test
    void planTableNamesEachResourceAndTheTotal() throws Exception {
        RigscopeRun run = plan(GOOD);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("Database").contains("AWS::RDS::DBInstance").contains("LoadNode2")
                .contains("total ").contains("USD/hour").contains("template: ");
    }

    @Test
    void aTypoInTheCloudSectionExitsTwoNamingTheKey() throws Exception {
        RigscopeRun run = plan(GOOD.replace("{type: gp3, gb: 100}", "{type: gp3, gb: 100, iosp: 3000}"));
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("cloud.database.storage.iosp is not a known key here")
                .doesNotContain("Exception");
    }

    @Test
    void aBadValueInTheCloudSectionExitsTwoNamingItsPath() throws Exception {
        RigscopeRun iops = plan(GOOD.replace("{type: gp3, gb: 100}", "{type: gp3, gb: 100, iops: 9000}"));
        assertThat(iops.exit()).isEqualTo(2);
        assertThat(iops.err()).contains("cloud.database.storage.iops cannot be provisioned below 400 GiB");
        RigscopeRun notNumber = plan(GOOD.replace("{type: gp3, gb: 100}", "{type: gp3, gb: lots}"));
        assertThat(notNumber.exit()).isEqualTo(2);
        assertThat(notNumber.err()).contains("cloud.database.storage.gb must be a whole number");
        RigscopeRun zone = plan(GOOD.replace("availability_zone: us-east-1a", "availability_zone: eu-west-1a"));
        assertThat(zone.exit()).isEqualTo(2);
        assertThat(zone.err()).contains("cloud.availability_zone 'eu-west-1a' is not a zone of us-east-1");
        RigscopeRun rigParameter = plan(GOOD.replace("storage: {type: gp3, gb: 100}}",
                "storage: {type: gp3, gb: 100}, parameters: {log_checkpoints: \"0\"}}"));
        assertThat(rigParameter.exit()).isEqualTo(2);
        assertThat(rigParameter.err()).contains("cloud.database.parameters.log_checkpoints is set by rigscope");
    }

    @Test
    void tenLoadNodesStayUnderCloudFormationsTemplateBodyLimitAndElevenAreRefused() throws Exception {
        RigscopeRun ten = plan(GOOD.replace("count: 2", "count: 10"), "--json");
        assertThat(ten.exit()).as(ten.err()).isZero();
        assertThat(Files.size(dir.resolve("out/template.yaml"))).isLessThan(51_200);
        RigscopeRun eleven = plan(GOOD.replace("count: 2", "count: 11"));
        assertThat(eleven.exit()).isEqualTo(2);
        assertThat(eleven.err()).contains("cloud.load.count must be 1 to 10, was 11");
    }

    @Test
    void aSeriesFileWithoutACloudSectionIsRefused() throws Exception {
        RigscopeRun run = plan("");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("cloud is missing");
    }
}
