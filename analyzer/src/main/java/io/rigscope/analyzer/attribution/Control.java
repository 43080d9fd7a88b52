package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Evidence;
import java.util.Objects;

/**
 * The outcome of one control for one episode: met (by its own stream, or by a substitute the platform has, named
 * in {@code fact}) or not (and why, in {@code fact}). A control not met caps the causes it guards at
 * {@code most_likely}.
 *
 * @param met true when the control is met
 * @param substitute true when a substitute met it (then {@code fact} names which, and it is added to the evidence)
 * @param fact what met it, or why it is not met; null when met by its own stream (nothing more to say)
 */
record Control(boolean met, boolean substitute, Evidence fact) {

    Control {
        if (!met || substitute) {
            Objects.requireNonNull(fact, "fact");
        }
    }

    /** Met by the control's own stream (the generator's health, the disk canary). */
    static Control byOwnStream() {
        return new Control(true, false, null);
    }

    /** Met by a substitute, named in the fact. */
    static Control bySubstitute(Evidence fact) {
        return new Control(true, true, fact);
    }

    /** Not met, with why. */
    static Control notMet(Evidence why) {
        return new Control(false, false, why);
    }
}
