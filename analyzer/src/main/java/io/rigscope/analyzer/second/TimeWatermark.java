package io.rigscope.analyzer.second;

import java.util.Map;

/**
 * The time watermark of one time-closed source in one repeat ({@link SecondClosing.ByTime}), shared by the
 * repeat's scenarios: the latest sample end seen from the source, and its end of stream.
 *
 * <p>Second S has <em>passed</em> once a sample of the source ended at or after S's end plus the lateness. A
 * sample arriving for a second that has passed is late. Whether a sample is late depends only on the source's
 * samples before it (one source stays in one partition, in order), never on how the records were batched, so a
 * replay finds the late samples the live run found. Not thread-safe: one owner.
 */
public final class TimeWatermark {

    private final long latenessUs;
    private long maxEndUs = Long.MIN_VALUE;
    private Map<String, Long> published;
    private boolean ended;

    /** @param closing the source's declared mode */
    public TimeWatermark(SecondClosing.ByTime closing) {
        this.latenessUs = closing.latenessUs();
    }

    /** The lateness, µs. */
    public long latenessUs() {
        return latenessUs;
    }

    /** True when second {@code sec} (epoch seconds) has passed: no sample of it is expected any more. */
    public boolean passed(long sec) {
        return maxEndUs != Long.MIN_VALUE && maxEndUs >= (sec + 1) * 1_000_000L + latenessUs;
    }

    /** Moves the watermark with a sample's end, epoch µs (it never moves back). */
    public void advance(long endUs) {
        if (endUs > maxEndUs) {
            maxEndUs = endUs;
        }
    }

    /**
     * The source's REPEAT_END: its stream has ended.
     *
     * @param publishedByScenario the samples it published per scenario, or null when it did not say
     */
    public void end(Map<String, Long> publishedByScenario) {
        ended = true;
        published = publishedByScenario == null ? null : Map.copyOf(publishedByScenario);
    }

    /**
     * True when the stream ended and {@code seen} samples of {@code scenario} are all it published (every sample
     * counted, late ones too); true at the end when the source did not say how many it published.
     */
    public boolean allSeen(String scenario, long seen) {
        return ended && (published == null || seen >= published.getOrDefault(scenario, 0L));
    }
}
