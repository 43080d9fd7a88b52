package io.rigscope.analyzer.second;

import io.rigscope.analyzer.second.RepeatTotals.TimeWatermark;
import io.rigscope.model.wire.Ledger;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;

/**
 * One source's ledger for one scenario, or its time watermark when it declared one: what decides whether a
 * second is final for that source. Single-threaded; owned by {@link GeneratorLedgers}.
 */
final class SourceLedger {
    /** The source's time watermark when its seconds close by time, else null (by the ledger). */
    TimeWatermark time;
    /** Samples seen from it on this scenario, late ones included. */
    long seenTotal;
    /** Second -> completed, for seconds not yet closed whose ledger counted a request. */
    final HashMap<Long, Long> pendingCompleted = new HashMap<>();
    private long maxSec = Long.MIN_VALUE;
    private boolean last;
    private LedgerCounts totals = LedgerCounts.ZERO;
    /** Ledger seconds already accounted, so a replayed duplicate is not counted twice. */
    private final Set<Long> accounted = new HashSet<>();

    /** Accounts a ledger record; true when its second was new for this source (false: a duplicate). */
    boolean account(Ledger l) {
        // a time-closed source's ledger records are counts (its drops), each adding; never the watermark
        boolean fresh = accounted.add(l.sec()) || time != null;
        if (fresh) {
            totals = totals.plus(l);
            if (l.completed() > 0 && time == null) {
                pendingCompleted.put(l.sec(), l.completed());
            }
        }
        maxSec = Math.max(maxSec, l.sec());
        last |= l.last();
        return fresh;
    }

    /** Whether it published its last ledger record. */
    boolean last() {
        return last;
    }

    LedgerCounts totals() {
        return totals;
    }

    /** Whether second {@code sec} is final for this source, {@code seen} of its samples of it having arrived. */
    boolean finalFor(String scenario, long sec, long seen) {
        if (time != null) {
            return time.passed(sec) || time.allSeen(scenario, seenTotal);
        }
        Long expected = pendingCompleted.get(sec);
        if (expected != null) {
            return seen >= expected;
        }
        return last || maxSec >= sec;
    }

    /** Every sample of this scenario it will send has arrived, and every second it counted. */
    boolean complete(String scenario) {
        if (time != null) {
            return time.allSeen(scenario, seenTotal);
        }
        return last && pendingCompleted.isEmpty();
    }
}
