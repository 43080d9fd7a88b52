package io.rigscope.analyzer.second;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.SecondStats.SecondLedger;
import io.rigscope.model.wire.Ledger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GeneratorLedgersTest {

    private static final long SEC = 1_700_000_100L;

    @Test
    void inFlightIsSentMinusCompletedUpToTheSecond() {
        GeneratorLedgers g = new GeneratorLedgers("ingest");
        g.account(ledger("gen-1", SEC, 10, 4));
        g.account(ledger("gen-1", SEC + 1, 10, 12));
        g.account(ledger("gen-2", SEC, 5, 5));

        assertThat(g.second(SEC)).isEqualTo(new SecondLedger(15, 15, 0, 9, 6));
        assertThat(g.second(SEC + 1)).isEqualTo(new SecondLedger(10, 10, 0, 12, 4));
        assertThat(g.second(SEC + 2)).isEqualTo(SecondLedger.NONE);
        // a ledger for an earlier second after a later one was asked for counts in both
        g.account(ledger("gen-2", SEC + 1, 3, 0));
        assertThat(g.second(SEC + 1).inFlight()).isEqualTo(7);
        assertThat(g.second(SEC).inFlight()).isEqualTo(6);
    }

    /** Ledgers in any order, duplicates among them, asked in any order: always the sum over every earlier second. */
    @Test
    void inFlightMatchesTheSumOverEveryEarlierSecondWhateverTheOrder() {
        SplittableRandom random = new SplittableRandom(25);
        for (int trial = 0; trial < 50; trial++) {
            GeneratorLedgers g = new GeneratorLedgers("ingest");
            List<Ledger> accounted = new ArrayList<>();
            for (int step = 0; step < 400; step++) {
                if (random.nextInt(3) > 0) {
                    Ledger l = ledger("gen-" + random.nextInt(1, 4), SEC + random.nextInt(60),
                            random.nextInt(100), random.nextInt(100));
                    boolean fresh = accounted.stream().noneMatch(a -> a.src().equals(l.src()) && a.sec() == l.sec());
                    g.account(l);
                    if (fresh) {
                        accounted.add(l);
                    }
                } else {
                    long sec = SEC + random.nextInt(60);
                    long sent = 0;
                    long completed = 0;
                    boolean any = false;
                    for (Ledger a : accounted) {
                        if (a.sec() <= sec) {
                            sent += a.sent();
                            completed += a.completed();
                        }
                        any |= a.sec() == sec;
                    }
                    SecondLedger asked = g.second(sec);
                    if (any) {
                        assertThat(asked.inFlight()).as("trial %d step %d sec %d", trial, step, sec)
                                .isEqualTo(Math.max(0, sent - completed));
                    } else {
                        assertThat(asked).isEqualTo(SecondLedger.NONE);
                    }
                }
            }
        }
    }

    private static Ledger ledger(String gen, long sec, long sent, long completed) {
        return new Ledger("s1", 1, gen, (sec + 1) * 1_000_000L, "ingest", sec, sent, sent, 0, completed, false);
    }
}
