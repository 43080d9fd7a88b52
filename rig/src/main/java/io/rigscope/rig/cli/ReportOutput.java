package io.rigscope.rig.cli;

import io.rigscope.analyzer.report.ReportFiles;
import io.rigscope.analyzer.report.ReportMaterial;
import io.rigscope.analyzer.decision.SeriesReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A series report written to the files a command was given ({@code --report-json/-md/-html}, {@code --hlog}), each
 * only if named.
 */
final class ReportOutput {

    private ReportOutput() {
    }

    /**
     * @param kept what the analysis kept for the HTML page and the interval logs
     * @param json the JSON file, or null
     * @param md the Markdown file, or null
     * @param html the HTML file, or null
     * @param hlogDir the directory of the interval logs, or null
     * @return the interval logs written (empty without {@code hlogDir})
     */
    static List<Path> write(SeriesReport report, ReportMaterial kept, Path json, Path md, Path html, Path hlogDir) {
        write(json, ReportFiles.json(report));
        write(md, ReportFiles.markdown(report).getBytes(StandardCharsets.UTF_8));
        if (html != null) {
            write(html, kept.html(report).getBytes(StandardCharsets.UTF_8));
        }
        if (hlogDir == null) {
            return List.of();
        }
        try {
            return kept.writeIntervalLogs(hlogDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the interval logs in " + hlogDir + ": " + e.getMessage(), e);
        }
    }

    private static void write(Path file, byte[] bytes) {
        if (file == null) {
            return;
        }
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
