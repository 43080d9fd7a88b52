package io.rigscope.analyzer.second;

import io.rigscope.analyzer.decision.SecondStats.SecondLedger;
import io.rigscope.model.wire.Ledger;
import java.util.Collection;
import java.util.Collections;
import java.util.TreeMap;

/**
 * The ledgers of one scenario's generators in one repeat: each source's ledger (or time watermark), the counts
 * per second summed over them, and how many generators share the schedule. It answers when a second is final
 * and when the scenario's data is complete (the rules are {@link ScenarioSeconds}'s). Bounded by the repeat's
 * seconds. Single-threaded.
 */
final class GeneratorLedgers {

    private final String scenario;
    private final TreeMap<String, SourceLedger> bySource = new TreeMap<>();
    /** Second -> counts summed over the generators (each source's ledger second once). */
    private final TreeMap<Long, LedgerCounts> bySec = new TreeMap<>();
    private int expected;
    /**
     * Σ sent and Σ completed of {@link #bySec} over the seconds up to {@code prefixSec} (inclusive): the running sum
     * {@link #second} starts from, moved to each second asked for and kept exact as ledgers add to it, so that the
     * in-flight count of a second costs the seconds between two asks (one, as seconds close in order) rather than
     * every second before it.
     */
    private long prefixSec = Long.MIN_VALUE;
    private long prefixSent;
    private long prefixCompleted;

    GeneratorLedgers(String scenario) {
        this.scenario = scenario;
    }

    /** The ledger of {@code source}, created on first sight. */
    SourceLedger of(String source) {
        return bySource.computeIfAbsent(source, g -> new SourceLedger());
    }

    /** The schedule is shared by {@code n} generators (generate --share K/N). */
    void expect(int n) {
        expected = Math.max(expected, n);
    }

    /** Accounts one ledger record; returns its source's ledger. */
    SourceLedger account(Ledger ledger) {
        SourceLedger g = of(ledger.src());
        if (g.account(ledger)) {
            bySec.merge(ledger.sec(), LedgerCounts.ZERO.plus(ledger), LedgerCounts::plus);
            if (ledger.sec() <= prefixSec) {
                prefixSent += ledger.sent();
                prefixCompleted += ledger.completed();
            }
        }
        return g;
    }

    /** Whether second {@code sec}, holding {@code open}'s samples, is final for every generator expected. */
    boolean finalFor(long sec, OpenSecond open) {
        if (bySource.size() < expected) {
            return false;
        }
        for (var e : bySource.entrySet()) {
            if (!e.getValue().finalFor(scenario, sec, open.seen(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** Second {@code sec} closed: no source waits for its samples any more. */
    void closed(long sec) {
        for (SourceLedger g : bySource.values()) {
            g.pendingCompleted.remove(sec);
        }
    }

    /** The ledger's counts for a second, with what was in flight at its end; NONE when no ledger covers it. */
    SecondLedger second(long sec) {
        LedgerCounts own = bySec.get(sec);
        if (own == null) {
            return SecondLedger.NONE;
        }
        movePrefixTo(sec);
        return new SecondLedger(own.scheduled(), own.sent(), own.dropped(), own.completed(),
                Math.max(0, prefixSent - prefixCompleted));
    }

    /** Moves the running sum to the seconds up to {@code sec}: adds or takes off the seconds in between. */
    private void movePrefixTo(long sec) {
        if (sec > prefixSec) {
            for (LedgerCounts c : bySec.subMap(prefixSec, false, sec, true).values()) {
                prefixSent += c.sent();
                prefixCompleted += c.completed();
            }
        } else if (sec < prefixSec) {
            for (LedgerCounts c : bySec.subMap(sec, false, prefixSec, true).values()) {
                prefixSent -= c.sent();
                prefixCompleted -= c.completed();
            }
        }
        prefixSec = sec;
    }

    /** The counts over every generator and second. */
    LedgerCounts totals() {
        LedgerCounts t = LedgerCounts.ZERO;
        for (SourceLedger g : bySource.values()) {
            t = t.plus(g.totals());
        }
        return t;
    }

    /**
     * True when every generator expected has published its last ledger and every request a ledger counted has
     * arrived (whether seconds are still open is {@link ScenarioSeconds#complete}'s part).
     */
    boolean complete() {
        if (bySource.isEmpty() || bySource.size() < expected) {
            return false;
        }
        for (SourceLedger g : bySource.values()) {
            if (!g.complete(scenario)) {
                return false;
            }
        }
        return true;
    }

    /** Generators seen on this scenario, in name order. */
    public Collection<String> generators() {
        return Collections.unmodifiableSet(bySource.keySet());
    }
}
