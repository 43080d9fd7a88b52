package io.rigscope.analyzer.report;

import io.rigscope.model.topic.Topic;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;

/**
 * The one HTML view of a series, shared by the self-contained report ({@link #standalone}) and the dashboard
 * ({@link #streamed}). Both pages hold the same script ({@code series-page.js}) and the same uPlot, read from
 * the {@code org.webjars.npm:uplot} jar on the class path and inlined: nothing is fetched from the network.
 * The script reads wire lines ({@code {"topic","key","value"}}, docs/wire-format.md) of {@code rig.verdicts} and
 * of the telemetry topics it plots, and draws the analyzer's decisions; it computes no figure of its own.
 *
 * <p>Pure and thread-safe: the same arguments give the same text (no clock).
 */
public final class SeriesPage {

    /**
     * The telemetry topics the page plots below the analyzer's decisions: host CPU and run queue, disk IOPS,
     * request size and queue depth, WAL bytes and files and vacuum phases, wait events, the disk canary and the
     * generator's own pauses.
     */
    public static final Set<Topic> TELEMETRY_TOPICS = Collections.unmodifiableSet(
            EnumSet.of(Topic.VMSTAT, Topic.OS, Topic.DB, Topic.WAITS, Topic.CANARY, Topic.HEALTH));

    private static final String UPLOT_PROPERTIES = "META-INF/maven/org.webjars.npm/uplot/pom.properties";

    private SeriesPage() {
    }

    /**
     * A page with these wire lines inlined, which opens offline (the HTML report).
     *
     * @param title the page title
     * @param wireLines wire lines as JSON text, one per element, in the order they are shown
     */
    public static String standalone(String title, List<String> wireLines) {
        Objects.requireNonNull(wireLines, "wireLines");
        StringBuilder data = new StringBuilder("[\n");
        for (int i = 0; i < wireLines.size(); i++) {
            data.append(i == 0 ? "" : ",\n").append(wireLines.get(i));
        }
        data.append("\n]");
        String boot = "var page = new RigscopeSeriesPage(document.getElementById('rigscope'), {live: false});\n"
                + "JSON.parse(document.getElementById('rigscope-data').textContent).forEach(function (l) { page.accept(l); });\n"
                + "page.render();\n";
        return shell(title, "<script type=\"application/json\" id=\"rigscope-data\">\n" + scriptSafe(data.toString())
                + "\n</script>\n", boot);
    }

    /**
     * The comparison page ({@code compare A B --report-html}): each side's wire lines, as the single-series report
     * inlines them, and the comparison's JSON, drawn by {@code compare-page.js} on top of this page's script (its
     * parsing and its telemetry panels). Opens offline.
     *
     * @param title the page title
     * @param linesA side A's wire lines
     * @param linesB side B's wire lines
     * @param comparisonJson the comparison as a JSON object ({@code a.series}, {@code b.series}, {@code verdict},
     *     {@code why}, {@code lines})
     */
    public static String compared(String title, List<String> linesA, List<String> linesB, String comparisonJson) {
        String data = "<script type=\"application/json\" id=\"rigscope-a\">\n" + scriptSafe(array(linesA))
                + "\n</script>\n<script type=\"application/json\" id=\"rigscope-b\">\n" + scriptSafe(array(linesB))
                + "\n</script>\n<script type=\"application/json\" id=\"rigscope-comparison\">\n"
                + scriptSafe(comparisonJson) + "\n</script>\n<script>\n" + scriptSafe(Assets.COMPARE_JS)
                + "\n</script>\n";
        String boot = "function rigscopeData(id) { return JSON.parse(document.getElementById(id).textContent); }\n"
                + "new RigscopeComparePage(document.getElementById('rigscope'), rigscopeData('rigscope-a'), "
                + "rigscopeData('rigscope-b'), rigscopeData('rigscope-comparison')).render();\n";
        return shell(title, "", data, boot);
    }

    private static String array(List<String> lines) {
        StringBuilder b = new StringBuilder("[\n");
        for (int i = 0; i < lines.size(); i++) {
            b.append(i == 0 ? "" : ",\n").append(lines.get(i));
        }
        return b.append("\n]").toString();
    }

