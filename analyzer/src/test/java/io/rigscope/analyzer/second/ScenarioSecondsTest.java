package io.rigscope.analyzer.second;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.freeze.FreezeRule;
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
        assertThat(s.seconds()).hasSize(1);
        assertThat(s.reopenedSeconds()).isEqualTo(1);
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

    private static Sample sample(long sec, long serviceUs) {
        long t2 = sec * 1_000_000L + 500_000;
        return new Sample("ingest", t2 - serviceUs, t2 - serviceUs, t2, 201, ErrorKind.NONE, 1, 1, 100);
    }

    private static Ledger ledger(String gen, long sec, long completed, boolean last) {
        return new Ledger("s", 1, gen, (sec + 1) * 1_000_000L, "ingest", sec, completed, completed, 0, completed, last);
    }
}
