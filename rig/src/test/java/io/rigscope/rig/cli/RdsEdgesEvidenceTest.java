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
 * Attribution on k6 + RDS evidence whose load is noisy at the episodes' edges and whose causes build up
 * ({@link RdsEdgesEvidence}), rescanned through a real embedded broker, with and without Performance Insights: every
 * planted episode at its allowed answer, a stalled generator never blamed on the server, a lone init wait out of the
 * rhythm's step only most likely.
 */
@Tag("it")
class RdsEdgesEvidenceTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void noisyEdgesAGradualRamWallAndTheWalPoolFromPerformanceInsightsReachTheirAllowedAnswers() throws Exception {
        List<String> table = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        for (boolean pi : new boolean[] {true, false}) {
            Path evidence = dir.resolve(pi ? "pi" : "no-pi");
            RdsEdgesEvidence.write(evidence, pi);
            JsonNode report = rescan(evidence, "rds-edges-" + (pi ? "pi" : "no-pi"));
            assertThat(report.path("episodes")).as("one episode per plant").hasSize(RdsEdgesEvidence.Plant.values().length);
            for (RdsEdgesEvidence.Plant plant : RdsEdgesEvidence.Plant.values()) {
                JsonNode e = episodeAt(report, plant.startSec());
                String answer = e == null ? "no episode" : e.path("cause").asText() + " " + e.path("confidence").asText();
                boolean ok = plant.allowed(pi).contains(answer);
                String line = String.format(Locale.ROOT, "%-6s %-10s -> %-30s %s", pi ? "pi" : "no-pi", plant, answer,
                        ok ? "ok" : "WRONG, allowed " + plant.allowed(pi));
                table.add(line);
                if (!ok) {
                    wrong.add(line + "\n    evidence: " + (e == null ? "" : e.path("evidence")));
                }
            }
        }
        System.out.println(String.join("\n", table));
        assertThat(wrong).as(String.join("\n", wrong)).isEmpty();
    }

    @Test
    void theEvidenceNamesTheBaselineBeforeTheCauseAndTheInitWaitsOfTheRhythm() throws Exception {
        Path evidence = dir.resolve("pi");
        RdsEdgesEvidence.write(evidence, true);
        JsonNode report = rescan(evidence, "rds-edges-evidence");

        String lock = episodeAt(report, RdsEdgesEvidence.Plant.LOCK.startSec()).path("evidence").toString();
        assertThat(lock).contains("instrument control by server-side load (rig.waits): 4 of the 4 second(s)")
                .contains("the lowest 3.99");
        String ram = episodeAt(report, RdsEdgesEvidence.Plant.RAM_WALL.startSec()).path("evidence").toString();
        assertThat(ram).contains("the lowest 3.93").contains("in the quietest 10 s of the 60 s before the episode");
        String wal = episodeAt(report, RdsEdgesEvidence.Plant.WAL.startSec()).path("evidence").toString();
        assertThat(wal).contains("sessions on IO:WALInitWrite/IO:WALInitSync in 4 of the 4 freezes on the repeat's "
                + "5-s rhythm");
        String stall = episodeAt(report, RdsEdgesEvidence.Plant.STALL.startSec()).path("evidence").toString();
        assertThat(stall).contains("control missing: no generator health over the episode; active sessions at 0 or "
                + "under 50.0 % of");
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
