package io.rigscope.rig.cli;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.kafka.EmbeddedKafka;
import io.rigscope.rig.options.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("it")
class ImportK6CommandTest {

    private static final long START_SEC = 1_700_000_000L;

    @TempDir
    static Path dir;
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void aFileWhoseLastLineIsCutOffIsImportedWithAWarningNamingTheLineAndExitsZero() throws Exception {
        Path file = dir.resolve("killed.json");
        Files.writeString(file, points(3) + "{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"da");

        var run = rigscope("import", "k6", file.toString(), "--series", "k6-killed", "--bootstrap", kafka.bootstrap());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("import k6: " + file + " -> series k6-killed rep 1: 4 lines, 3 samples");
        assertThat(run.err()).contains("import k6: warning: skipped 1 unreadable line(s) of 4: line 4: is not JSON")
                .contains("import k6: warning: the file ends cut short")
                .contains("REPEAT_END data cut_short=true")
                .contains("--strict refuses such a file");
    }

    @Test
    void strictRefusesAFileWithAnUnreadableLineAndExitsTwo() throws Exception {
        Path file = dir.resolve("bad-middle.json");
        Files.writeString(file, points(2) + "not json\n" + points(2));

        var run = rigscope("import", "k6", file.toString(), "--series", "k6-strict", "--strict",
                "--bootstrap", kafka.bootstrap());

        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("rigscope: k6 output " + file + " line 3 is not JSON", "--strict");
    }

    @Test
    void aFileWithNoReadableLineExitsTwo() throws Exception {
        Path file = dir.resolve("garbage.json");
        Files.writeString(file, "not json\n{\"type\":\n");

        var run = rigscope("import", "k6", file.toString(), "--series", "k6-garbage", "--bootstrap", kafka.bootstrap());

        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("rigscope: k6 output " + file + " has no readable line (2 unreadable, line 1: ");
    }

    @Test
    void optionsThresholdsAreJudgedAndK6sSummaryVerdictIsPrintedBesideEach() throws Exception {
        Path file = dir.resolve("with-options.json");
        Files.writeString(file, points(10));
        Path options = dir.resolve("options.json");
        Files.writeString(options, "{\"thresholds\":{\"http_req_duration{scenario:default}\":[\"p(95)<5\","
                + "{\"threshold\":\"max<1\",\"abortOnFail\":true,\"delayAbortEval\":\"10s\"}]}}");
        Path summary = dir.resolve("summary.json");
        Files.writeString(summary, "{\"metrics\":{\"http_req_duration{scenario:default}\":{\"thresholds\":"
                + "{\"p(95)<5\":false,\"max<1\":false}}}}");

        var run = rigscope("import", "k6", file.toString(), "--series", "k6-options", "--options", options.toString(),
                "--summary", summary.toString(), "--bootstrap", kafka.bootstrap());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("import k6: threshold http_req_duration{scenario:default}: p(95)<5: pass (2 over 10 points); "
                        + "k6: pass")
                .contains("import k6: threshold http_req_duration{scenario:default}: max<1: FAIL (2 over 10 points); "
                        + "k6: pass  DISAGREE; abortOnFail after 10s: k6 aborts a run when this fails while it runs "
                        + "(the file does not say whether this one was)");
    }

    @Test
    void anOptionsFileWithoutThresholdsExitsTwoNamingIt() throws Exception {
        Path file = dir.resolve("plain.json");
        Files.writeString(file, points(2));
        Path options = dir.resolve("no-thresholds.json");
        Files.writeString(options, "{\"vus\": 10}");

        var run = rigscope("import", "k6", file.toString(), "--series", "k6-bad-options", "--options",
                options.toString(), "--bootstrap", kafka.bootstrap());

        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--options " + options + " has no \"thresholds\" object");
    }

    /** {@code n} http_req_duration points of 2 ms, one every 100 ms. */
    private static String points(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append("{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"data\":{\"time\":\"")
                    .append(Instant.ofEpochSecond(START_SEC, i * 100_000_000L))
                    .append("\",\"value\":2,\"tags\":{\"scenario\":\"default\",\"status\":\"201\"}}}\n");
        }
        return b.toString();
    }
}
