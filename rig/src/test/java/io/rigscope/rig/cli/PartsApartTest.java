package io.rigscope.rig.cli;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.sut.RunningSut;
import io.rigscope.sut.SutContract;
import io.rigscope.sut.testing.SutOnPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parts of a series run as separate commands, as on several hosts: {@code generate --rep 1 --last} publishes the
 * repeat, its database count and the series' end; an {@code analyze} following the series live then finishes by
 * itself, printing the lines {@code run} prints, and judges the repeat with that count.
 */
@Tag("it")
class PartsApartTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();
    @RegisterExtension
    static final SutOnPostgres db = new SutOnPostgres();

    @TempDir
    Path dir;

    @Test
    void aLastRepeatWithItsReconciliationSqlIsJudgedReconciledByALiveAnalyzeThatEndsByItself() throws Exception {
        try (RunningSut sut = db.start()) {
            String series = "apart-" + UUID.randomUUID();
            RigscopeRun generated = rigscope("generate", "--series", series, "--rep", "1", "--last", "--url",
                    sut.baseUri().resolve("/v1/usage-events").toString(), "--api-key", "rigscope-demo-key",
                    "--rate", "50", "--duration", "3s", "--bootstrap", kafka.bootstrap(),
                    "--pg", db.owner().libpq(), "--reconciliation-sql", SutContract.RECONCILIATION_SQL);

            assertThat(generated.exit()).as(generated.err()).isEqualTo(ExitCodes.OK);
            assertThat(generated.err()).contains("reconciliation: repeat 1, the database gained 1500 rows")
                    .contains("generate: published SERIES_END of " + series + " (repeats 1)");

            Path report = dir.resolve("report.json");
            long started = System.nanoTime();
            RigscopeRun analyzed = rigscope("analyze", "--series", series, "--bootstrap", kafka.bootstrap(),
                    "--timeout", "2m", "--set", "min_samples=100", "--set", "drift_bound=1000",
                    "--report-json", report.toString());
            long tookSec = (System.nanoTime() - started) / 1_000_000_000L;

            assertThat(tookSec).as("ended by SERIES_END, not by --timeout 2m").isLessThan(60);
            assertThat(analyzed.exit()).as(analyzed.out() + analyzed.err()).isEqualTo(ExitCodes.OK);
            assertThat(Pattern.compile("(?m)^\\d\\d:\\d\\d:\\d\\d ingest +offered +\\d+ +sent").matcher(analyzed.out())
                    .results().count()).as(analyzed.out()).isGreaterThanOrEqualTo(3);
            assertThat(analyzed.out()).contains("   analyzer: repeat 1 PASS: 150 samples")
                    .contains(series + ": PASS - 1/1 passed");
            JsonNode r = new ObjectMapper().readTree(report.toFile());
            assertThat(r.path("reconciliation").asText()).isEqualTo("reconciled");
            assertThat(r.path("repeats").get(0).path("gates").path("reconciliation_rows").path("value").asLong())
                    .isEqualTo(1500);
        }
    }

    @Test
    void aRepeatCountedAfterwardsReconcilesByTheRescanManifestBesideItsWireFile() throws Exception {
        try (RunningSut sut = db.start()) {
            String series = "counted-later-" + UUID.randomUUID();
            Path evidence = Files.createDirectories(dir.resolve("evidence"));
            long[] before = stored();
            RigscopeRun generated = rigscope("generate", "--series", series, "--rep", "1", "--url",
                    sut.baseUri().resolve("/v1/usage-events").toString(), "--api-key", "rigscope-demo-key",
                    "--rate", "50", "--duration", "2s", "--bootstrap", kafka.bootstrap(),
                    "--out", evidence.resolve("wire.jsonl").toString());
            assertThat(generated.exit()).as(generated.err()).isEqualTo(ExitCodes.OK);
            long[] after = stored();
            long gained = after[0] - before[0];
            Files.writeString(evidence.resolve("manifest.json"), "{\"repeats\": [{\"rep\": 1, \"start\": "
                    + "\"2026-01-01T00:00:00Z\", \"end\": \"2026-01-01T00:00:02Z\", \"database_gained\": "
                    + "{\"rows_written\": " + gained + ", \"qty_sum_gained\": " + (after[1] - before[1]) + "}}]}");

            Path report = dir.resolve("rescan.json");
            RigscopeRun rescanned = rigscope("rescan", evidence.toString(), "--series", series + "-rescan",
                    "--bootstrap", kafka.bootstrap(), "--report-json", report.toString(), "--quiet");

            assertThat(rescanned.exit()).as(rescanned.out() + rescanned.err()).isIn(ExitCodes.OK,
                    ExitCodes.GATES_FAILED);
            assertThat(rescanned.out() + rescanned.err()).contains("repeat 1: database_gained from the manifest ("
                    + gained + " rows");
            assertThat(gained).isEqualTo(1000);
            assertThat(new ObjectMapper().readTree(report.toFile()).path("reconciliation").asText())
                    .isEqualTo("reconciled");
        }
    }

    /** The events table's rows and Σ quantity now. */
    private static long[] stored() {
        String[] row = db.psql("SELECT count(*) || '|' || coalesce(sum(quantity), 0) FROM "
                + SutContract.EVENTS_TABLE).strip().split("\\|");
        return new long[] {Long.parseLong(row[0]), Long.parseLong(row[1])};
    }

    @Test
    void aTargetThatRefusesEveryConnectionIsOneLineThenTheAnalyzersSentence() {
        String series = "refused-" + UUID.randomUUID();
        String url = "http://127.0.0.1:1/v1/usage-events";
        RigscopeRun generated = rigscope("generate", "--series", series, "--rep", "1", "--last", "--url", url,
                "--rate", "20", "--duration", "2s", "--bootstrap", kafka.bootstrap());

        assertThat(generated.exit()).as(generated.err()).isEqualTo(ExitCodes.OK);
        assertThat(generated.err()).doesNotContain("\tat io.netty");
        assertThat(Pattern.compile("(?m)^ingest: connection refused by " + Pattern.quote(url)
                + " \\(\\d+ requests? so far\\)$").matcher(generated.err()).results().count())
                .as(generated.err()).isEqualTo(1);

        RigscopeRun analyzed = rigscope("analyze", "--series", series, "--bootstrap", kafka.bootstrap(),
                "--timeout", "2m", "--quiet");

        assertThat(analyzed.exit()).isEqualTo(ExitCodes.GATES_FAILED);
        assertThat(analyzed.out()).contains("target unreachable: every request was refused (URL " + url + ")")
                .contains("failed: failed (40 vs 0): target unreachable");
    }
}
