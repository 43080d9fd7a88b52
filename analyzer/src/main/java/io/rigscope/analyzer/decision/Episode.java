package io.rigscope.analyzer.decision;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A tail episode: a run of freeze-seconds and/or window buckets of one repeat, small gaps joined, with the
 * cause named by an {@link Attributor}, its confidence, the evidence used and the streams that were lacking.
 *
 * @param rep the repeat
 * @param startSec first second, epoch seconds, inclusive
 * @param endSec end, epoch seconds, exclusive
 * @param freezeSeconds freeze-seconds inside it
 * @param windowBuckets window buckets inside it
 * @param worstMs the worst service time among its freeze-seconds and the worst bucket p99 of its windows, ms
 * @param cause the cause
 * @param confidence how sure
 * @param evidence the facts used, in order
 * @param missing streams the attribution would have used but had no data from
 * @param secondary a second cause seen at the same time (e.g. a vacuum during a WAL refill), or null
 * @param lever what to change, computed from this episode's evidence (docs/attribution.md, Levers); null while
 *     the episode has no cause (unattributed, or not yet attributed)
 * @param missingSilentSinceSec of the {@code missing} streams, those that had been publishing and fell silent before
 *                              the episode ended -> the first second they were silent (the one after their last
 *                              record), epoch s; JSON {@code missing_silent_since}, absent when empty
 */
@WireView
@JsonPropertyOrder({"rep", "start", "end", "freeze_seconds", "window_buckets", "worst_ms", "cause", "confidence",
    "evidence", "missing", "missing_silent_since", "secondary_cause", "lever", "evidence_items"})
public record Episode(@JsonProperty("rep") int rep, @JsonProperty("start") long startSec,
                      @JsonProperty("end") long endSec, @JsonProperty("freeze_seconds") int freezeSeconds,
                      @JsonProperty("window_buckets") int windowBuckets, @JsonProperty("worst_ms") double worstMs,
                      Cause cause, Confidence confidence, @JsonProperty("evidence_items") List<Evidence> evidence,
                      @JsonProperty("missing") List<String> missing, Cause secondary,
                      @JsonProperty("lever") @JsonInclude(JsonInclude.Include.NON_NULL) Lever lever,
                      @JsonProperty("missing_silent_since") @JsonInclude(JsonInclude.Include.NON_EMPTY)
                      Map<String, Long> missingSilentSinceSec) {

    private static final DateTimeFormatter HH_MM_SS = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    public Episode {
        if (endSec <= startSec) {
            throw new IllegalArgumentException("episode end " + endSec + " must be after start " + startSec);
        }
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(confidence, "confidence");
        evidence = List.copyOf(evidence);
        missing = List.copyOf(missing);
        missingSilentSinceSec = missingSilentSinceSec == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(missingSilentSinceSec));
    }

    /** This episode with the seconds its missing streams fell silent (missing stream -> epoch s). */
    public Episode withMissingSilentSince(Map<String, Long> sinceSec) {
        return new Episode(rep, startSec, endSec, freezeSeconds, windowBuckets, worstMs, cause, confidence, evidence,
                missing, secondary, lever, sinceSec);
    }

    /** The missing streams in one line: {@code rig.waits (silent since 12:00:31), rig.os}; "-" when none. */
    public String missingLine() {
        if (missing.isEmpty()) {
            return "-";
        }
        return String.join(", ", missing.stream().map(m -> missingSilentSinceSec.containsKey(m)
                ? m + " (silent since " + HH_MM_SS.format(Instant.ofEpochSecond(missingSilentSinceSec.get(m))) + ")"
                : m).toList());
    }

    /** An episode without a lever (before its cause is named), none of whose missing streams is known silent. */
    public Episode(int rep, long startSec, long endSec, int freezeSeconds, int windowBuckets, double worstMs,
                   Cause cause, Confidence confidence, List<Evidence> evidence, List<String> missing, Cause secondary) {
        this(rep, startSec, endSec, freezeSeconds, windowBuckets, worstMs, cause, confidence, evidence, missing,
                secondary, null, Map.of());
    }

    /**
     * This episode with a cause and confidence, more evidence appended and more lacking streams added (what an
     * {@link Attributor} returns).
     */
    public Episode attributed(Cause newCause, Confidence newConfidence, List<Evidence> moreEvidence,
                              List<String> missingStreams) {
        List<Evidence> all = new ArrayList<>(evidence);
        all.addAll(moreEvidence);
        List<String> lacking = new ArrayList<>(missing);
        missingStreams.stream().filter(m -> !lacking.contains(m)).forEach(lacking::add);
        return new Episode(rep, startSec, endSec, freezeSeconds, windowBuckets, worstMs, newCause, newConfidence, all,
                lacking, secondary, lever, missingSilentSinceSec);
    }

    /** This episode with a secondary cause (null for none). */
    public Episode withSecondary(Cause second) {
        return new Episode(rep, startSec, endSec, freezeSeconds, windowBuckets, worstMs, cause, confidence, evidence,
                missing, second, lever, missingSilentSinceSec);
    }

    /** This episode with its lever (null for none). */
    public Episode withLever(Lever computed) {
        return new Episode(rep, startSec, endSec, freezeSeconds, windowBuckets, worstMs, cause, confidence, evidence,
                missing, secondary, computed, missingSilentSinceSec);
    }

    /** The evidence in one line, for consoles and tables. */
    public String evidenceLine() {
        return String.join("; ", evidence.stream().map(Evidence::text).toList());
    }

    @JsonProperty("cause")
    String wireCause() {
        return cause.code();
    }

    @JsonProperty("confidence")
    String wireConfidence() {
        return confidence.code();
    }

    @JsonProperty("evidence")
    List<String> wireEvidence() {
        return evidence.stream().map(Evidence::text).toList();
    }

    @JsonProperty("secondary_cause")
    String wireSecondary() {
        return secondary == null ? null : secondary.code();
    }

    /**
     * How sure an attribution is: {@link #ATTRIBUTED} (the defining evidence is present and the controls are
     * clean), {@link #MOST_LIKELY} (the fingerprint fits but a defining or control stream is missing or ambiguous)
     * or {@link #UNATTRIBUTED}. Ordered from surest to least sure.
     */
    public enum Confidence {
        ATTRIBUTED("attributed"), MOST_LIKELY("most_likely"), UNATTRIBUTED("unattributed");

        private final String code;

        Confidence(String code) {
            this.code = code;
        }

        /** As reports and verdicts write it. */
        public String code() {
            return code;
        }

        /** The less sure of this and {@code other}. */
        public Confidence atMost(Confidence other) {
            return compareTo(other) >= 0 ? this : other;
        }
    }
}
