package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.rig.Main;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.sut.RunningSut;
import io.rigscope.sut.testing.SutOnPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

@Tag("it")
class RunCommandTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();
    @RegisterExtension
    static final SutOnPostgres db = new SutOnPostgres();

    private record Result(int exit, String out) {
    }

    private static Result run(String... args) {
        var out = new ByteArrayOutputStream();
        PrintStream old = System.out;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            int exit = Main.run(args);
            return new Result(exit, out.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(old);
        }
    }

    @Test
    void aServiceRigscopeDidNotStartWithoutReconciliationSqlIsUnreconciledAndSaidSoNotAnError(@TempDir Path dir)
            throws Exception {
        try (RunningSut other = db.start()) {
            Path config = dir.resolve("series.yaml");
            Files.writeString(config, "target: {url: '" + other.baseUri() + "', api_key: rigscope-demo-key}\n"
                    + "database: " + db.owner().libpq() + "\n"
                    + "sustained: {rate: 20, repeats: 1, duration: 2s, cooldown: 0s}\n"
                    + "load: {probe_rate: 0}\n");
            Path report = dir.resolve("report.json");
            Result r = run("run", "--config", config.toString(), "--allow", "--series", "other-" + UUID.randomUUID(),
                    "--bootstrap", kafka.bootstrap(), "--report-json", report.toString());
            assertThat(r.out()).contains("reconciliation: the series file gives no reconciliation_sql")
                    .doesNotContain("sut: starting the reference SUT")
                    .doesNotContain("database gained");
            assertThat(r.exit()).isIn(ExitCodes.OK, ExitCodes.GATES_FAILED);
            assertThat(Files.readString(report)).contains("UNRECONCILED");
        }
    }

    @Test
    void aSeriesIdThatAlreadyHasRecordsIsRefusedBeforeAnyLoad(@TempDir Path dir) throws Exception {
        try (RunningSut other = db.start()) {
            Path config = dir.resolve("series.yaml");
            Files.writeString(config, "target: {url: '" + other.baseUri() + "', api_key: rigscope-demo-key}\n"
                    + "sustained: {rate: 20, repeats: 1, duration: 1s, cooldown: 0s}\n"
                    + "load: {probe_rate: 0}\n");
            String id = "twice-" + UUID.randomUUID();
            Result first = run("run", "--config", config.toString(), "--allow", "--series", id, "--bootstrap", kafka.bootstrap());
            assertThat(first.exit()).isIn(ExitCodes.OK, ExitCodes.GATES_FAILED);
            Result second = run("run", "--config", config.toString(), "--allow", "--series", id, "--bootstrap", kafka.bootstrap());
            assertThat(second.exit()).isEqualTo(ExitCodes.USAGE);
        }
    }

    /**
     * k6's abortOnFail in rigscope's own run: a threshold that fails 3 s into each 30-s repeat stops it there (the
     * generator's REPEAT_END says why), the series goes on with its next repeat, the report says which threshold
     * stopped which repeat and when, and the recorded series replays to the same bytes.
     */
    @Test
    void aThresholdWithAbortOnFailStopsItsRepeatAndTheReportSaysWhyLiveAndReplayed(@TempDir Path dir)
            throws Exception {
        try (RunningSut sut = db.start()) {
            Path config = dir.resolve("series.yaml");
            Files.writeString(config, "target: {url: '" + sut.baseUri() + "', api_key: rigscope-demo-key}\n"
                    + "database: " + db.owner().libpq() + "\n"
                    + "sustained: {rate: 50, repeats: 2, duration: 30s, cooldown: 0s}\n"
                    + "load: {probe_rate: 0}\n"
                    + "thresholds:\n"
                    + "  http_reqs: [{threshold: 'count<40', abortOnFail: true, delayAbortEval: 3s}]\n"
                    + "  http_req_failed: ['rate<0.5']\n");
            String series = "abort-" + UUID.randomUUID();
            Path report = dir.resolve("report.json");
            Path md = dir.resolve("report.md");
            Path wire = dir.resolve("wire.jsonl");
            Result r = run("run", "--config", config.toString(), "--series", series, "--bootstrap", kafka.bootstrap(),
                    "--report-json", report.toString(), "--report-md", md.toString(), "--out", wire.toString());

            assertThat(r.exit()).as(r.out()).isEqualTo(ExitCodes.GATES_FAILED);
            assertThat(r.out()).contains("! rep 1 aborted ", "! rep 2 aborted ", "`http_reqs: count<40` measured",
                    ": stopping the repeat", "repeat 1 stopped after", "repeat 2 stopped after");
            JsonNode json = new ObjectMapper().readTree(report.toFile());
            assertThat(json.path("repeats")).hasSize(2);
            for (JsonNode rep : json.path("repeats")) {
                JsonNode aborted = rep.path("aborted");
                assertThat(aborted.path("by").asText()).isEqualTo("abortOnFail");
                assertThat(aborted.path("threshold").asText()).isEqualTo("http_reqs: count<40");
                assertThat(aborted.path("value").asDouble()).isGreaterThanOrEqualTo(40);
                assertThat(aborted.path("delay_ms").asLong()).isEqualTo(3_000);
                assertThat(aborted.path("scheduled_ms").asLong()).isEqualTo(30_000);
                assertThat(aborted.path("at_ms").asLong()).isBetween(3_000L, 15_000L);
                assertThat(rep.path("pass").asBoolean()).isFalse();
                assertThat(rep.path("gates").path("http_reqs: count<40").path("pass").asBoolean()).isFalse();
                assertThat(rep.path("gates").path("http_req_failed: rate<0.5").path("pass").asBoolean()).isTrue();
                assertThat(rep.path("samples").asLong()).as("stopped well before 30 s at 50 req/s")
                        .isLessThan(50L * 20);
            }
            assertThat(Files.readString(md)).contains("Repeat 1: aborted ", "Repeat 2: aborted ", "that gate fails.");
            assertThat(Files.readAllLines(wire)).filteredOn(l -> l.contains("\"REPEAT_END\""))
                    .hasSize(2).allMatch(l -> l.contains("\"stopped\":{\"by\":\"abortOnFail\""));

            Path replayed = dir.resolve("replayed.json");
            Result replay = run("analyze", "--series", series, "--input", wire.toString(), "--quiet",
                    "--report-json", replayed.toString());
            assertThat(replay.exit()).isEqualTo(ExitCodes.GATES_FAILED);
            assertThat(Files.readString(replayed)).isEqualTo(Files.readString(report));
            assertThat(replay.out()).contains("    aborted ", "`http_reqs: count<40` measured");
        }
    }

    @Test
    void aBadDatabaseUrlInTheFileExitsTwoNamingTheFileAndKey(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("series.yaml");
        Files.writeString(config, "database: 'postgresql://u:hunter2@h/d?sslmode=sometimes'\nsustained: {rate: 5}\n");
        var err = new ByteArrayOutputStream();
        PrintStream old = System.err;
        int exit;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = Main.run("run", "--config", config.toString(), "--bootstrap", kafka.bootstrap());
        } finally {
            System.setErr(old);
        }
        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(config + ": database").contains("sslmode")
                .doesNotContain("hunter2");
    }
}
