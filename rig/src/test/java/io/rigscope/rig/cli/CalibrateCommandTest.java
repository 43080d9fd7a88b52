package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.rig.options.ExitCodes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rigscope calibrate}'s command-line surface: a bad case is a usage error naming it; {@code --json} prints
 * one object per case with the fields the issue names, and {@code --out-dir} keeps the case's wire file. The
 * {@code clean} case runs for real (private cluster, SUT, collectors, analyzer); whether it comes out clean
 * depends on the machine, so the test checks the shape and that the exit code agrees with {@code calibrated}.
 */
@Tag("it")
class CalibrateCommandTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    @TempDir
    Path dir;

    @Test
    void anUnknownCaseIsAUsageErrorNamingIt() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        var cl = RigscopeCommand.commandLine();
        cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));

        int code = cl.execute("calibrate", "--bootstrap", kafka.bootstrap(), "--case", "clean", "--case", "no-such");

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("--case 'no-such' is not a calibration case; one of: clean, generator-pause, hot-row, "
                        + "wal-pool, vacuum-storm, edge-second");
    }

    @Test
    void anUnknownProfileIsAUsageErrorNamingTheFlag() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        var cl = RigscopeCommand.commandLine();
        cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));

        int code = cl.execute("calibrate", "--bootstrap", kafka.bootstrap(), "--profile", "aurora", "--case", "clean");

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("--profile 'aurora' is not a calibration profile; one of: local, rds");
    }

    @Test
    void jsonPrintsOneEntryPerCaseAndTheExitCodeFollowsCalibrated() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            code = RigscopeCommand.commandLine().execute("calibrate", "--bootstrap", kafka.bootstrap(), "--json",
                    "--case", "clean", "--out-dir", dir.toString());
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }

        JsonNode doc = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(doc.get("profile").asText()).isEqualTo("local");
        assertThat(doc.get("calibrated").isBoolean()).isTrue();
        assertThat(code).isEqualTo(doc.get("calibrated").asBoolean() ? ExitCodes.OK : ExitCodes.ERROR);
        assertThat(doc.get("cases")).hasSize(1);
        JsonNode clean = doc.get("cases").get(0);
        assertThat(clean.get("case").asText()).isEqualTo("clean");
        assertThat(clean.get("expected").asText()).isEqualTo("none");
        assertThat(clean.get("found").asText()).isNotEqualTo("error");
        assertThat(clean.has("confidence")).isTrue();
        assertThat(clean.has("evidence")).isTrue();
        assertThat(clean.get("telemetry").asText()).contains("waits").contains("canary");
        assertThat(Files.size(dir.resolve("clean.jsonl.gz"))).isPositive();
    }
}
