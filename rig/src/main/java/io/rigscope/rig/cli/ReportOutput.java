package io.rigscope.rig.cli;

import io.rigscope.analyzer.api.Decision;
import io.rigscope.analyzer.report.HtmlReport;
import io.rigscope.analyzer.report.ReportFiles;
import io.rigscope.analyzer.series.SeriesReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A series report written to the files a command was given ({@code --report-json/-md/-html}), each only if named. */
final class ReportOutput {

    private ReportOutput() {
    }

    /**
     * @param kept the decisions the HTML page draws ({@link HtmlReport#keeps})
     * @param json the JSON file, or null
     * @param md the Markdown file, or null
     * @param html the HTML file, or null
     */
    static void write(SeriesReport report, List<Decision> kept, Path json, Path md, Path html) {
        write(json, ReportFiles.json(report));
        write(md, ReportFiles.markdown(report).getBytes(StandardCharsets.UTF_8));
        if (html != null) {
            write(html, HtmlReport.render(report, kept).getBytes(StandardCharsets.UTF_8));
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
