package io.rigscope.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.Ceiling;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.second.Latency;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.model.codec.WireCodec;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interval logs of the recorded hot-row demo, read back with HdrHistogram's own {@link HistogramLogReader}:
 * their counts, percentiles and worst values are the report's.
 */
class IntervalLogsTest {

    static final Path RECORDED = Path.of("src/test/resources/recorded/hot-row.jsonl.gz");
    static final String SERIES = "demo-20261130-184410";

    static List<Decision> decisions;
    static SeriesReport report;

    @TempDir
    Path dir;

    @BeforeAll
    static void theRecordedSeriesIsReplayed() {
        decisions = Analyzer.forSeries(SERIES)
                .replay(AnalyzerInput.fromWireFile(RECORDED, new WireCodec(), f -> {
                    throw new AssertionError("dead letter in the recording: " + f.deadLetter().reason());
                }))
                .collectList().block(Duration.ofSeconds(60));
        report = ((Decision.Series) decisions.get(decisions.size() - 1)).report();
    }

    private static List<Histogram> readBack(Path file) throws Exception {
        List<Histogram> intervals = new ArrayList<>();
        try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                intervals.add((Histogram) h);
            }
        }
        return intervals;
    }

    /** The seconds of one repeat of the ingest scenario, from its final SECOND decisions. */
    private static Set<Long> secondsOf(int rep) {
        Set<Long> secs = new TreeSet<>();
        for (Decision d : decisions) {
            if (d instanceof Decision.Second s && !s.provisional() && s.rep() == rep && "ingest".equals(s.scenario())) {
                secs.add(s.second().sec());
            }
        }
        return secs;
    }

    @Test
    void everyRequestOfEveryRepeatIsInTheIngestLogOnceAtItsSecond() throws Exception {
        List<Path> files = IntervalLogs.write(dir, SERIES, decisions);

        assertThat(files).containsExactly(IntervalLogs.file(dir, SERIES, "ingest"), IntervalLogs.file(dir, SERIES, "probe"));
        List<Histogram> intervals = readBack(files.get(0));
        long logged = intervals.stream().mapToLong(Histogram::getTotalCount).sum();
        long reported = report.repeats().stream().mapToLong(RepeatSummary::samples).sum();
        assertThat(reported).isEqualTo(1200 + 4800 + 4800);
        assertThat(logged).isEqualTo(reported);
        for (Histogram h : intervals) {
            assertThat(h.getEndTimeStamp() - h.getStartTimeStamp()).isEqualTo(1000);
            assertThat(h.getStartTimeStamp() % 1000).isZero();
        }
    }

    @Test
    void theSustainedRepeatsSecondsMergeToItsReportedCountAndP99() throws Exception {
        List<Histogram> intervals = readBack(IntervalLogs.write(dir, SERIES, decisions).get(0));
        RepeatSummary sustained = report.repeats().stream().filter(r -> r.rep() == 3).findFirst().orElseThrow();
        Set<Long> secs = secondsOf(3);
        assertThat(secondsOf(2)).doesNotContainAnyElementsOf(secs);   // no second shared with the rung before

        Histogram merged = Latency.newHistogram();
        intervals.stream().filter(h -> secs.contains(h.getStartTimeStamp() / 1000)).forEach(merged::add);

        assertThat(merged.getTotalCount()).isEqualTo(sustained.samples()).isEqualTo(4800);
        assertThat(Latency.percentileUs(merged, 99)).isEqualTo(sustained.p99Us());
        assertThat(Latency.percentileUs(merged, 50)).isEqualTo(sustained.p50Us());
    }

    @Test
    void eachReportedFreezeSecondIsAnIntervalWhoseWorstRequestPassedTheRule() throws Exception {
        List<Histogram> intervals = readBack(IntervalLogs.write(dir, SERIES, decisions).get(0));
        List<Long> freezes = report.repeats().get(0).freezeSeconds();
        assertThat(freezes).hasSize(2);
        for (long sec : freezes) {
            Histogram h = intervals.stream().filter(i -> i.getStartTimeStamp() == sec * 1000).findFirst().orElseThrow();
            assertThat(h.getMaxValue()).isGreaterThan(150_000);    // µs: the freeze rule's 150 ms
            assertThat(h.getCountBetweenValues(50_001, h.getMaxValue())).isGreaterThan(h.getTotalCount() / 10);
        }
    }

    @Test
    void aCeilingRepeatIsLeftOutAndEachRepeatIsIntroducedByAComment() throws Exception {
        List<Decision> withCeiling = new ArrayList<>(decisions);
        withCeiling.add(new Decision.CeilingFound(SERIES, 3, "ingest", 1,
                new Ceiling(3, "ingest", 10, 480, 4800, 0, null)));

        Path file = IntervalLogs.write(dir, SERIES, withCeiling).get(0);

        long logged = readBack(file).stream().mapToLong(Histogram::getTotalCount).sum();
        assertThat(logged).isEqualTo(1200 + 4800);
        String text = Files.readString(file);
        assertThat(text).contains("#rep 1 (ladder)").contains("#rep 2 (ladder)").doesNotContain("#rep 3")
                .contains("microseconds");
    }

    @Test
    void theLogStartsAtItsFirstSecond() throws Exception {
        File file = IntervalLogs.write(dir, SERIES, decisions).get(0).toFile();
        long first = secondsOf(1).iterator().next();
        try (HistogramLogReader reader = new HistogramLogReader(file)) {
            EncodableHistogram h = reader.nextIntervalHistogram();
            assertThat(reader.getStartTimeSec()).isEqualTo((double) first);
            assertThat(h.getStartTimeStamp()).isEqualTo(first * 1000);
        }
    }
}
