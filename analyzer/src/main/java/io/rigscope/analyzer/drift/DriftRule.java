package io.rigscope.analyzer.drift;

import io.rigscope.analyzer.second.ClosedSeconds;
import io.rigscope.analyzer.second.ScenarioSeconds;

/**
 * The drift rule: with n seconds from a scenario's first closed second to its last, k = n / 3 (rounded down);
 * the first third is {@code [first, first + k)}, the last third {@code [last - k + 1, last]}; drift is the p99
 * service time of the last third over that of the first. Not measurable (null) when k is 0 or either third holds
 * no request. Gated by {@link io.rigscope.analyzer.gate.DriftGate}; noted beside ladder rungs. Pure.
 */
public final class DriftRule {

    private DriftRule() {
    }

    /** The two thirds of the scenario's closed seconds, or null when drift cannot be measured. */
    public static Thirds thirds(ScenarioSeconds s) {
        if (s == null || s.closed().size() == 0) {
            return null;
        }
        long first = s.closed().first();
        long last = s.closed().last();
        long k = (last - first + 1) / 3;
        if (k == 0) {
            return null;
        }
        ClosedSeconds.RangeP99 head = s.closed().serviceP99Between(first, first + k);
        ClosedSeconds.RangeP99 tail = s.closed().serviceP99Between(last - k + 1, last + 1);
        if (head.count() == 0 || tail.count() == 0) {
            return null;
        }
        return new Thirds(first, first + k, last - k + 1, last + 1, head.p99Us(), tail.p99Us());
    }

    /** The drift ratio of the scenario, or null when it cannot be measured. */
    public static Double drift(ScenarioSeconds s) {
        Thirds t = thirds(s);
        return t == null ? null : t.ratio();
    }

    /** The two thirds: second ranges {@code [start, end)} and their p99 service time, µs. */
    public record Thirds(long firstStartSec, long firstEndSec, long lastStartSec, long lastEndSec, long firstP99Us,
                         long lastP99Us) {
        /** last / first (infinite when the first third's p99 is 0). */
        public double ratio() {
            return firstP99Us == 0 ? Double.POSITIVE_INFINITY : (double) lastP99Us / firstP99Us;
        }
    }
}
