package io.rigscope.rig.cli;

import io.rigscope.rig.options.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Where a series command writes its report and its wire file, and where it pushes its decisions
 * ({@link ExportOptions}): shared by {@code run} and {@code demo}.
 */
final class SeriesOutputOptions {

    @Mixin
    ExportOptions export = new ExportOptions();

    @Option(names = "--report-json", paramLabel = "FILE", description = "Write the series report as JSON.")
    Path reportJson;

    @Option(names = "--report-md", paramLabel = "FILE", description = "Write the series report as Markdown.")
    Path reportMd;

    @Option(names = "--report-html", paramLabel = "FILE",
            description = "Write the series report as one self-contained HTML page (charts, gates, episodes; opens offline).")
    Path reportHtml;

    @Option(names = "--hlog", paramLabel = "DIR",
            description = "Write one HdrHistogram interval log per scenario here (SERIES.SCENARIO.hlog, 1-s intervals, "
                + "service time in µs: the analyzer's histograms).")
    Path hlog;

    /**
     * Exit 2 before anything starts when {@code --hlog} names something that is not a directory.
     *
     * @param dir the {@code --hlog} value, or null
     */
    static void checkHlog(Path dir) {
        if (dir != null && Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UsageException("--hlog " + dir + " is a file: it names the directory the interval logs go to");
        }
    }

    @Option(names = "--out", paramLabel = "FILE.jsonl", description = "Also write every published record here.")
    Path out;
}
