package io.rigscope.analyzer.second;

import io.rigscope.analyzer.decision.SecondClosing;
import io.rigscope.analyzer.decision.SecondStats;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.freeze.FreezeRule;
import io.rigscope.analyzer.second.RepeatTotals.TimeWatermark;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Sample;
import java.util.ArrayDeque;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioSecondsTest {

    private static final FreezeRule RULE = new FreezeRule(150_000, 50_000, 0.10);
    private static final long SEC = 1_700_000_100L;

    @Test
    void aSecondClosesOnlyOnceTheLedgerAndAllItsSamplesArrived() {
        ScenarioSeconds s = new ScenarioSeconds("ingest", new ArrayDeque<>());
        s.record("gen-1", sample(SEC, 10_000), 50_000);
        assertThat(s.settle(RULE)).isEmpty();

        assertThat(s.onLedger(ledger("gen-1", SEC, 2, false), RULE)).isEmpty();

        s.record("gen-1", sample(SEC, 20_000), 50_000);
        List<SecondStats> closed = s.settle(RULE);
        assertThat(closed).extracting(SecondStats::sec).containsExactly(SEC);
        assertThat(closed.get(0).count()).isEqualTo(2);
        assertThat(closed.get(0).exact()).isTrue();
    }

    @Test
    void aSecondWaitsForEveryGeneratorSeenOnTheScenario() {
        ScenarioSeconds s = new ScenarioSeconds("ingest", new ArrayDeque<>());
        s.record("gen-1", sample(SEC, 10_000), 50_000);
        s.record("gen-2", sample(SEC, 10_000), 50_000);
        s.settle(RULE);
        assertThat(s.onLedger(ledger("gen-1", SEC, 1, false), RULE)).isEmpty();
        assertThat(s.onLedger(ledger("gen-2", SEC, 1, false), RULE)).hasSize(1);
    }

    @Test
    void aSharedScheduleWaitsForEveryGeneratorItNamesNotOnlyTheOnesSeen() {
        ScenarioSeconds s = new ScenarioSeconds("ingest", new ArrayDeque<>());
        s.expectGenerators(2); // generate --share 1/2 and 2/2
        s.record("gen-1", sample(SEC, 10_000), 50_000);
        s.settle(RULE);
        // gen-1 is all in, last ledger included: without gen-2 neither the second nor the scenario is final
        assertThat(s.onLedger(ledger("gen-1", SEC, 1, true), RULE)).isEmpty();
        assertThat(s.settleAll(RULE)).isEmpty();
        assertThat(s.complete()).isFalse();

        s.record("gen-2", sample(SEC, 30_000), 50_000);
        s.settle(RULE);
        List<SecondStats> closed = s.onLedger(ledger("gen-2", SEC, 1, true), RULE);
        assertThat(closed).singleElement().satisfies(c -> {
            assertThat(c.count()).isEqualTo(2);
            assertThat(c.exact()).isTrue();
        });
        assertThat(s.complete()).isTrue();
        assertThat(s.ledgers().totals().sent()).as("sent, summed over both shares").isEqualTo(2);
    }

    @Test
    void aLateSampleReopensItsSecondSoTheFiguresIncludeIt() {
        ScenarioSeconds s = new ScenarioSeconds("ingest", new ArrayDeque<>());
        s.record("gen-1", sample(SEC, 10_000), 50_000);
        s.settle(RULE);
        assertThat(s.onLedger(ledger("gen-1", SEC, 1, false), RULE)).hasSize(1);

        s.record("gen-1", sample(SEC, 900_000), 50_000);
        List<SecondStats> again = s.settle(RULE);

        assertThat(again).hasSize(1);
        assertThat(again.get(0).count()).isEqualTo(2);
        assertThat(again.get(0).maxServiceUs()).isEqualTo(900_000);
        assertThat(s.closed().stats()).hasSize(1);
        assertThat(s.closed().reopened()).isEqualTo(1);
    }

    @Test
    void aGeneratorWithNoLedgerForASecondIsFinalForItOnceItsLedgerMovedPast() {
        ScenarioSeconds s = new ScenarioSeconds("ingest", new ArrayDeque<>());
        s.record("gen-1", sample(SEC, 10_000), 50_000);
        s.settle(RULE);
        assertThat(s.onLedger(ledger("gen-1", SEC + 1, 0, false), RULE)).extracting(SecondStats::sec)
                .containsExactly(SEC);
    }

    @Test
    void anOpenSecondIsReportedProvisionallyOnceAndStaysOpen() {
        ScenarioSeconds s = new ScenarioSeconds("ingest", new ArrayDeque<>());
        s.record("gen-1", sample(SEC, 300_000), 50_000);
        s.settle(RULE);

        List<SecondStats> provisional = s.provisional(SEC + 1, RULE);

        assertThat(provisional).singleElement().satisfies(p -> {
            assertThat(p.exact()).isFalse();
            assertThat(p.maxServiceUs()).isEqualTo(300_000);
        });
        assertThat(s.provisional(SEC + 2, RULE)).isEmpty();
        assertThat(s.openSeconds()).isEqualTo(1);
        assertThat(s.provisional(SEC, RULE)).isEmpty();
    }

    @Test
    void aTimeClosedSourceClosesASecondOnceItsStreamIsTheLatenessPastItsEnd() {
        ScenarioSeconds s = new ScenarioSeconds("ingest", new ArrayDeque<>());
        s.declare("k6", new TimeWatermark(new SecondClosing.ByTime(2_000_000)));
        s.record("k6", sample(SEC, 10_000), 50_000);
        s.record("k6", sampleEndingAt(SEC * 1_000_000L + 2_999_999, 10_000), 50_000);
        assertThat(s.settleAll(RULE)).as("the stream is 1.999999 s past the second's end").isEmpty();

        s.record("k6", sampleEndingAt(SEC * 1_000_000L + 3_000_000, 10_000), 50_000);
        List<SecondStats> closed = s.settleAll(RULE);

        assertThat(closed).extracting(SecondStats::sec).containsExactly(SEC);
        assertThat(closed.get(0).exact()).as("no sample of it can arrive any more without being late").isTrue();
        assertThat(s.totals().lateSamples()).isZero();
    }

    @Test
    void aPointOfASecondTheWatermarkPassedIsCountedLateAndEntersNoFigure() {
        ScenarioSeconds s = new ScenarioSeconds("ingest", new ArrayDeque<>());
        s.declare("k6", new TimeWatermark(new SecondClosing.ByTime(2_000_000)));
        s.record("k6", sample(SEC, 10_000), 50_000);
        s.record("k6", sample(SEC + 3, 10_000), 50_000);
        assertThat(s.settleAll(RULE)).extracting(SecondStats::sec).containsExactly(SEC);

        Sample late = new Sample("ingest", SEC * 1_000_000L, SEC * 1_000_000L, SEC * 1_000_000L + 900_000, 503,
                ErrorKind.HTTP_5XX, 1, 0, 0);
        s.record("k6", late, 50_000);
        List<SecondStats> after = s.settleAll(RULE);

        assertThat(after).as("the closed second is not reopened").isEmpty();
        assertThat(s.totals().lateSamples()).isEqualTo(1);
        assertThat(s.closed().stats()).singleElement().satisfies(closed -> {
            assertThat(closed.count()).isEqualTo(1);
            assertThat(closed.maxServiceUs()).isEqualTo(10_000);
        });
        assertThat(s.closed().reopened()).isZero();
        assertThat(s.totals().failed()).as("a late failure is still a failure").isEqualTo(1);
        assertThat(s.totals().count()).as("the figures' requests").isEqualTo(2);
    }

    @Test
    void aTimeClosedSourceIsCompleteOnceItsStreamEndedAndEverySampleItPublishedArrived() {
        ScenarioSeconds s = new ScenarioSeconds("ingest", new ArrayDeque<>());
        TimeWatermark w = new TimeWatermark(new SecondClosing.ByTime(2_000_000));
        s.declare("k6", w);
        s.record("k6", sample(SEC, 10_000), 50_000);
        w.end(java.util.Map.of("ingest", 2L));
        assertThat(s.settleAll(RULE)).as("one sample is still on its way").isEmpty();
        assertThat(s.complete()).isFalse();

        s.record("k6", sample(SEC, 20_000), 50_000);

        assertThat(s.settleAll(RULE)).singleElement().satisfies(closed -> assertThat(closed.count()).isEqualTo(2));
        assertThat(s.complete()).isTrue();
    }

    private static Sample sampleEndingAt(long t2Us, long serviceUs) {
        return new Sample("ingest", t2Us - serviceUs, t2Us - serviceUs, t2Us, 201, ErrorKind.NONE, 1, 1, 100);
    }

    private static Sample sample(long sec, long serviceUs) {
        long t2 = sec * 1_000_000L + 500_000;
        return new Sample("ingest", t2 - serviceUs, t2 - serviceUs, t2, 201, ErrorKind.NONE, 1, 1, 100);
    }

    private static Ledger ledger(String gen, long sec, long completed, boolean last) {
        return new Ledger("s", 1, gen, (sec + 1) * 1_000_000L, "ingest", sec, completed, completed, 0, completed, last);
    }
}
