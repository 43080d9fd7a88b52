package io.rigscope.analyzer.series;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.DecisionCodec;
import io.rigscope.analyzer.synthetic.SyntheticSeries;
import io.rigscope.analyzer.synthetic.SyntheticSeries.Plan;
import io.rigscope.analyzer.synthetic.SyntheticSeries.RepeatPlan;
import io.rigscope.analyzer.synthetic.SyntheticSeries.Stall;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * The same requests offered by one generator and by two sharing the schedule ({@code generate --share 1/2},
 * {@code 2/2}): the analyzer merges the two generators' samples and sums their ledgers, so the reports are the same
 * to the byte, by replay and live, even when the second generator's records all come after the first's last ledger.
 */
class SharedScheduleReportTest {

    private static final Plan PLAN = Plan.of("shared", 2, 10, 200).withProbe(5, 3_000)
            .withRepeat(RepeatPlan.clean(2).withStalls(List.of(new Stall(2_000, 600))));

    private static List<WireRecord> records(Plan plan) {
        List<WireRecord> out = new ArrayList<>();
        SyntheticSeries.emit(plan, out::add);
        return out;
    }

    private static String report(List<WireRecord> records, boolean live) {
        Analyzer analyzer = Analyzer.forSeries("shared");
        Flux<List<WireRecord>> input = Flux.fromIterable(records).buffer(64);
        Decision last = (live ? analyzer.live(input, p -> { }) : analyzer.replay(input, p -> { })).blockLast();
        return new String(DecisionCodec.reportJson(((Decision.Series) last).report()), StandardCharsets.UTF_8);
    }

    @Test
    void twoGeneratorsSharingTheScheduleReportWhatOneAtTheFullRateReports() {
        List<WireRecord> one = records(PLAN);
        List<WireRecord> two = records(PLAN.withGenerators(2));
        assertThat(two).filteredOn(r -> r instanceof Ledger).extracting(WireRecord::src).containsOnly("gen-1", "gen-2");
        assertThat(two).filteredOn(r -> r instanceof SampleBatch).extracting(WireRecord::src)
                .containsOnly("gen-1", "gen-2");

        String expected = report(one, false);
        assertThat(expected).contains("\"freeze_seconds\" : [ 1");
        assertThat(report(two, false)).isEqualTo(expected);
        assertThat(report(two, true)).isEqualTo(report(one, true));
    }

    @Test
    void liveTheRepeatWaitsForTheSecondGeneratorEvenWhenItComesAfterTheFirstIsAllIn() {
        // gen-2's samples and ledgers of each repeat moved to just before the repeat's end marker
        List<WireRecord> late = new ArrayList<>();
        List<WireRecord> held = new ArrayList<>();
        for (WireRecord r : records(PLAN.withGenerators(2))) {
            if ((r instanceof SampleBatch || r instanceof Ledger) && r.src().equals("gen-2")) {
                held.add(r);
            } else {
                if (r instanceof Marker m && m.kind() == Marker.Kind.REPEAT_END) {
                    late.addAll(held);
                    held.clear();
                }
                late.add(r);
            }
        }
        assertThat(report(late, true)).isEqualTo(report(records(PLAN), true));
        // and no second was decided before the second generator's part of it came (closed on gen-1's ledger alone,
        // then reopened by gen-2's samples): each second decided once
        List<String> decided = new ArrayList<>();
        Analyzer.forSeries("shared").live(Flux.fromIterable(late).buffer(64), p -> { })
                .ofType(Decision.Second.class).filter(d -> !d.provisional())
                .doOnNext(d -> decided.add(d.rep() + "/" + d.scenario() + "@" + d.second().sec())).blockLast();
        assertThat(decided).isNotEmpty().doesNotHaveDuplicates();
    }
}
