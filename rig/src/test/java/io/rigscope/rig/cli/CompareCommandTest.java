package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.rig.options.ExitCodes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rigscope compare} on real files: the analyzer's recorded demo reports and provoked wire files
 * (analyzer/src/test/resources), and what is not a series.
 */
class CompareCommandTest {

    private static final Path RECORDED = Path.of("..", "analyzer", "src", "test", "resources", "recorded");
    private static final Path PROVOKED = Path.of("..", "analyzer", "src", "test", "resources", "provoked");

    @TempDir
    Path dir;

    private String out;
    private String err;

    @Test
    void twoReportFilesAreComparedSideBySideAndTooFewRepeatsGiveNoVerdict() {
        int code = run("compare", RECORDED.resolve("demo-quick.report.json").toString(),
                RECORDED.resolve("hot-row.report.json").toString());
        assertThat(code).isEqualTo(ExitCodes.OK);
        assertThat(out).contains("A rep 3", "B rep 3", "freeze-seconds by cause: A none; B none",
                "exact permutation test (two-sided, difference of means), 3 arrangements",
                "verdict: none (no verdict: 2 judged repeat(s) in A, 1 in B; at least 3 a side");
    }

    @Test
    void twoWireFilesOfDifferentRigsAreNotComparableAndTheJsonSaysWhatDiffers() throws Exception {
        int code = run("compare", "--json", PROVOKED.resolve("clean.jsonl.gz").toString(),
                PROVOKED.resolve("wal-pool.jsonl.gz").toString());
        assertThat(code).isEqualTo(ExitCodes.OK);
        JsonNode json = new ObjectMapper().readTree(out);
        assertThat(json.get("verdict").asText()).isEqualTo("not_comparable");
        assertThat(json.get("differs").toString()).contains("pg_settings.wal_segment_size: 16MB -> 256MB");
        assertThat(json.at("/b/freeze_seconds_by_cause/wal_pool").asInt()).isEqualTo(8);
        assertThat(json.at("/b/levers").toString()).contains("wal_pool: min_wal_size=15GB");
    }

    @Test
    void crossRigSaysSoOnEveryLine() {
        int code = run("compare", "--cross-rig", PROVOKED.resolve("clean.jsonl.gz").toString(),
                PROVOKED.resolve("wal-pool.jsonl.gz").toString());
        assertThat(code).isEqualTo(ExitCodes.OK);
        assertThat(out.lines()).isNotEmpty().allSatisfy(l -> assertThat(l).startsWith("[cross-rig] "));
    }

    @Test
    void badInputExitsTwoNamingTheInputAndWhatIsWrong() throws Exception {
        Path text = Files.writeString(dir.resolve("notes.txt"), "# not a series\n");
        Path object = Files.writeString(dir.resolve("other.json"), "{\"series\":\"x\"}\n");
        String hot = RECORDED.resolve("hot-row.report.json").toString();

        assertThat(run("compare", text.toString(), hot)).isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("compare: A " + text + ": neither a report JSON (--report-json) nor a wire file");
        assertThat(run("compare", hot, object.toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("compare: B " + object + ": no 'verdict' field: not a series report");
        assertThat(run("compare", hot, dir.resolve("missing.json").toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("compare: B " + dir.resolve("missing.json") + ": no such file");
    }

    @Test
    void theComparisonPageNeedsSecondsAndHoldsBothSides() throws Exception {
        Path html = dir.resolve("c.html");
        String hot = RECORDED.resolve("hot-row.report.json").toString();
        assertThat(run("compare", "--report-html", html.toString(), hot, hot)).isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("--report-html: A " + hot + " is a report JSON, which holds no seconds");
        assertThat(run("compare", "--report-html", dir.toString(), hot, hot)).isEqualTo(ExitCodes.USAGE);
        assertThat(err).contains("--report-html " + dir + " is a directory");
        assertThat(run("compare", "--report-html", html.toString(), PROVOKED.resolve("clean.jsonl.gz").toString(),
                PROVOKED.resolve("wal-pool.jsonl.gz").toString())).isEqualTo(ExitCodes.OK);
        String page = Files.readString(html);
        assertThat(page).contains("id=\"rigscope-a\"", "id=\"rigscope-b\"", "\"verdict\":\"not_comparable\"",
                "RigscopeComparePage", "\"topic\":\"rig.verdicts\"");
        assertThat(out).contains("verdict: not_comparable");
    }

    private int run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        PrintStream savedOut = System.out;
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            var cl = RigscopeCommand.commandLine();
            cl.setErr(new PrintWriter(e, true, StandardCharsets.UTF_8));
            return cl.execute(args);
        } finally {
            System.setOut(savedOut);
            out = o.toString(StandardCharsets.UTF_8);
            err = e.toString(StandardCharsets.UTF_8);
        }
    }
}
