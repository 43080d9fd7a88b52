package io.rigscope.rig.cloud;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.rig.cli.RigscopeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cloud up | extend | down | check} with the real SDK clients against {@link CloudStandIn}. */
@Tag("it")
class CloudLifecycleTest {

    private static final String SERIES_FILE = """
            series: life-1
            sustained: {rate: 100, repeats: 1, duration: 1m}
            cloud:
              region: us-east-1
              availability_zone: us-east-1a
              lifetime: 4h
              database: {class: db.r8g.xlarge, engine_version: "16", storage: {type: gp3, gb: 100}}
              load: {instance_type: m7g.large, count: 2}
            """;

    @TempDir
    Path dir;
    private CloudStandIn aws;
    private Path config;
    private Path jar;

    @BeforeEach
    void start() throws Exception {
        aws = CloudStandIn.start("us-east-1");
        StandInCredentials.set();
        config = Files.writeString(dir.resolve("series.yaml"), SERIES_FILE);
        jar = Files.write(dir.resolve("rigscope.jar"), "not really a jar, but the bytes the nodes would get".getBytes());
    }

    @AfterEach
    void stop() {
        StandInCredentials.clear();
        aws.close();
    }

    private RigscopeRun cloud(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "cloud";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--endpoint";
        all[args.length + 2] = aws.endpoint().toString();
        return rigscope(all);
    }

