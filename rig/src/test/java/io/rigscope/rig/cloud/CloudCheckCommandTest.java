package io.rigscope.rig.cloud;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.rig.cli.RigscopeRun;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code cloud check}'s exit codes, with the real SDK clients against {@link CloudStandIn}. */
@Tag("it")
class CloudCheckCommandTest {

    private CloudStandIn aws;

    @BeforeEach
    void start() {
        aws = CloudStandIn.start("us-east-1");
        StandInCredentials.set();
    }

    @AfterEach
    void stop() {
        StandInCredentials.clear();
        aws.close();
    }

    private RigscopeRun check(String endpoint) {
        return rigscope("cloud", "check", "--region", "us-east-1", "--endpoint", endpoint);
    }

    @Test
    void anEmptyAccountIsCleanAndExitsZero() {
        RigscopeRun run = check(aws.endpoint().toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("clean: nothing rigscope made remains in us-east-1");
        assertThat(aws.calls()).containsKeys("tagging:GetResources", "cloudformation:DescribeStacks",
                "scheduler:GET /schedules", "iam:ListRoles");
    }

    @Test
    void aLeftoverInstanceExitsOneNamingItAndItsHourlyCost() {
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put(CloudSection.Names.TAG_SERIES, "old-series");
        tags.put(CloudSection.Names.TAG_EXPIRES_AT, "2026-12-01T00:00:00Z");
        aws.account.tagged.put("arn:aws:ec2:us-east-1:123456789012:instance/i-0leftover", tags);
        aws.account.instanceTypes.put("i-0leftover", "m7g.large");
        RigscopeRun run = check(aws.endpoint().toString());
        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(1);
        // m7g.large us-east-1: $0.0816/h in the bundled price table (2026-12-06)
        assertThat(run.out()).contains("REMAINS").contains("ec2 instance").contains("old-series")
                .contains("0.0816 USD/h").contains("instance/i-0leftover").contains("1 remains in us-east-1");
    }

    @Test
    void accessDeniedExitsTwoInOneLine() throws Exception {
        aws.deny("tagging");
        RigscopeRun run = check(aws.endpoint().toString());
        java.nio.file.Files.createDirectories(java.nio.file.Path.of("target", "cloud-transcripts"));
        java.nio.file.Files.writeString(java.nio.file.Path.of("target", "cloud-transcripts", "check-denied.txt"),
                "$ rigscope cloud check --region us-east-1 --endpoint STAND-IN\n" + run.err() + "(exit " + run.exit() + ")\n");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().strip()).doesNotContain("\n").contains("COULD NOT LOOK")
                .contains("access denied: tagging:GetResources answered AccessDeniedException");
        assertThat(run.out()).doesNotContain("clean");
    }

    @Test
    void anEndpointNobodyAnswersExitsTwoWellWithinAMinute() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        long t0 = System.nanoTime();
        RigscopeRun run = check("http://127.0.0.1:" + port);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().strip()).doesNotContain("\n").contains("endpoint unreachable: tagging:GetResources");
        assertThat(took).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void anEndpointThatAcceptsButNeverAnswersExitsTwoWhenTheCallTimesOut() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            long t0 = System.nanoTime();
            RigscopeRun run = rigscope("cloud", "check", "--region", "us-east-1", "--call-timeout", "2s",
                    "--endpoint", "http://127.0.0.1:" + silent.getLocalPort());
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            assertThat(run.exit()).isEqualTo(2);
            assertThat(run.err().strip()).doesNotContain("\n").contains("endpoint unreachable: tagging:GetResources")
                    .contains("timeout");
            assertThat(took).isLessThan(Duration.ofSeconds(15));
        }
    }

    @Test
    void noCredentialsExitsTwoSayingSo() {
        StandInCredentials.none();
        RigscopeRun run = check(aws.endpoint().toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().strip()).doesNotContain("\n").contains("no AWS credentials");
        assertThat(aws.calls()).isEmpty();
    }
}