    /**
     * A page fed by server-sent events (the dashboard's page of one series): each event's data is one wire line.
     *
     * @param title the page title
     * @param eventsPath the path of the event stream, relative to the page (any query, e.g. a token, included)
     */
    public static String streamed(String title, String eventsPath) {
        Objects.requireNonNull(eventsPath, "eventsPath");
        String boot = "var page = new RigscopeSeriesPage(document.getElementById('rigscope'), {live: true});\n"
                + "var source = new EventSource(" + jsString(eventsPath) + ");\n"
                + "source.onmessage = function (m) { page.accept(JSON.parse(m.data)); page.schedule(); };\n"
                + "source.addEventListener('end', function () { source.close(); page.render(); });\n"
                + "page.render();\n";
        return shell(title, "", boot);
    }

    /** uPlot's minified script, from the webjar. */
    public static String uplotJs() {
        return Assets.UPLOT_JS;
    }

    /** uPlot's style sheet, from the webjar. */
    public static String uplotCss() {
        return Assets.UPLOT_CSS;
    }

    /** The series page script. */
    public static String pageJs() {
        return Assets.PAGE_JS;
    }

    /** The series page style sheet. */
    public static String pageCss() {
        return Assets.PAGE_CSS;
    }

    /** Text that cannot close the script element it sits in, nor open a comment there. */
    static String scriptSafe(String text) {
        return text.replace("</", "<\\/").replace("<!--", "<\\!--");
    }

    /** A JavaScript string literal (JSON string rules, safe inside a script element). */
    static String jsString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '<' -> b.append("\\u003c");
                case '>' -> b.append("\\u003e");
                case '&' -> b.append("\\u0026");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** Text as HTML character data. */
    static String html(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String shell(String title, String data, String boot) {
        return shell(title, data, "", boot);
    }

    /** The page: {@code data} before the scripts, {@code after} after the series page's script, then the boot. */
    private static String shell(String title, String data, String after, String boot) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>" + html(title) + "</title>\n"
                + "<style>\n" + scriptSafe(Assets.UPLOT_CSS) + "\n" + scriptSafe(Assets.PAGE_CSS) + "\n</style>\n"
                + "</head>\n<body>\n<main id=\"rigscope\"></main>\n" + data
                + "<script>\n" + scriptSafe(Assets.UPLOT_JS) + "\n</script>\n"
                + "<script>\n" + scriptSafe(Assets.PAGE_JS) + "\n</script>\n" + after
                + "<script>\n" + boot + "</script>\n</body>\n</html>\n";
    }

    /** The assets, read once from the class path (immutable after class initialisation). */
    private static final class Assets {
        static final String UPLOT_DIR = "META-INF/resources/webjars/uplot/" + uplotVersion() + "/dist/";
        static final String UPLOT_JS = resource(UPLOT_DIR + "uPlot.iife.min.js");
        static final String UPLOT_CSS = resource(UPLOT_DIR + "uPlot.min.css");
        static final String PAGE_JS = resource("io/rigscope/analyzer/report/series-page.js");
        static final String PAGE_CSS = resource("io/rigscope/analyzer/report/series-page.css");
        static final String COMPARE_JS = resource("io/rigscope/analyzer/report/compare-page.js");

        private static String uplotVersion() {
            Properties p = new Properties();
            try (InputStream in = open(UPLOT_PROPERTIES)) {
                p.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + UPLOT_PROPERTIES, e);
            }
            return Objects.requireNonNull(p.getProperty("version"), UPLOT_PROPERTIES + " names no version");
        }

        private static String resource(String name) {
            try (InputStream in = open(name)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + name, e);
            }
        }

        private static InputStream open(String name) {
            InputStream in = SeriesPage.class.getClassLoader().getResourceAsStream(name);
            if (in == null) {
                throw new IllegalStateException(name + " is not on the class path (the org.webjars.npm:uplot jar "
                        + "and the analyzer's resources belong in the rigscope jar)");
            }
            return in;
        }
    }
}
