package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.analyzer.synthetic.SyntheticSeries;
import io.rigscope.analyzer.synthetic.SyntheticSeries.Plan;
import io.rigscope.analyzer.synthetic.SyntheticSeries.RepeatPlan;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.Main;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.wire.WireFileWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rigscope analyze --input FILE}: exit codes and reports, from wire files (no broker needed). */
@Tag("it")
class AnalyzeCommandTest {

    @TempDir
    Path dir;

    @Test
    void aSeriesWhoseGatesAllPassExitsZeroAndWritesBothReports() throws Exception {
        Path wire = wireFile(Plan.of("cli-pass", 2, 10, 200)
                .withConfig(Map.of("thresholds", Map.of("http_req_duration", List.of("p(99)<500")))));
        Path json = dir.resolve("out/report.json");
        Path md = dir.resolve("out/report.md");

        int code = Main.run("analyze", "--series", "cli-pass", "--input", wire.toString(), "--quiet",
                "--report-json", json.toString(), "--report-md", md.toString());

        assertThat(code).isEqualTo(ExitCodes.OK);
        assertThat(Files.readString(json)).contains("\"verdict\" : \"PASS\"").contains("\"passed\" : 2");
        assertThat(Files.readString(md)).startsWith("# Series cli-pass: PASS").contains("| 2 | sustained | PASS |");
    }

    @Test
    void aSeriesWithADroppedRequestExitsNinetyNine() throws Exception {
        Path wire = wireFile(Plan.of("cli-drop", 1, 10, 200).withRepeat(RepeatPlan.clean(1).withDrops(1)));

        assertThat(Main.run("analyze", "--series", "cli-drop", "--input", wire.toString(), "--quiet"))
                .isEqualTo(ExitCodes.GATES_FAILED);
    }

    @Test
    void aThresholdFlagOverridesTheConfigAndCanFailTheSeries() throws Exception {
        Path wire = wireFile(Plan.of("cli-threshold", 1, 10, 200));

        assertThat(Main.run("analyze", "--series", "cli-threshold", "--input", wire.toString(), "--quiet",
                "--threshold", "http_req_duration: p(99)<1")).isEqualTo(ExitCodes.GATES_FAILED);
    }

    @Test
    void aBadThresholdFlagIsAUsageErrorNamingTheProblem() throws Exception {
        Path wire = wireFile(Plan.of("cli-bad", 1, 10, 200));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        int code;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            var cl = io.rigscope.rig.cli.RigscopeCommand.commandLine();
            cl.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
            code = cl.execute("analyze", "--series", "cli-bad", "--input", wire.toString(), "--quiet",
                    "--threshold", "http_req_duration: p(99)<<500");
        } finally {
            System.setErr(saved);
        }
        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(
                "--threshold: threshold 'p(99)<<500' on http_req_duration: expected a number after '<' at column 7");
    }

    @Test
    void withoutSeriesAnalyzeFollowsEverySeriesLiveSoAWireFileOrAReportFileIsAUsageError() throws Exception {
        Path wire = wireFile(Plan.of("cli-every", 1, 10, 200));
        assertThat(Main.run("analyze", "--input", wire.toString(), "--quiet")).isEqualTo(ExitCodes.USAGE);
        assertThat(Main.run("analyze", "--replay", "--bootstrap", "127.0.0.1:1")).isEqualTo(ExitCodes.USAGE);
        assertThat(Main.run("analyze", "--series", "cli-every", "--input", wire.toString(), "--quiet",
                "--report-dir", dir.toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(Main.run("analyze", "--group", " ", "--bootstrap", "127.0.0.1:1")).isEqualTo(ExitCodes.USAGE);
        assertThat(Main.run("analyze", "--parallel", "0", "--bootstrap", "127.0.0.1:1")).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void anUnknownSettingIsAUsageError() throws Exception {
        Path wire = wireFile(Plan.of("cli-set", 1, 10, 200));

        assertThat(Main.run("analyze", "--series", "cli-set", "--input", wire.toString(), "--quiet",
                "--set", "drift_bond=2")).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void hlogWritesOneIntervalLogPerScenarioHoldingEveryRequestTheReportCounts() throws Exception {
        Path wire = wireFile(Plan.of("cli-hlog", 2, 10, 200));
        Path json = dir.resolve("report.json");
        Path logs = dir.resolve("hlog");

        assertThat(Main.run("analyze", "--series", "cli-hlog", "--input", wire.toString(), "--quiet",
                "--report-json", json.toString(), "--hlog", logs.toString())).isEqualTo(ExitCodes.OK);

        long reported = 0;
        for (var r : new ObjectMapper().readTree(json.toFile()).get("repeats")) {
            reported += r.get("samples").asLong();
        }
        long logged = 0;
        long intervals = 0;
        try (HistogramLogReader reader = new HistogramLogReader(logs.resolve("cli-hlog.ingest.hlog").toFile())) {
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                logged += ((Histogram) h).getTotalCount();
                intervals++;
            }
        }
        assertThat(reported).isPositive();
        assertThat(logged).isEqualTo(reported);
        assertThat(intervals).isGreaterThanOrEqualTo(2 * 10);
    }

    @Test
    void hlogNamingAFileIsAUsageError() throws Exception {
        Path wire = wireFile(Plan.of("cli-hlog-file", 1, 10, 200));
        Path file = Files.writeString(dir.resolve("not-a-dir"), "x");

        assertThat(Main.run("analyze", "--series", "cli-hlog-file", "--input", wire.toString(), "--quiet",
                "--hlog", file.toString())).isEqualTo(ExitCodes.USAGE);
    }

    private Path wireFile(Plan plan) {
        Path file = dir.resolve(plan.series() + ".jsonl");
        WireCodec codec = new WireCodec();
        try (WireFileWriter writer = new WireFileWriter(file, codec)) {
            SyntheticSeries.emit(plan, writer::write);
        }
        return file;
    }
}
