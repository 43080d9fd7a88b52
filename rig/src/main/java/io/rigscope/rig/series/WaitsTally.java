package io.rigscope.rig.series;

import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sums the wait-event stream per repeat, so the console can say what the database's sessions were doing in each
 * repeat ("Lock:transactionid 61 %"). A console aid beside the analyzer's verdicts, not a verdict itself.
 * Thread-safe.
 */
final class WaitsTally {

    /** Per repeat: session-seconds by wait event, and the seconds sampled. */
    private static final class RepeatWaits {
        final Map<String, Double> sessionSecondsByEvent = new TreeMap<>();
        long sampledSec;
    }

    private final Map<Integer, RepeatWaits> byRep = new TreeMap<>();

    /** Takes any record; only {@link Waits} records of a repeat count. */
    synchronized void accept(WireRecord record) {
        if (record instanceof Waits w && w.rep() > 0) {
            RepeatWaits r = byRep.computeIfAbsent(w.rep(), k -> new RepeatWaits());
            r.sampledSec += w.periodSec();
            w.load().forEach((event, load) -> r.sessionSecondsByEvent.merge(event, load * w.periodSec(), Double::sum));
        }
    }

    /**
     * One line per repeat: average active sessions and the top wait events by share of active-session time.
     *
     * @param top how many events a line names
     */
    synchronized List<String> lines(int top) {
        List<String> lines = new ArrayList<>();
        byRep.forEach((rep, r) -> {
            double total = r.sessionSecondsByEvent.values().stream().mapToDouble(Double::doubleValue).sum();
            if (total <= 0) {
                lines.add(String.format("rep %d: no active sessions in %d s sampled", rep, r.sampledSec));
                return;
            }
            StringBuilder b = new StringBuilder(String.format("rep %d: %.1f active sessions on average (%d s sampled):",
                    rep, total / Math.max(1, r.sampledSec), r.sampledSec));
            r.sessionSecondsByEvent.entrySet().stream()
                    .sorted((a, c) -> Double.compare(c.getValue(), a.getValue())).limit(top)
                    .forEach(e -> b.append(String.format(" %s %.0f %%", e.getKey(), 100 * e.getValue() / total)));
            lines.add(b.toString());
        });
        return lines;
    }
}
