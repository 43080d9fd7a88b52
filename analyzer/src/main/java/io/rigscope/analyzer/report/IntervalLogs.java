package io.rigscope.analyzer.report;

import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.SecondHistogram;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * {@code --hlog DIR}: one HdrHistogram interval log per scenario of a series, one interval per second, written
 * with HdrHistogram's own {@link HistogramLogWriter} so that its tools (HistogramLogProcessor,
 * HistogramLogAnalyzer) read rigscope runs. Each interval is the histogram a final SECOND decision carries
 * ({@link Decision.Second#serviceHistogram()}): the analyzer's own, never one built again from samples.
 *
 * <p>What a file holds: service time ({@code t2 - t1}) in <b>microseconds</b>, the analyzer's histogram shape
 * (1 µs to 1 hour, 3 significant digits); the seconds of the ladder and sustained repeats in time order, each
 * repeat introduced by a {@code #rep N (kind)} comment line; the ceiling's repeats are left out (a closed-loop
 * maximum, never a service level). Interval start times are relative to the log's {@code BaseTime}, the first
 * second written (epoch ms, also its {@code StartTime}). The max column is in ms (value unit ratio 1000).
 * A second reopened by a late sample is written once, with its final histogram.
 *
 * <p>File name: {@code SERIES.SCENARIO.hlog}, any character other than letters, digits, {@code . _ -} replaced
 * by {@code _}. Pure but for the files it writes; not thread-safe (one caller).
 */
public final class IntervalLogs {

    /** Interval log values are µs; the max column is printed in ms. */
    static final double MAX_VALUE_UNIT_RATIO = 1000.0;

    private IntervalLogs() {
    }

    /** Whether the logs need a decision: final seconds with their histogram, judged repeats and ceilings. */
    public static boolean keeps(Decision d) {
        if (d instanceof Decision.Second s) {
            return !s.provisional() && s.serviceHistogram() != null;
        }
        return d instanceof Decision.Repeat || d instanceof Decision.CeilingFound;
    }

    /** The file a scenario's log goes to. */
    public static Path file(Path dir, String series, String scenario) {
        return dir.resolve(safe(series) + "." + safe(scenario) + ".hlog");
    }

    /**
     * Writes one log per scenario into {@code dir} (created when missing).
     *
     * @param decisions the analysis' decisions, in the order they were made (others than {@link #keeps} are
     *     ignored)
     * @return the files written, one per scenario that has a second, in scenario order
     * @throws IOException when a file cannot be written
     */
    public static List<Path> write(Path dir, String series, List<Decision> decisions) throws IOException {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(series, "series");
        Set<Integer> ceilings = new HashSet<>();
        Map<Integer, String> kinds = new HashMap<>();
        // scenario -> (sec, rep) -> the last histogram decided for it
        Map<String, TreeMap<Long, TreeMap<Integer, SecondHistogram>>> byScenario = new TreeMap<>();
        for (Decision d : decisions) {
            if (d instanceof Decision.CeilingFound c) {
                ceilings.add(c.rep());
            } else if (d instanceof Decision.Repeat r) {
                kinds.put(r.rep(), r.summary().kind().code());
            } else if (d instanceof Decision.Second s && keeps(s)) {
                byScenario.computeIfAbsent(s.scenario(), k -> new TreeMap<>())
                        .computeIfAbsent(s.second().sec(), k -> new TreeMap<>()).put(s.rep(), s.serviceHistogram());
            }
        }
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        for (var scenario : byScenario.entrySet()) {
            List<Interval> intervals = new ArrayList<>();
            scenario.getValue().forEach((sec, reps) -> reps.forEach((rep, h) -> {
                if (!ceilings.contains(rep)) {
                    intervals.add(new Interval(rep, sec, h));
                }
            }));
            if (intervals.isEmpty()) {
                continue;
            }
            Path file = file(dir, series, scenario.getKey());
            try (OutputStream out = Files.newOutputStream(file);
                 PrintStream print = new PrintStream(out, false, StandardCharsets.UTF_8)) {
                writeLog(new HistogramLogWriter(print), series, scenario.getKey(), intervals, kinds);
                print.flush();
                if (print.checkError()) {
                    throw new IOException("cannot write " + file);
                }
            }
            written.add(file);
        }
        return written;
    }

    private static void writeLog(HistogramLogWriter log, String series, String scenario, List<Interval> intervals,
                                 Map<Integer, String> kinds) {
        long baseSec = intervals.get(0).sec();
        log.outputComment("rigscope series " + series + ", scenario " + scenario + ": service time (t2 - t1) per "
                + "second in microseconds, the analyzer's histograms; ceiling repeats left out");
        log.outputLogFormatVersion();
        log.outputStartTime(baseSec * 1000);
        log.outputBaseTime(baseSec * 1000);
        log.setBaseTime(baseSec * 1000);
        log.outputLegend();
        int rep = Integer.MIN_VALUE;
        for (Interval i : intervals) {
            if (i.rep() != rep) {
                rep = i.rep();
                String kind = kinds.get(rep);
                log.outputComment("rep " + rep + (kind == null ? "" : " (" + kind + ")"));
            }
            Histogram h = i.histogram().decode();
            log.outputIntervalHistogram(i.sec() - baseSec, i.sec() + 1 - baseSec, h, MAX_VALUE_UNIT_RATIO);
        }
    }

    private static String safe(String name) {
        return name.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private record Interval(int rep, long sec, SecondHistogram histogram) {
    }
}
