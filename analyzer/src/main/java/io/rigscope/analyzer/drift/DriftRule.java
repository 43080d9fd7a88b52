package io.rigscope.analyzer.drift;

import io.rigscope.analyzer.second.ClosedSeconds;
import io.rigscope.analyzer.second.ScenarioSeconds;

/**
 * The drift rule: with n seconds from a scenario's first closed second to its last, k = n / 3 (rounded down);
 * the first third is {@code [first, first + k)}, the last third {@code [last - k + 1, last]}; drift is the p99
 * service time of the last third over that of the first. Not measurable (null) when k is 0 or either third holds
 * no request. The drift the requests <i>show</i> ({@link Thirds#shown()}) is the least the ratio can be at 95 %:
 * the last third's p99 at its lowest over the first third's at its highest. Gated by
 * {@link io.rigscope.analyzer.gate.DriftGate}; noted beside ladder rungs. Pure.
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
        return new Thirds(first, first + k, last - k + 1, last + 1, head, tail);
    }

    /** The two thirds: second ranges {@code [start, end)} and their requests' p99 service time with its bounds. */
    public record Thirds(long firstStartSec, long firstEndSec, long lastStartSec, long lastEndSec,
                         ClosedSeconds.RangeP99 first, ClosedSeconds.RangeP99 last) {

        /** The first third's p99, µs. */
        public long firstP99Us() {
            return first.p99Us();
        }

        /** The last third's p99, µs. */
        public long lastP99Us() {
            return last.p99Us();
        }

        /** last / first (infinite when the first third's p99 is 0). */
        public double ratio() {
            return first.p99Us() == 0 ? Double.POSITIVE_INFINITY : (double) last.p99Us() / first.p99Us();
        }

        /**
         * The drift the requests show at 95 %: the last third's p99 at the least it can be over the first third's at
         * the most ({@code p99LowUs / p99HighUs}). Never above {@link #ratio()}. With too few requests in the first
         * third to bound its p99 from above (fewer than 368) its slowest request stands in for the bound.
         */
        public double shown() {
            return first.p99HighUs() == 0 ? Double.POSITIVE_INFINITY : (double) last.p99LowUs() / first.p99HighUs();
        }
    }
}
