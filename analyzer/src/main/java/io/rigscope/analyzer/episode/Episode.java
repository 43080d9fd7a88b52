package io.rigscope.analyzer.episode;

import java.util.ArrayList;
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
 */
public record Episode(int rep, long startSec, long endSec, int freezeSeconds, int windowBuckets, double worstMs,
                      Cause cause, Confidence confidence, List<Evidence> evidence, List<String> missing) {

    public Episode {
        if (endSec <= startSec) {
            throw new IllegalArgumentException("episode end " + endSec + " must be after start " + startSec);
        }
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(confidence, "confidence");
        evidence = List.copyOf(evidence);
        missing = List.copyOf(missing);
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
                lacking);
    }

    /** The report's and the EPISODE verdict's form. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rep", rep);
        m.put("start", startSec);
        m.put("end", endSec);
        m.put("freeze_seconds", freezeSeconds);
        m.put("window_buckets", windowBuckets);
        m.put("worst_ms", worstMs);
        m.put("cause", cause.code());
        m.put("confidence", confidence.code());
        m.put("evidence", evidence.stream().map(Evidence::text).toList());
        m.put("missing", missing);
        return m;
    }
}
