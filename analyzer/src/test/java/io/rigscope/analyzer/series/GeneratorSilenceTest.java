package io.rigscope.analyzer.series;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.DecisionCodec;
import io.rigscope.analyzer.decision.RepeatSummary.Silence;
import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.analyzer.pipeline.AnalyzerPipeline.AnalyzerClock;
import io.rigscope.model.wire.Config;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Health;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.ScheduleStart;
import io.rigscope.model.wire.SeriesEnd;
import io.rigscope.model.wire.WireRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * The silence rule ({@code generator_silence_s}, default 5 s): a generator that stops publishing mid-repeat ends the
 * repeat, failing with {@code ended_by: generator_silent}; live (the analyzer's clock ticking) and by replay
 * ({@code AT_FINISH}, everything read) the report is the same to the byte.
 */
@Timeout(60)
class GeneratorSilenceTest {

    private static final String SERIES = "silent";
    private static final int RATE = 200;

    /**
     * gen-1's repeat 1 of {@code scheduledSec} s from {@code startSec}: a REPEAT_START, then per heard second 200
     * samples, the ledger and a health record; an end marker only when {@code ends}.
     */
    private static List<WireRecord> repeat(long startSec, int scheduledSec, List<Integer> heardSeconds, boolean ends) {
        List<WireRecord> out = new ArrayList<>();
        long startUs = startSec * 1_000_000L;
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("reconciliation_required", false);
        config.put("min_samples", 100);
        out.add(new Marker(SERIES, 0, "rig", startUs - 100_000, null, new Config(config)));
        out.add(new Marker(SERIES, 1, "gen-1", startUs - 50_000, "sustained",
                new ScheduleStart(null, startUs, scheduledSec * 1000L, null, null, null)
                        .body(Marker.Kind.REPEAT_START)));
        for (int i : heardSeconds) {
            long sec = startSec + i;
            List<Sample> samples = new ArrayList<>();
            for (int k = 0; k < RATE; k++) {
                long t0 = sec * 1_000_000L + k * (1_000_000L / RATE);
                samples.add(new Sample("ingest", t0, t0 + 10, t0 + 2_000, 200, ErrorKind.NONE, 1, 1, 100));
            }
            out.add(new SampleBatch(SERIES, 1, "gen-1", (sec + 1) * 1_000_000L - 1, samples));
            out.add(new Ledger(SERIES, 1, "gen-1", (sec + 1) * 1_000_000L + 10_000, "ingest", sec, RATE, RATE, 0, RATE,
                    false));
            out.add(new Health(SERIES, 1, "gen-1", (sec + 1) * 1_000_000L + 20_000, 0, 0, 0.1, 20, 1, 2));
        }
        if (ends) {
            long endSec = startSec + scheduledSec;
            out.add(new Ledger(SERIES, 1, "gen-1", endSec * 1_000_000L + 30_000, "ingest", endSec - 1, 0, 0, 0, 0,
                    true));
            out.add(new Marker(SERIES, 1, "gen-1", endSec * 1_000_000L + 40_000, "sustained", RepeatEnd.EMPTY));
            out.add(new Marker(SERIES, 0, "gen-1", endSec * 1_000_000L + 50_000, null, SeriesEnd.EMPTY));
        }
        return out;
    }

    private static List<Integer> seconds(int from, int to) {
        List<Integer> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(i);
        }
        return out;
    }

    private static SeriesAnalysis analysis(SeriesAnalysis.Judging judging) {
        return Analyzer.forSeries(SERIES).newAnalysis(judging);
    }

    private static String json(SeriesReport report) {
        return new String(DecisionCodec.reportJson(report), StandardCharsets.UTF_8);
    }

    private static String replayReport(List<WireRecord> records) {
        SeriesAnalysis replay = analysis(SeriesAnalysis.Judging.AT_FINISH);
        List<Decision> out = new ArrayList<>();
        out.addAll(replay.acceptAll(records));
        return json(finish(replay, out));
    }

    @Test
    void aGeneratorKilledTenSecondsIntoThirtyEndsTheRepeatOnceTheGraceHasPassedAndTheReplayAgrees() {
        long startSec = 1_764_000_000L;
        List<WireRecord> records = repeat(startSec, 30, seconds(0, 10), false);
        SeriesAnalysis live = analysis(SeriesAnalysis.Judging.AS_DATA_COMPLETES);
        List<Decision> out = new ArrayList<>();
        out.addAll(live.acceptAll(records));
        assertThat(out).noneMatch(d -> d instanceof Decision.Repeat);

        // the last record was stamped in second start+10; ticks of the analyzer's clock after it
        long lastHeardSec = startSec + 10;
        for (int afterSec = 1; afterSec <= 5; afterSec++) {
            out.addAll(live.checkLiveness((lastHeardSec + afterSec) * 1_000_000L));
            assertThat(out).as("within the grace, %d s after", afterSec).noneMatch(d -> d instanceof Decision.Repeat);
        }
        out.addAll(live.checkLiveness((lastHeardSec + 6) * 1_000_000L));
        List<Decision.Repeat> judged = out.stream().filter(d -> d instanceof Decision.Repeat)
                .map(d -> (Decision.Repeat) d).toList();
        assertThat(judged).hasSize(1);
        RepeatSummary r = judged.get(0).summary();
        assertThat(r.pass()).isFalse();
        assertThat(r.endedBy()).isEqualTo("generator_silent");
        assertThat(r.silence().generator()).isEqualTo("gen-1");
        assertThat(r.silence().sinceSec()).isEqualTo(lastHeardSec + 1);
        assertThat(r.silence().lastLedgerSec()).isEqualTo(startSec + 9);
        assertThat(r.silence().neverOfferedSec()).isEqualTo(20);
        assertThat(r.silence().describe()).contains("generator gen-1 silent since").endsWith(
                "20 of 30 s of the schedule never offered");
        assertThat(r.gates().get(Silence.ENDED_BY).pass()).isFalse();
        assertThat(live.endedBySilence()).isTrue();

        String liveJson = json(finish(live, out));
        assertThat(liveJson).contains("\"ended_by\" : \"generator_silent\"").contains("\"never_offered_s\" : 20");
        assertThat(replayReport(records)).isEqualTo(liveJson);
    }

    @Test
    void aGeneratorThatEndsItsRepeatIsNeverSilentHoweverLateTheClockReads() {
        long startSec = 1_764_000_100L;
        List<WireRecord> records = repeat(startSec, 10, seconds(0, 10), true);
        SeriesAnalysis live = analysis(SeriesAnalysis.Judging.AS_DATA_COMPLETES);
        List<Decision> out = new ArrayList<>();
        out.addAll(live.acceptAll(records));
        for (int afterSec = 1; afterSec <= 30; afterSec++) {
            out.addAll(live.checkLiveness((startSec + 10 + afterSec) * 1_000_000L));
        }
        String liveJson = json(finish(live, out));
        assertThat(liveJson).doesNotContain("ended_by").doesNotContain("silence");
        assertThat(replayReport(records)).isEqualTo(liveJson);
    }

    @Test
    void aBacklogBeingCaughtUpIsNotSilenceWhileItsRecordsKeepArriving() {
        long startSec = 1_764_000_200L;
        List<WireRecord> records = repeat(startSec, 30, seconds(0, 30), true);
        SeriesAnalysis live = analysis(SeriesAnalysis.Judging.AS_DATA_COMPLETES);
        List<Decision> out = new ArrayList<>();
        long nowUs = (startSec + 600) * 1_000_000L; // read 10 minutes later: every timestamp is old
        int i = 0;
        for (WireRecord r : records) {
            out.addAll(live.acceptAll(List.of(r)));
            if (++i % 10 == 0) {
                nowUs += 1_000_000L;
                out.addAll(live.checkLiveness(nowUs));
            }
        }
        assertThat(out).filteredOn(d -> d instanceof Decision.Repeat)
                .allMatch(d -> ((Decision.Repeat) d).summary().silence() == null);
    }

    @Test
    void aGeneratorQuietLongerThanTheGraceThatComesBackIsSilentFromItsGapLiveAndByReplay() {
        long startSec = 1_764_000_300L;
        List<Integer> heard = seconds(0, 8);
        heard.addAll(seconds(16, 20)); // 8 s without a record, then back, then its end
        List<WireRecord> records = repeat(startSec, 20, heard, true);
        String replay = replayReport(records);
        assertThat(replay).contains("\"ended_by\" : \"generator_silent\"")
                .contains("\"since_sec\" : " + (startSec + 9));
        // by default (5 s) the gap is silence; with a grace of 10 s it is not
        List<Decision> out = new ArrayList<>();
        SeriesAnalysis lenient = Analyzer.forSeries(SERIES).withOverrides(s -> s.withConfig(
                Map.of("generator_silence_s", 10))).newAnalysis(SeriesAnalysis.Judging.AT_FINISH);
        out.addAll(lenient.acceptAll(records));
        assertThat(json(finish(lenient, out))).doesNotContain("ended_by");
    }

    // The live pipeline below runs in virtual time (reactor-test): StepVerifier replaces its scheduler, and its
    // clock reads that scheduler (AnalyzerClock.of), set to the records' own epoch seconds. What took 30 s of sleeping now takes none, and
    // each assertion names the virtual second something happened, not a bound on the wall clock.

    /** A virtual clock standing at {@code epochSec}. */
    private static VirtualTimeScheduler clockAt(long epochSec) {
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        vts.advanceTimeTo(Instant.ofEpochSecond(epochSec));
        return vts;
    }

    @Test
    void aSourceThatStopsHeartbeatingIsAnUnreachableBrokerNotASilentGenerator() {
        // a heartbeating source (Kafka: an empty batch a second while connected) that then says nothing for 30 s,
        // as during a broker outage: no repeat is judged silent meanwhile; its records then arrive and end it
        long startSec = 1_764_000_400L;
        VirtualTimeScheduler clock = clockAt(startSec + 4);
        List<WireRecord> before = repeat(startSec, 20, seconds(0, 4), false);
        List<WireRecord> rest = repeat(startSec, 20, seconds(4, 20), true).stream()
                .filter(r -> !(r instanceof Marker m && (m.kind() == Marker.Kind.CONFIG
                        || m.kind() == Marker.Kind.REPEAT_START))).toList();
        Sinks.Many<List<WireRecord>> input = Sinks.many().unicast().onBackpressureBuffer();
        List<Decision> decided = new ArrayList<>();
        StepVerifier.withVirtualTime(() -> Analyzer.forSeries(SERIES).withClock(AnalyzerClock.of(clock))
                        .live(input.asFlux(), p -> { })
                        .doOnNext(decided::add), () -> clock, Long.MAX_VALUE)
                .then(() -> input.tryEmitNext(before))
                .thenAwait(Duration.ofSeconds(1))
                .then(() -> input.tryEmitNext(List.of())) // heartbeats: connected, caught up
                .thenAwait(Duration.ofSeconds(1))
                .then(() -> input.tryEmitNext(List.of()))
                .thenAwait(Duration.ofSeconds(1))
                .then(() -> input.tryEmitNext(List.of()))
                .thenAwait(Duration.ofSeconds(30)) // the outage: nothing, not even a heartbeat
                .then(() -> assertThat(decided).as("no repeat judged while the source could not be read")
                        .noneMatch(d -> d instanceof Decision.Repeat))
                .then(() -> {
                    input.tryEmitNext(rest);
                    input.tryEmitComplete();
                })
                .thenConsumeWhile(d -> true)
                .verifyComplete();
        assertThat(decided).filteredOn(d -> d instanceof Decision.Repeat).singleElement()
                .satisfies(d -> assertThat(((Decision.Repeat) d).summary().silence()).isNull());
        assertThat(decided.get(decided.size() - 1)).isInstanceOf(Decision.Series.class);
    }

    @Test
    void aSourceThatNeverHeartbeatsGivesNoLiveVerdict() {
        // no evidence that the wire carries writes (no heartbeat, ever): the clock alone judges nothing live, even
        // a minute past the grace
        long startSec = 1_764_000_500L;
        VirtualTimeScheduler clock = clockAt(startSec + 10);
        List<WireRecord> records = repeat(startSec, 30, seconds(0, 8), false);
        List<Decision> decided = new ArrayList<>();
        StepVerifier.withVirtualTime(() -> Analyzer.forSeries(SERIES).withClock(AnalyzerClock.of(clock))
                        .live(Flux.concat(Flux.just(records), Flux.never()), p -> { })
                        .doOnNext(decided::add)
                        .takeUntilOther(Mono.delay(Duration.ofSeconds(60))), () -> clock, Long.MAX_VALUE)
                .thenAwait(Duration.ofSeconds(60))
                .thenConsumeWhile(d -> true)
                .verifyComplete();
        assertThat(decided).as("seconds decided, no repeat").isNotEmpty()
                .noneMatch(d -> d instanceof Decision.Repeat);
    }

    /** What a following Kafka source emits while a write probe is acknowledged and it is caught up. */
    private static Flux<List<WireRecord>> heartbeats() {
        return Flux.interval(Duration.ofSeconds(1)).map(i -> List.<WireRecord>of());
    }

    @Test
    void theLivePipelineJudgesTheSilentRepeatOnItsOwnClockAndEndsWithTheReplaysReport() {
        // gen-1's samples in seconds start..start+7 of a 30-s repeat (its last ledger stamped in start+8), read at
        // start+10 by a heartbeating source. The first tick (start+11) sees its records arrive; they are quiet from
        // then, so at start+16 (the grace of 5 s after that tick, and past (start+8) + 1 + 5) the repeat ends,
        // silent since start+9; with the data
        // complete and nothing arriving for attribution_grace_s after, the analysis ends with the replay's report.
        long startSec = 1_764_000_600L;
        VirtualTimeScheduler clock = clockAt(startSec + 10);
        List<WireRecord> records = repeat(startSec, 30, seconds(0, 8), false);
        List<Decision> decisions = new ArrayList<>();
        long[] judgedAtSec = {-1};
        StepVerifier.withVirtualTime(() -> Analyzer.forSeries(SERIES).withClock(AnalyzerClock.of(clock))
                        .live(Flux.concat(Flux.just(records), heartbeats()), p -> { })
                        .doOnNext(d -> {
                            decisions.add(d);
                            if (d instanceof Decision.Repeat) {
                                judgedAtSec[0] = clock.now(TimeUnit.SECONDS);
                            }
                        }), () -> clock, Long.MAX_VALUE)
                .thenAwait(Duration.ofSeconds(60))
                .thenConsumeWhile(d -> true)
                .verifyComplete();
        assertThat(judgedAtSec[0]).as("the virtual second the repeat was judged").isEqualTo(startSec + 16);
        Decision.Series series = (Decision.Series) decisions.get(decisions.size() - 1);
        assertThat(series.report().repeats()).singleElement()
                .satisfies(r -> {
                    assertThat(r.endedBy()).isEqualTo("generator_silent");
                    assertThat(r.silence().sinceSec()).isEqualTo(startSec + 9);
                });
        assertThat(decisions).filteredOn(d -> d instanceof Decision.Repeat).hasSize(1);
        assertThat(json(series.report())).isEqualTo(replayReport(records));
    }

    /** Finishes {@code analysis}, its verdicts appended to {@code out}; returns its report. */
    private static SeriesReport finish(SeriesAnalysis analysis, List<Decision> out) {
        out.addAll(analysis.finish());
        return analysis.report();
    }
}
