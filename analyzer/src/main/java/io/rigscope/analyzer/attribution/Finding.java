package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import java.util.List;
import java.util.Objects;

/**
 * What one rule found for one episode: its cause, how sure it is on its own (before the controls), the evidence
 * it used and the defining streams it lacked.
 *
 * @param cause the rule's cause
 * @param confidence {@link Confidence#ATTRIBUTED} when its defining evidence is present, {@link Confidence#MOST_LIKELY}
 *     when the fingerprint fits but a defining stream is missing or ambiguous
 * @param evidence the facts, in order
 * @param lacking defining streams that had no record over the episode
 * @param coarse true when its defining measure is a 60-s aggregate (a CloudWatch datapoint) that cannot place itself
 *     in the episode's seconds: such a finding never outranks one from per-second or per-event evidence
 * @param partial true when its defining stall is shorter than {@code attribution_cover_share} of the episode's
 *     worst request (a 206-ms generator pause in a 62-s episode): it disturbed the episode but cannot explain it,
 *     and never outranks a finding of the same confidence that can
 * @param share the share of the episode's worst request its measured stall or wait spans (a generator pause, the
 *     service's process stopped, a request's wait for a pooled connection), or -1 when the finding measures no
 *     duration of its own (a wait event's presence, a file count, a logged vacuum): ranking reads it
 *     ({@link Attribution})
 */
record Finding(Cause cause, Confidence confidence, List<Evidence> evidence, List<String> lacking,
                      boolean coarse, boolean partial, double share) {

    /** A finding from per-second or per-event evidence, measuring no duration. */
    public Finding(Cause cause, Confidence confidence, List<Evidence> evidence, List<String> lacking) {
        this(cause, confidence, evidence, lacking, false, false, -1);
    }

    /** A finding that is coarse or not, never partial, measuring no duration. */
    public Finding(Cause cause, Confidence confidence, List<Evidence> evidence, List<String> lacking, boolean coarse) {
        this(cause, confidence, evidence, lacking, coarse, false, -1);
    }

    /** A finding that is coarse or partial or not, measuring no duration. */
    public Finding(Cause cause, Confidence confidence, List<Evidence> evidence, List<String> lacking, boolean coarse,
                   boolean partial) {
        this(cause, confidence, evidence, lacking, coarse, partial, -1);
    }

    /** This finding with the share of the worst request its measured stall spans ({@code -1}: none measured). */
    public Finding explaining(double share) {
        return new Finding(cause, confidence, evidence, lacking, coarse, partial, share);
    }

    public Finding {
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(confidence, "confidence");
        evidence = List.copyOf(evidence);
        lacking = List.copyOf(lacking);
    }

    /** This finding with its confidence lowered to at most {@code cap}, and a fact saying why. */
    public Finding capped(Confidence cap, Evidence why) {
        if (confidence.compareTo(cap) >= 0) {
            return this;
        }
        List<Evidence> more = new java.util.ArrayList<>(evidence);
        more.add(why);
        return new Finding(cause, cap, more, lacking, coarse, partial, share);
    }

    /** This finding with one more fact (e.g. the control a substitute met), its confidence unchanged. */
    public Finding noted(Evidence fact) {
        List<Evidence> more = new java.util.ArrayList<>(evidence);
        more.add(fact);
        return new Finding(cause, confidence, more, lacking, coarse, partial, share);
    }
}