    /** Keeps what a command printed under target/cloud-transcripts/ (docs/cloud.md quotes these). */
    private static RigscopeRun transcript(String name, String command, RigscopeRun run) {
        try {
            Path dir = Path.of("target", "cloud-transcripts");
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name + ".txt"), "$ rigscope " + command + "\n" + run.out() + run.err()
                    + "(exit " + run.exit() + ")\n");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return run;
    }

    private RigscopeRun up() {
        return cloud("up", "--config", config.toString(), "--out", dir.resolve("rig").toString(), "--owner", "tester",
                "--jar", jar.toString(), "--poll", "10ms");
    }

    @Test
    void upPrintsEventsAndOutputsExtendMovesTheExpiryDownLeavesNothingAndCheckIsClean() throws Exception {
        Instant before = Instant.now();
        RigscopeRun up = transcript("up", "cloud up --config series.yaml --out rig --jar rigscope.jar --endpoint "
                + "STAND-IN", up());
        assertThat(up.exit()).as(up.out() + up.err()).isZero();
        // the expiry exists before the stack does
        assertThat(up.out().indexOf("expiry schedule rigscope-life-1-expiry")).isLessThan(up.out().indexOf("stack arn:"));
        assertThat(up.out()).contains("CREATE_IN_PROGRESS   Database").contains("CREATE_COMPLETE      LoadNode2")
                .contains("CREATE_COMPLETE      rigscope-life-1").contains("uploaded rigscope.jar")
                .contains("DatabaseEndpoint = rigscope-life-1.c0ffee.standin.rds.amazonaws.com")
                .contains("AppUrl = http://10.42.1.");
        assertThat(dir.resolve("rig/outputs.json")).exists();
        assertThat(dir.resolve("rig/template.yaml")).exists();

        Map<String, String> schedule = aws.account.schedules.get("rigscope-life-1-expiry");
        assertThat(schedule).containsEntry("TargetArn", "arn:aws:scheduler:::aws-sdk:cloudformation:deleteStack")
                .containsEntry("Input", "{\"StackName\":\"rigscope-life-1\"}")
                .containsEntry("ScheduleExpressionTimezone", "UTC").containsEntry("ActionAfterCompletion", "DELETE");
        Instant at = at(schedule.get("ScheduleExpression"));
        assertThat(at).isBetween(before.plus(Duration.ofHours(4)).minusSeconds(2), Instant.now().plus(Duration.ofHours(4)));
        assertThat(aws.account.roles.get("rigscope-life-1-expiry").get("policy:delete-stack-at-expiry"))
                .contains("cloudformation:DeleteStack").contains("stack/rigscope-life-1/*").contains("aws:CalledVia");
        String bucket = aws.account.buckets.keySet().iterator().next();
        assertThat(aws.account.buckets.get(bucket).get("rig/rigscope.jar")).isEqualTo(Files.readAllBytes(jar));

        RigscopeRun extend = transcript("extend", "cloud extend life-1 --by 2h --region us-east-1 --endpoint STAND-IN",
                cloud("extend", "life-1", "--by", "2h", "--region", "us-east-1"));
        assertThat(extend.exit()).as(extend.err()).isZero();
        assertThat(at(aws.account.schedules.get("rigscope-life-1-expiry").get("ScheduleExpression")))
                .isEqualTo(at.plus(Duration.ofHours(2)));
        assertThat(aws.account.stacks.values().iterator().next().tags)
                .containsEntry(CloudSection.Names.TAG_EXPIRES_AT, at.plus(Duration.ofHours(2)).toString());
        assertThat(aws.account.tagged.values()).allSatisfy(tags ->
                assertThat(tags).containsEntry(CloudSection.Names.TAG_EXPIRES_AT, at.plus(Duration.ofHours(2)).toString()));

        RigscopeRun remains = transcript("check-remains", "cloud check --region us-east-1 --endpoint STAND-IN",
                cloud("check", "--region", "us-east-1"));
        assertThat(remains.exit()).isEqualTo(1);
        assertThat(remains.out()).contains("rds db").contains("ec2 instance").contains("cloudformation stack");

        RigscopeRun down = transcript("down", "cloud down life-1 --region us-east-1 --endpoint STAND-IN",
                cloud("down", "life-1", "--region", "us-east-1", "--poll", "10ms"));
        assertThat(down.exit()).as(down.out() + down.err()).isZero();
        assertThat(down.out()).contains("DELETE_COMPLETE      Database").contains("DELETE_SKIPPED       EvidenceBucket")
                .contains("expiry schedule deleted, role deleted").contains("down: nothing tagged life-1 remains");
        assertThat(aws.account.schedules).isEmpty();
        assertThat(aws.account.roles).isEmpty();

        RigscopeRun clean = transcript("check-clean", "cloud check --region us-east-1 --endpoint STAND-IN",
                cloud("check", "--region", "us-east-1"));
        assertThat(clean.exit()).as(clean.out()).isZero();
        assertThat(clean.out()).contains("KEPT").contains("s3 bucket").contains("1 evidence bucket kept on purpose");
    }

    @Test
    void aCreateFailingHalfWayIsDeletedNamingTheResourceAndWhy() {
        aws.account.failCreateOf("Database", "Cannot create a db.r8g.xlarge in us-east-1a: insufficient capacity "
                + "(Service: Rds, Status Code: 400)");
        RigscopeRun up = transcript("up-fails", "cloud up --config series.yaml --out rig --jar rigscope.jar --endpoint "
                + "STAND-IN", up());
        assertThat(up.exit()).isEqualTo(1);
        assertThat(up.out()).contains("CREATE_FAILED        Database").contains("DELETE_COMPLETE      Vpc")
                .contains("expiry schedule and role deleted");
        assertThat(up.err()).contains("the create failed at Database: Cannot create a db.r8g.xlarge in us-east-1a: "
                + "insufficient capacity");
        assertThat(aws.account.schedules).isEmpty();
        assertThat(aws.account.roles).isEmpty();
        RigscopeRun check = cloud("check", "--region", "us-east-1");
        assertThat(check.exit()).as(check.out()).isZero();
    }

    @Test
    void runSendsTheSeriesToLoadNodeOneShowsItsConsoleAndFetchBringsTheEvidenceHere() throws Exception {
        assertThat(up().exit()).isZero();
        RigscopeRun run = transcript("run", "cloud run --config series.yaml --dir rig --endpoint STAND-IN",
                cloud("run", "--config", config.toString(), "--dir", dir.resolve("rig").toString(), "--poll", "10ms"));
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("  | bring-up: ok").contains("  | series verdict: stand-in")
                .contains("ssm command Success, exit 0")
                .contains("evidence: [template.yaml, plan.json, stack-events.jsonl, series-as-run.yaml]");
        String script = String.join("\n", aws.lastScript);
        assertThat(script).contains("rigscope run --config series.yaml --pg \"$RIGSCOPE_PG\"")
                .contains("evidence s3://rigscope-life-1-evidencebucket-");
        var asRun = io.rigscope.rig.plan.ScenarioSpec.Yaml.readText("as-run", new String(
                java.util.Base64.getDecoder().decode(script.replaceAll("(?s).*echo '([^']+)' \\| base64 -d.*", "$1"))));
        assertThat(asRun.has("cloud")).isFalse();
        assertThat(asRun.path("target").path("url").asText()).startsWith("http://10.42.1.").endsWith(":8080");
        assertThat(asRun.path("rds").path("db_instance").asText()).isEqualTo("rigscope-life-1");

        Path fetched = dir.resolve("fetched");
        RigscopeRun fetch = transcript("fetch", "cloud fetch life-1 --out fetched --region us-east-1 --endpoint STAND-IN",
                cloud("fetch", "life-1", "--out", fetched.toString(), "--region", "us-east-1"));
        assertThat(fetch.exit()).as(fetch.err()).isZero();
        for (String f : java.util.List.of("series.yaml", "records.jsonl", "report.md", "template.yaml", "plan.json",
                "stack-events.jsonl", "series-as-run.yaml")) {
            assertThat(fetched.resolve(f)).as(f).exists();
        }
        assertThat(Files.readString(fetched.resolve("stack-events.jsonl"))).contains("\"logical_id\":\"Database\"");
    }

    @Test
    void aRunStillGoingAtTheExpiryTearsTheRigDown() {
        assertThat(up().exit()).isZero();
        aws.account.stacks.values().iterator().next().tags.put(CloudSection.Names.TAG_EXPIRES_AT, "2026-01-01T00:00:00Z");
        RigscopeRun run = transcript("run-expired", "cloud run --config series.yaml --dir rig --endpoint STAND-IN",
                cloud("run", "--config", config.toString(), "--dir", dir.resolve("rig").toString(), "--poll", "10ms"));
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("expiry 2026-01-01T00:00:00Z reached while the series runs: tearing the rig down")
                .contains("DELETE_COMPLETE      Database");
        assertThat(run.err()).contains("the rig is torn down");
        assertThat(aws.account.schedules).isEmpty();
        RigscopeRun check = cloud("check", "--region", "us-east-1");
        assertThat(check.exit()).as(check.out()).isZero();
    }

    @Test
    void aDeleteThatFailsIsSaidAndWhatRemainsIsNamedWithoutWaitingOutTheTimeout() {
        assertThat(up().exit()).isZero();
        aws.account.failDeleteOf("DatabaseSecurityGroup", "resource sg-1 has a dependent object");
        RigscopeRun down = transcript("down-fails", "cloud down life-1 --region us-east-1 --endpoint STAND-IN",
                cloud("down", "life-1", "--region", "us-east-1", "--poll", "10ms"));
        assertThat(down.exit()).isEqualTo(1);
        assertThat(down.out()).contains("DELETE_FAILED        DatabaseSecurityGroup").contains("stack DELETE_FAILED")
                .contains("REMAINS ec2 security-group");
        assertThat(aws.account.schedules).containsKey("rigscope-life-1-expiry");
    }

    private static Instant at(String expression) {
        return LocalDateTime.parse(expression.substring(3, expression.length() - 1)).toInstant(ZoneOffset.UTC);
    }
}
