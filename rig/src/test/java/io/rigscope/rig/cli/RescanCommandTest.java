package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.importers.testing.EvidenceDirectory;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rigscope rescan}: an evidence directory written in the tools' documented formats ({@link EvidenceDirectory})
 * with planted episodes, published to a real embedded broker and judged by the analyzer.
 */
@Tag("it")
class RescanCommandTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void plantedEpisodesAreRescannedToTheirCauses() throws Exception {
        Path evidence = dir.resolve("evidence");
        EvidenceDirectory.write(evidence, true);

        JsonNode report = rescan(evidence, "rescan-all");

        assertThat(report.path("verdict").asText()).isEqualTo("PASS");
        assertThat(report.path("reconciliation").asText()).isEqualTo("reconciled");
        assertThat(report.path("environment").path("instance").asText()).isEqualTo("db.r6g.large");
        assertThat(report.path("repeats").get(0).path("samples").asLong()).isEqualTo(2400);
        assertThat(causes(report)).containsExactly(
                EvidenceDirectory.LOCK_START + " lock_contention attributed",
                EvidenceDirectory.GENERATOR_START + " generator attributed",
                EvidenceDirectory.VACUUM_START + " vacuum_storm attributed");
        JsonNode vacuum = episode(report, EvidenceDirectory.VACUUM_START);
        assertThat(vacuum.path("evidence").toString()).contains("134000 full-page images")
                .contains("LWLock:WALWrite").contains("average request");
        // an older rig's evidence has no sampler readings and never watched the service's process (rig.process)
        assertThat(strings(vacuum.path("missing"))).containsExactly("rig.db", "rig.process");
    }

    @Test
    void nativeFilesAloneAttributeWhatServerSideLoadAndTheDeviceViewVouchFor() throws Exception {
        Path evidence = dir.resolve("native");
        EvidenceDirectory.write(evidence, false);   // no wire file: no generator health, no disk canary

        JsonNode report = rescan(evidence, "rescan-native");

        // Performance Insights shows the sessions piling up above their level before each episode (the load kept
        // arriving: the instrument control), and the 1-s Enhanced Monitoring documents show rdsdev completing writes
        // in every second that sessions waited on WAL (the disk control); the generator's pause is not in the
        // native files, so its episode stays unattributed
        assertThat(causes(report)).containsExactly(
                EvidenceDirectory.LOCK_START + " lock_contention attributed",
                EvidenceDirectory.GENERATOR_START + " unattributed unattributed",
                EvidenceDirectory.VACUUM_START + " vacuum_storm attributed");
        JsonNode vacuum = episode(report, EvidenceDirectory.VACUUM_START);
        assertThat(strings(vacuum.path("missing"))).contains("rig.health", "rig.canary");
        assertThat(vacuum.path("evidence").toString())
                .contains("instrument control by server-side load (rig.waits)")
                .contains("disk control by the device view (rig.os)");
    }

    @Test
    void nativeFilesWithoutPerformanceInsightsCapEveryServerCauseAtMostLikely() throws Exception {
        Path evidence = dir.resolve("native-no-pi");
        EvidenceDirectory.write(evidence, false);
        Files.delete(evidence.resolve("pi-db-load.json"));

        JsonNode report = rescan(evidence, "rescan-native-no-pi");

        // no sessions to show the load arriving (nor the locks), and app-vmstat.log is not named as the generator's
        // host; the vacuum's logged burst alone still names it, most likely
        assertThat(causes(report)).containsExactly(
                EvidenceDirectory.LOCK_START + " unattributed unattributed",
                EvidenceDirectory.GENERATOR_START + " unattributed unattributed",
                EvidenceDirectory.VACUUM_START + " vacuum_storm most_likely");
        assertThat(strings(episode(report, EvidenceDirectory.VACUUM_START).path("missing")))
                .contains("rig.health", "rig.waits", "rig.canary");
    }

    @Test
    void withoutEnhancedMonitoringTheVacuumEpisodeDegradesToMostLikely() throws Exception {
        // rig.os (the disk's view) is defining evidence of a vacuum storm (docs/attribution.md): with the Enhanced
        // Monitoring file the planted directory's vacuum episode is attributed, without it most likely
        JsonNode report = rescanWithout("rds-os-metrics.jsonl", "no-em");

        JsonNode vacuum = episode(report, EvidenceDirectory.VACUUM_START);
        assertThat(vacuum.path("cause").asText()).isEqualTo("vacuum_storm");
        assertThat(vacuum.path("confidence").asText()).isEqualTo("most_likely");
        assertThat(strings(vacuum.path("missing"))).contains("rig.os");
    }

    @Test
    void withoutThePostgresLogTheVacuumEpisodeDegradesToMostLikely() throws Exception {
        JsonNode report = rescanWithout("postgresql.log.2024-03-05-10", "no-log");

        JsonNode vacuum = episode(report, EvidenceDirectory.VACUUM_START);
        assertThat(vacuum.path("cause").asText()).isEqualTo("vacuum_storm");
        assertThat(vacuum.path("confidence").asText()).isEqualTo("most_likely");
        assertThat(strings(vacuum.path("missing"))).contains("rig.pglog");
    }

    @Test
    void withoutAManifestEachK6FileIsOneRepeatAndTheSeriesIsUnreconciled() throws Exception {
        JsonNode report = rescanWithout("manifest.json", "no-manifest");

        assertThat(report.path("verdict").asText()).isEqualTo("UNRECONCILED");
        assertThat(report.path("repeats")).hasSize(1);
        assertThat(report.path("repeats").get(0).path("samples").asLong()).isEqualTo(2400);
    }

    @Test
    void badLinesAreCountedPerFileAndNeverFatal() throws Exception {
        Path evidence = dir.resolve("bad-lines");
        EvidenceDirectory.write(evidence, false);

        Run run = run("rescan", evidence.toString(), "--bootstrap", kafka.bootstrap(), "--series", "rescan-bad",
                "--quiet");

        assertThat(run.code).isEqualTo(ExitCodes.OK);
        assertThat(run.out).contains("run-2024-03-05.json.gz: k6 json, 4,804 lines, 4,800 records, 2 bad (line 443: not JSON; line 4804: not JSON)")
                .contains("postgresql.log.2024-03-05-10: postgres log, 13 lines, 3 records, 1 bad (line 4: no log_line_prefix")
                .contains("app-vmstat.log: vmstat, 122 lines, 120 records, 0 bad")
                .contains("rds-os-metrics.jsonl: enhanced monitoring, 120 lines, 120 records, 0 bad")
                .contains("pi-db-load.json: performance insights, 2 lines, 120 records, 0 bad")
                .contains("cw-get-metric-data.json: cloudwatch, 1 lines, 4 records, 0 bad");
    }

    @Test
    void aDirectoryWithNothingReadableExitsTwoNamingWhatItFound() throws Exception {
        Path evidence = dir.resolve("nothing");
        Files.createDirectories(evidence);
        Files.writeString(evidence.resolve("notes.txt"), "we ran it on tuesday\n");
        Files.writeString(evidence.resolve("numbers.json"), "{\"a\": 1}\n");

        Run run = run("rescan", evidence.toString(), "--bootstrap", kafka.bootstrap(), "--series", "rescan-nothing",
                "--quiet");

        assertThat(run.code).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err).contains("holds nothing rescan can read")
                .contains("notes.txt: not recognised").contains("text of no known format: we ran it on tuesday")
                .contains("numbers.json: not recognised").contains("JSON of no known shape");
    }

    @Test
    void aBadFlagExitsTwoNamingIt() throws Exception {
        Run run = run("rescan", dir.toString(), "--bootstrap", kafka.bootstrap(), "--no-such-flag");

        assertThat(run.code).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err).contains("--no-such-flag");
    }

    /** Rescans the full evidence directory (wire file included) less {@code file}, as series rescan-NAME. */
    private JsonNode rescanWithout(String file, String name) throws Exception {
        Path evidence = dir.resolve(name);
        EvidenceDirectory.write(evidence, true);
        Files.delete(evidence.resolve(file));
        return rescan(evidence, "rescan-" + name);
    }

    private JsonNode rescan(Path evidence, String series) throws Exception {
        Path report = dir.resolve(series + ".json");
        Run run = run("rescan", evidence.toString(), "--bootstrap", kafka.bootstrap(), "--series", series,
                "--report-json", report.toString(), "--quiet");
        assertThat(run.code).as(run.out + run.err).isIn(ExitCodes.OK, ExitCodes.GATES_FAILED);
        return JSON.readTree(Files.readString(report));
    }

    private static List<String> causes(JsonNode report) {
        List<String> out = new ArrayList<>();
        report.path("episodes").forEach(e -> out.add(e.path("start").asLong() + " " + e.path("cause").asText() + " "
                + e.path("confidence").asText()));
        return out;
    }

    private static JsonNode episode(JsonNode report, long start) {
        for (JsonNode e : report.path("episodes")) {
            if (e.path("start").asLong() == start) {
                return e;
            }
        }
        throw new AssertionError("no episode starts at " + start + ": " + report.path("episodes"));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
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
            code = cl.execute(args);
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
