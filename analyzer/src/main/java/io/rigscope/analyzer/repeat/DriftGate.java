package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.GateResult;
import java.util.Locale;

/**
 * {@code drift}: the p99 of the last third over the p99 of the first third ({@link DriftRule}) is at most
 * {@code drift_bound}, or the requests do not show it above (a few slow ones in the last third, by chance: the
 * one-sided {@link QuantileTest} at p > 0.05). The value is the ratio; a ratio above the bound says why it held or
 * failed in its reason. A drift that cannot be measured fails.
 */
final class DriftGate implements Gate {

    private final double bound;

    /** @param bound the setting {@code drift_bound} (default 1.5) */
    public DriftGate(double bound) {
        this.bound = bound;
    }

    @Override
    public String name() {
        return "drift";
    }

    @Override
    public String rule() {
        return "p99 of the last third / p99 of the first third <= " + bound + " (drift_bound), or above it by chance "
                + "(one-sided quantile test, p > " + QuantileTest.ALPHA + "); unmeasurable fails";
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        DriftRule.Thirds t = facts.driftThirds();
        if (t == null) {
            return new GateResult(name(), false, null, bound);
        }
        double ratio = t.ratio();
        Double value = Gate.round(ratio, 4);
        if (ratio <= bound) {
            return new GateResult(name(), true, value, bound);
        }
        QuantileTest test = t.test(bound);
        return new GateResult(name(), !test.shown(), value, bound, (test.shown() ? "" : "within chance: ")
                + evidence(t, test));
    }

    /** The two p99s, the requests above the pooled p99 in each third, and the test's p. */
    static String evidence(DriftRule.Thirds t, QuantileTest test) {
        return String.format(Locale.ROOT, "last third p99 %s ms of %d requests, first third %s ms of %d; %s %s ms "
                        + "(the p99 of both, the first third's times x %s): %d of the last third, %d of the first: "
                        + "p = %s (one-sided quantile test; shown at p <= %s)",
                ms(t.lastP99Us()), t.last().count(), ms(t.firstP99Us()), t.first().count(),
                test.inclusive() ? "at or above" : "above", ms(test.thresholdUs()),
                Gate.round(test.bound(), 4), test.lastAbove(), test.firstAbove(), p(test.pValue()), QuantileTest.ALPHA);
    }

    private static String ms(double us) {
        return String.format(Locale.ROOT, "%.3f", us / 1000.0);
    }

    private static String p(double p) {
        return p < 0.0001 ? String.format(Locale.ROOT, "%.1e", p) : String.format(Locale.ROOT, "%.4f", p);
    }
}
