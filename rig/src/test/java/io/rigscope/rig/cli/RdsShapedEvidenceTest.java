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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attribution where users run: evidence directories shaped like an RDS rig's ({@link RdsEvidence}: k6, the app node's
 * vmstat, 1-s Enhanced Monitoring, Performance Insights, the RDS-prefixed Postgres log, 60-s CloudWatch; no canary, no
 * generator health), one cause planted every 40 s, rescanned through a real embedded broker, with streams removed.
 * Each planted episode is scored against the answers its streams allow ({@link RdsEvidence.Plant#allowed}); the
 * figure is printed ({@code held-out RDS-shaped evidence: ...}) and quoted in docs/attribution.md.
 */
@Tag("it")
class RdsShapedEvidenceTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final List<RdsEvidence.Streams> VARIANTS = List.of(
            new RdsEvidence.Streams(true, true, false, true),     // an RDS rig as it is usually left
            new RdsEvidence.Streams(true, true, true, true),      // and rigscope's DB sampler pointed at it
            new RdsEvidence.Streams(false, true, false, true),    // Enhanced Monitoring off
            new RdsEvidence.Streams(true, false, false, true),    // Performance Insights off
            new RdsEvidence.Streams(false, false, false, true),   // both off: k6, vmstat, the log, CloudWatch
            new RdsEvidence.Streams(true, true, false, false));   // the manifest does not say where k6 ran

    @TempDir
    Path dir;

    @Test
    void plantedCausesAreNamedAtTheirAllowedConfidenceAndNeverConfidentlyWrong() throws Exception {
        int planted = 0;
        int right = 0;
        int confidentWrong = 0;
        int attributed = 0;
        List<String> table = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        for (RdsEvidence.Streams streams : VARIANTS) {
            Path evidence = dir.resolve(streams.name());
            RdsEvidence.write(evidence, streams);
            JsonNode report = rescan(evidence, "rds-" + streams.name());
            assertThat(report.path("episodes")).as(streams.name() + ": one episode per planted cause, no other")
                    .hasSize(RdsEvidence.Plant.values().length);
            for (RdsEvidence.Plant plant : RdsEvidence.Plant.values()) {
                planted++;
                JsonNode e = episodeAt(report, plant.startSec());
                String answer = e == null ? "no episode" : e.path("cause").asText() + " " + e.path("confidence").asText();
                boolean ok = plant.allowed(streams).contains(answer);
                right += ok ? 1 : 0;
                if (answer.endsWith(" attributed")) {
                    attributed++;
                    if (!answer.startsWith(plant.cause.code() + " ")) {
                        confidentWrong++;
                    }
                }
                String line = String.format(Locale.ROOT, "%-24s %-16s -> %-30s %s", streams.name(), plant.cause.code(),
                        answer, ok ? "ok" : "WRONG, allowed " + plant.allowed(streams));
                table.add(line);
                if (!ok) {
                    wrong.add(line + "\n    evidence: " + (e == null ? "" : e.path("evidence")));
                }
            }
        }
        double rightShare = 100.0 * right / planted;
        System.out.println(String.join("\n", table));
        System.out.printf(Locale.ROOT, "held-out RDS-shaped evidence: %d planted episodes in %d directories, %d right at "
                + "an allowed confidence (%.1f %%), %d attributed, %d confident wrong%n", planted, VARIANTS.size(), right,
                rightShare, attributed, confidentWrong);
        assertThat(confidentWrong).as(String.join("\n", wrong)).isZero();
        assertThat(rightShare).as(String.join("\n", wrong)).isGreaterThanOrEqualTo(95.0);
    }

    @Test
    void theAppNodesVmstatIsNamedByItsHostAndUsedOnlyWhenTheManifestSaysK6RanThere() throws Exception {
        Path evidence = dir.resolve("no-pi");
        RdsEvidence.write(evidence, new RdsEvidence.Streams(true, false, false, true));
        JsonNode report = rescan(evidence, "rds-vmstat");

        JsonNode generator = episodeAt(report, RdsEvidence.Plant.GENERATOR.startSec());
        assertThat(generator.path("cause").asText()).isEqualTo("generator");
        assertThat(generator.path("confidence").asText()).isEqualTo("most_likely");
        assertThat(generator.path("evidence").toString()).contains("the generator host vmstat@app had CPU idle 0 %");
        // without Performance Insights the app node's vmstat is what vouches for the instrument
        JsonNode storage = episodeAt(report, RdsEvidence.Plant.STORAGE.startSec());
        assertThat(storage.path("evidence").toString())
                .contains("instrument control by the generator host's vmstat (vmstat@app)");
    }

    private static JsonNode episodeAt(JsonNode report, long sec) {
        for (JsonNode e : report.path("episodes")) {
            if (e.path("start").asLong() <= sec && sec < e.path("end").asLong()) {
                return e;
            }
        }
        return null;
    }

    private JsonNode rescan(Path evidence, String series) throws Exception {
        Path report = dir.resolve(series + ".json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            var cl = RigscopeCommand.commandLine();
            cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
            code = cl.execute("rescan", evidence.toString(), "--bootstrap", kafka.bootstrap(), "--series", series,
                    "--report-json", report.toString(), "--quiet");
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        assertThat(code).as(out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8))
                .isIn(ExitCodes.OK, ExitCodes.GATES_FAILED);
        return JSON.readTree(Files.readString(report));
    }
}
