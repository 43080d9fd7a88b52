package io.rigscope.analyzer.series;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rigscope.analyzer.attribution.Attributor;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.synthetic.SyntheticSeries;
import io.rigscope.analyzer.synthetic.SyntheticSeries.Plan;
import io.rigscope.analyzer.synthetic.SyntheticSeries.RepeatPlan;
import io.rigscope.analyzer.synthetic.SyntheticSeries.Stall;
import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.analyzer.decision.SeriesReport.SeriesVerdict;
import io.rigscope.analyzer.report.ReportFiles;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.Canary;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.model.wire.Vmstat;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireExamples;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The pure core, fed in memory: completion and order independence. */
class SeriesAnalysisTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Plan PLAN = Plan.of("core", 2, 30, 500).withProbe(20, 30_000)
            .withRepeat(RepeatPlan.clean(1).withStalls(List.of(new Stall(12_300, 600), new Stall(17_300, 600))));

    @Test
    void seriesIsCompleteOnceSeriesEndAndEveryLastLedgerArrived() {
        List<WireRecord> records = records(PLAN);
        SeriesAnalysis analysis = analysis();
        List<Decision> out = new ArrayList<>();
        for (WireRecord r : records) {
            assertThat(analysis.complete()).as("complete before %s", r).isFalse();
            out.addAll(analysis.accept(r));
        }
        assertThat(analysis.complete()).isTrue();
        assertThat(out).filteredOn(d -> d instanceof Decision.Repeat).hasSize(2);
        assertThat(out).filteredOn(d -> d instanceof Decision.Second)
                .allMatch(d -> ((Decision.Second) d).second().exact());
    }

    @Test
    void ledgersArrivingBeforeTheirSamplesGiveTheSameReport() {
        List<WireRecord> records = records(PLAN);
        List<WireRecord> ledgersFirst = new ArrayList<>();
        records.stream().filter(r -> r instanceof Marker).forEach(ledgersFirst::add);
        records.stream().filter(r -> r instanceof Ledger).forEach(ledgersFirst::add);
        records.stream().filter(r -> !(r instanceof Marker) && !(r instanceof Ledger)).forEach(ledgersFirst::add);

        assertThat(new String(report(ledgersFirst))).isEqualTo(new String(report(records)));
    }

    @Test
    void shuffledDataAfterTheMarkersGivesTheSameReport() {
        List<WireRecord> records = records(PLAN);
        List<WireRecord> shuffled = new ArrayList<>();
        records.stream().filter(r -> r instanceof Marker).forEach(shuffled::add);
        List<WireRecord> data = new ArrayList<>(records.stream().filter(r -> !(r instanceof Marker)).toList());
        Collections.shuffle(data, new Random(42));
        shuffled.addAll(data);

        assertThat(new String(report(shuffled))).isEqualTo(new String(report(records)));
    }

    @Test
    void aLadderRungIsJudgedOnDeliveredRateDropsAndReconciliationOnly() {
        Plan plan = Plan.of("core", 2, 20, 200)
                .withRepeat(RepeatPlan.clean(1).withPhase("ladder").withDrift(3.0))
                .withRepeat(RepeatPlan.clean(2).withPhase("ladder").withDrops(100));
        SeriesReport report = run(records(plan));

        var clean = report.repeats().get(0);
        var dropping = report.repeats().get(1);
        assertThat(clean.gates()).containsOnlyKeys("delivered_ratio", "dropped", "reconciliation_rows",
                "reconciliation_qty");
        assertThat(clean.pass()).isTrue();
        assertThat(clean.drift()).isGreaterThan(1.5);
        assertThat(dropping.gates().get("delivered_ratio").pass()).isFalse();
        assertThat(dropping.gates().get("dropped").value()).isEqualTo(100L);
        assertThat(report.verdict()).isEqualTo(SeriesVerdict.FAIL);
    }

    @Test
    void aFailedLadderRungIsListedButTheSeriesIsJudgedByItsSustainedRepeats() {
        Plan plan = Plan.of("core", 3, 20, 200)
                .withRepeat(RepeatPlan.clean(1).withPhase("ladder").withDrops(100));
        SeriesReport report = run(records(plan));

        assertThat(report.repeats()).hasSize(3);
        assertThat(report.repeats().get(0).pass()).isFalse();
        assertThat(report.verdict()).isEqualTo(SeriesVerdict.PASS);
        assertThat(report.passed()).isEqualTo(2);
        assertThat(report.total()).isEqualTo(2);
    }

    @Test
    void aBadConfigMarkerFailsTheConfigGateWithTheReason() {
        Plan plan = Plan.of("core", 1, 10, 200)
                .withConfig(java.util.Map.of("thresholds", java.util.Map.of("http_req_duration", List.of("p(99)<<5"))));
        SeriesReport report = run(records(plan));

        var config = report.repeats().get(0).gates().get("config");
        assertThat(config.pass()).isFalse();
        assertThat((String) config.value()).contains("threshold 'p(99)<<5' on http_req_duration");
    }

    @Test
    void episodesCarryTheGeneratorsHealthAsEvidence() {
        Plan plan = Plan.of("core", 1, 30, 500)
                .withRepeat(RepeatPlan.clean(1).withStalls(List.of(new Stall(12_300, 600))));
        List<WireRecord> records = records(plan);
        for (long sec = plan.startSec(); sec < plan.startSec() + 30; sec++) {
            double pause = sec == plan.startSec() + 12 ? 480.0 : 1.0;
            records.add(new io.rigscope.model.wire.Health("core", 1, "gen-1", sec * 1_000_000L + 999_000, pause, 0,
                    0.5, 30, 4, 0));
        }
        SeriesReport report = run(records);

        assertThat(report.episodes()).hasSize(1);
        assertThat(report.episodes().get(0).evidence()).anyMatch(e -> e.stream().equals("rig.health")
                && e.fact().contains("worst JVM pause 480.0 ms"));
        assertThat(report.episodes().get(0).missing()).doesNotContain("rig.health");
    }

    @Test
    void anEpisodeListsAsMissingOnlyTheStreamsThatHadNoRecordOverItsSpan() {
        Plan plan = Plan.of("core", 1, 30, 500)
                .withRepeat(RepeatPlan.clean(1).withStalls(List.of(new Stall(20_300, 600))));
        List<WireRecord> records = records(plan);
        for (long sec = plan.startSec(); sec < plan.startSec() + 30; sec++) {
            long ts = sec * 1_000_000L + 500_000;
            records.add(new Vmstat("core", 1, "vmstat@app-1", ts, 1, 0, 0, 1000, 10, 100, 0, 0, 0, 12, 300, 500, 5, 2,
                    93, 0, 0, null));
            records.add(new Canary("core", 1, "canary@app-1", ts, "/var/lib/postgresql/canary", 200, 150, 120, 0));
        }
        // waits only in the first 5 s: more than its 5-s tolerance before the episode (second 20)
        for (long sec = plan.startSec(); sec < plan.startSec() + 5; sec++) {
            records.add(new Waits("core", 1, "waits@db-1", sec * 1_000_000L, 1, Map.of("CPU", 0.1)));
        }
        // one Postgres log event anywhere in the series: the log collector ran (it emits only on events)
        records.add(new PgLogEvent("core", 1, "pglog@db-1", (plan.startSec() + 2) * 1_000_000L,
                PgLogEvent.Kind.CHECKPOINT_START, 77, null, Map.of(), "checkpoint starting: time"));
        SeriesReport report = run(records);

        assertThat(report.episodes()).hasSize(1);
        assertThat(report.episodes().get(0).missing())
                .containsExactly("rig.health", "rig.os", "rig.waits", "rig.db", "rig.process");
    }

    @Test
    void anEpisodeWithEveryStreamPresentListsNoneMissing() throws Exception {
        Plan plan = Plan.of("core", 1, 30, 500)
                .withRepeat(RepeatPlan.clean(1).withStalls(List.of(new Stall(20_300, 600))));
        List<WireRecord> records = records(plan);
        long at = (plan.startSec() + 20) * 1_000_000L;
        // one record of every telemetry topic (the documented examples), placed in the episode's second
        WireCodec codec = new WireCodec();
        for (WireRecord example : WireExamples.all()) {
            if (TelemetryStream.of(example.topic()).isPresent()) {
                ObjectNode json = (ObjectNode) JSON.readTree(codec.encode(example));
                json.put("run", "core").put("ts", at);
                records.add(((Decoded.Ok) codec.decode(example.topic(), "core", JSON.writeValueAsBytes(json), "test"))
                        .record());
            }
        }
        for (long sec = plan.startSec(); sec < plan.startSec() + 30; sec++) {
            records.add(new io.rigscope.model.wire.Health("core", 1, "gen-1", sec * 1_000_000L + 999_000, 1.0, 0,
                    0.5, 30, 4, 0));
        }
        SeriesReport report = run(records);

        assertThat(report.episodes()).hasSize(1);
        assertThat(report.episodes().get(0).missing()).isEmpty();
    }

    @Test
    void aLiveFreezeGivesAProvisionalCauseBeforeTheRepeatIsJudged() {
        Plan plan = Plan.of("core", 1, 30, 500)
                .withRepeat(RepeatPlan.clean(1).withStalls(List.of(new Stall(20_300, 600))));
        List<WireRecord> records = records(plan);
        List<WireRecord> waits = new ArrayList<>();
        for (long sec = plan.startSec(); sec < plan.startSec() + 30; sec++) {
            waits.add(new Waits("core", 1, "waits@db-1", sec * 1_000_000L, 1,
                    Map.of("Lock:transactionid", 9.0, "CPU", 1.0)));
        }
        records.addAll(2, waits);
        SeriesAnalysis analysis = new SeriesAnalysis("core", AnalyzerSettings.defaults(), UnaryOperator.identity(),
                io.rigscope.analyzer.attribution.Attributor.standard());
        List<Decision> out = new ArrayList<>();
        records.forEach(r -> out.addAll(analysis.accept(r)));
        finish(analysis, out);

        int provisional = -1;
        int judged = -1;
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i) instanceof Decision.EpisodeFound e && e.provisional() && provisional < 0) {
                provisional = i;
                assertThat(e.episode().cause()).isEqualTo(io.rigscope.analyzer.decision.Cause.LOCK_CONTENTION);
            }
            if (out.get(i) instanceof Decision.Repeat) {
                judged = i;
            }
        }
        assertThat(provisional).isNotNegative().isLessThan(judged);
        assertThat(out).filteredOn(d -> d instanceof Decision.EpisodeFound e && !e.provisional()).singleElement()
                .satisfies(d -> assertThat(((Decision.EpisodeFound) d).episode().cause())
                        .isEqualTo(io.rigscope.analyzer.decision.Cause.LOCK_CONTENTION));
    }

    @Test
    void aProvisionalCauseIsPublishedAgainWhenTheWaitsOfTheFrozenSecondArriveAfterIt() {
        Plan plan = Plan.of("core", 1, 30, 500)
                .withRepeat(RepeatPlan.clean(1).withStalls(List.of(new Stall(20_300, 600))));
        List<WireRecord> records = records(plan);
        long stallSec = plan.startSec() + 20;
        int after = 0;
        for (int i = 0; i < records.size(); i++) {
            if (records.get(i) instanceof Ledger l && l.sec() >= stallSec + 2) {
                after = i;
                break;
            }
        }
        List<WireRecord> waits = new ArrayList<>();
        for (long sec = stallSec - 1; sec <= stallSec + 1; sec++) {
            waits.add(new Waits("core", 1, "waits@db-1", sec * 1_000_000L, 1,
                    Map.of("Lock:transactionid", 9.0, "CPU", 1.0)));
        }
        records.addAll(after, waits);
        SeriesAnalysis analysis = new SeriesAnalysis("core", AnalyzerSettings.defaults(), UnaryOperator.identity(),
                io.rigscope.analyzer.attribution.Attributor.standard());
        List<Decision> out = new ArrayList<>();
        records.forEach(r -> out.addAll(analysis.accept(r)));

        List<io.rigscope.analyzer.decision.Cause> provisional = out.stream()
                .filter(d -> d instanceof Decision.EpisodeFound e && e.provisional())
                .map(d -> ((Decision.EpisodeFound) d).episode().cause()).toList();
        assertThat(provisional).containsExactly(io.rigscope.analyzer.decision.Cause.UNATTRIBUTED,
                io.rigscope.analyzer.decision.Cause.LOCK_CONTENTION);
    }

    /** A 30-s repeat whose requests stall 600 ms at 12.3 s, with a max<300 threshold that aborts after 5 s. */
    private static final Plan ABORTING = Plan.of("core", 1, 30, 500)
            .withRepeat(RepeatPlan.clean(1).withStalls(List.of(new Stall(12_300, 600))))
            .withConfig(Map.of("thresholds", Map.of("http_req_duration", List.of("p(99)<900",
                    Map.of("threshold", "max<300", "abortOnFail", true, "delayAbortEval", "5s")))));

    @Test
    void liveAThresholdWithAbortOnFailStopsTheRepeatOnceWhenItFailsAfterItsDelay() {
        List<Decision> out = new ArrayList<>();
        SeriesAnalysis analysis = analysis();
        records(ABORTING).forEach(r -> out.addAll(analysis.accept(r)));

        List<Decision.Stop> stops = out.stream().filter(d -> d instanceof Decision.Stop)
                .map(d -> (Decision.Stop) d).toList();
        assertThat(stops).as("decided once, though every later second fails it too").hasSize(1);
        Decision.Stop stop = stops.get(0);
        assertThat(stop.rep()).isEqualTo(1);
        assertThat(stop.abort().threshold()).isEqualTo("http_req_duration: max<300");
        assertThat(stop.abort().value()).isGreaterThan(300);
        assertThat(stop.abort().limit()).isEqualTo(300.0);
        assertThat(stop.abort().delayMs()).isEqualTo(5_000);
        // the stall's requests end 12.3 s + 0.6 s in: the first second that holds one closes 13 s in
        assertThat(stop.abort().atMs()).isBetween(12_000L, 14_000L);
        assertThat(stop.kind()).isEqualTo(io.rigscope.model.wire.Verdict.Kind.ABORT);
        // it comes right after the second that failed it, before the repeat is judged
        int at = out.indexOf(stop);
        assertThat(out.subList(0, at)).noneMatch(d -> d instanceof Decision.Repeat);
        Decision lastSecond = out.subList(0, at).stream().filter(d -> d instanceof Decision.Second)
                .reduce((a, b) -> b).orElseThrow();
        assertThat(stop.tsUs()).as("its time is the end of the second that failed it").isEqualTo(lastSecond.tsUs());
        // the series here ran on (no runner stopped it) and its REPEAT_END says nothing: the repeat is judged as run
        assertThat(((Decision.Repeat) out.stream().filter(d -> d instanceof Decision.Repeat).findFirst().orElseThrow())
                .summary().aborted()).isNull();
    }

    @Test
    void aThresholdWithAbortOnFailStopsNothingBeforeItsDelay() {
        Plan plan = Plan.of("core", 1, 30, 500)
                .withRepeat(RepeatPlan.clean(1).withStalls(List.of(new Stall(2_300, 600))))
                .withConfig(Map.of("thresholds", Map.of("http_req_duration",
                        List.of(Map.of("threshold", "max<300", "abortOnFail", true, "delayAbortEval", "20s")))));
        List<Decision> out = new ArrayList<>();
        SeriesAnalysis analysis = analysis();
        records(plan).forEach(r -> out.addAll(analysis.accept(r)));

        Decision.Stop stop = (Decision.Stop) out.stream().filter(d -> d instanceof Decision.Stop).findFirst()
                .orElseThrow();
        assertThat(stop.abort().atMs()).as("the first check after 20 s, though the stall was at 2.3 s")
                .isEqualTo(20_000L);
    }

    @Test
    void aReplayDecidesNoStopAndReportsTheOneTheRepeatEndCarries() {
        io.rigscope.analyzer.decision.Abort abort = new io.rigscope.analyzer.decision.Abort("http_req_duration: max<300",
                612.5, 300, 13_000, 5_000, 30_000, 13);
        List<WireRecord> records = records(ABORTING).stream()
                .map(r -> r instanceof Marker m && m.kind() == Marker.Kind.REPEAT_END
                        ? new Marker(m.run(), m.rep(), m.src(), m.ts(), m.phase(),
                        io.rigscope.model.wire.RepeatEnd.ofStop(abort.facts()))
                        : r)
                .toList();
        SeriesAnalysis replay = new SeriesAnalysis("core", AnalyzerSettings.defaults(), UnaryOperator.identity(),
                Attributor.none(), SeriesAnalysis.Judging.AT_FINISH);
        List<Decision> out = new ArrayList<>();
        records.forEach(r -> out.addAll(replay.accept(r)));
        SeriesReport report = finish(replay, out);

        assertThat(out).noneMatch(d -> d instanceof Decision.Stop);
        var repeat = report.repeats().get(0);
        assertThat(repeat.aborted()).isEqualTo(abort);
        assertThat(repeat.pass()).isFalse();
        assertThat(repeat.gates().get("http_req_duration: max<300").pass()).isFalse();
        assertThat(repeat.gates().get("http_req_duration: p(99)<900").pass()).isTrue();
        assertThat(report.verdict()).isEqualTo(SeriesVerdict.FAIL);
        assertThat(ReportFiles.markdown(report)).contains("Repeat 1: aborted 13 s into its 30 s schedule: "
                + "`http_req_duration: max<300` measured 612.5 over the 13 second(s) closed by then (abortOnFail, "
                + "delayAbortEval 5 s); that gate fails.");
        assertThat(new String(ReportFiles.json(report))).contains("\"aborted\" : {\n      \"by\" : \"abortOnFail\"");

        // the live analysis of the same records reports the same repeat, the stop included
        SeriesAnalysis live = analysis();
        List<Decision> liveOut = new ArrayList<>();
        records.forEach(r -> liveOut.addAll(live.accept(r)));
        assertThat(new String(ReportFiles.json(finish(live, liveOut)))).isEqualTo(new String(ReportFiles.json(report)));
    }

    @Test
    void aRepeatEndWithAStopItCannotReadFailsTheConfigGateNamingTheKey() {
        List<WireRecord> records = records(ABORTING).stream()
                .map(r -> r instanceof Marker m && m.kind() == Marker.Kind.REPEAT_END
                        ? new Marker(m.run(), m.rep(), m.src(), m.ts(), m.phase(),
                        io.rigscope.model.wire.RepeatEnd.ofStop(new io.rigscope.model.wire.VerdictFacts.Abort(
                                "abortOnFail", "x", null, null, null, null, null, null, Map.of())))
                        : r)
                .toList();
        var repeat = run(records).repeats().get(0);
        assertThat(repeat.aborted()).isNull();
        assertThat(repeat.gates().get("config").pass()).isFalse();
        assertThat((String) repeat.gates().get("config").value())
                .contains("REPEAT_END stopped.value is missing or not a number");
    }

    private static SeriesReport run(List<WireRecord> records) {
        SeriesAnalysis analysis = analysis();
        List<Decision> out = new ArrayList<>();
        records.forEach(r -> out.addAll(analysis.accept(r)));
        return finish(analysis, out);
    }

    private static byte[] report(List<WireRecord> records) {
        SeriesAnalysis analysis = analysis();
        List<Decision> out = new ArrayList<>();
        records.forEach(r -> out.addAll(analysis.accept(r)));
        return ReportFiles.json(finish(analysis, out));
    }

    private static SeriesAnalysis analysis() {
        return new SeriesAnalysis("core", AnalyzerSettings.defaults(), UnaryOperator.identity(), Attributor.none());
    }

    private static List<WireRecord> records(Plan plan) {
        List<WireRecord> records = new ArrayList<>();
        SyntheticSeries.emit(plan, records::add);
        return records;
    }

    /** Finishes {@code analysis}, its verdicts appended to {@code out}; returns its report. */
    private static SeriesReport finish(SeriesAnalysis analysis, List<Decision> out) {
        out.addAll(analysis.finish());
        return analysis.report();
    }
}
