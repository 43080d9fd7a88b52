package io.rigscope.analyzer.gate;

import io.rigscope.analyzer.drift.DriftRule;
import java.util.Locale;

/**
 * {@code drift}: the requests do not show the p99 of the last third above {@code drift_bound} times the p99 of the
 * first third ({@link DriftRule}). The value is the measured ratio; the gate fails when the ratio the requests show
 * at 95 % ({@link DriftRule.Thirds#shown()}: the last third's p99 at its least over the first's at its most) is
 * above the bound. A ratio above the bound that its requests do not show (too few of them beyond the p99 to tell it
 * from chance) passes, and says so in its reason. A drift that cannot be measured fails.
 */
public final class DriftGate implements Gate {

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
        return "the requests show (95 %) p99 of the last third / p99 of the first third > " + bound
                + " (drift_bound): fails; unmeasurable fails";
    }

    @Override
    public GateResult evaluate(RepeatFacts facts) {
        DriftRule.Thirds t = facts.driftThirds();
        if (t == null) {
            return new GateResult(name(), false, null, bound);
        }
        double ratio = t.ratio();
        double shown = t.shown();
        boolean pass = shown <= bound;
        String reason = ratio <= bound ? null : (pass ? "within chance: " : "") + evidence(t, shown);
        return new GateResult(name(), pass, Gate.round(ratio, 4), bound, reason);
    }

    /** The two p99s with their bounds and the requests behind them, and the ratio they show. */
    static String evidence(DriftRule.Thirds t, double shown) {
        return String.format(Locale.ROOT, "last third p99 %s ms (at least %s) of %d requests, first third %s ms (at most"
                        + " %s%s) of %d: at 95 %% the drift is at least %.4f",
                ms(t.lastP99Us()), ms(t.last().p99LowUs()), t.last().count(), ms(t.firstP99Us()),
                ms(t.first().p99HighUs()), t.first().highBounded() ? "" : ", its slowest request: too few to bound",
                t.first().count(), shown);
    }

    private static String ms(long us) {
        return String.format(Locale.ROOT, "%.3f", us / 1000.0);
    }
}
