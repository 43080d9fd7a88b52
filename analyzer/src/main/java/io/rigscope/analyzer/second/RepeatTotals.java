package io.rigscope.analyzer.second;

import io.rigscope.analyzer.decision.SecondClosing;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Sample;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One scenario's figures over a whole repeat: requests, failures by kind, the events it claims, exact mean, least
 * and worst service time, the first intended start and last end, and the service and response histograms of its
 * closed seconds. Single-threaded; fed by {@link ScenarioSeconds}.
 */
public final class RepeatTotals {

    private final Histogram serviceUs = Latency.newHistogram();
    private final Histogram responseUs = Latency.newHistogram();
    private long count;
    private long failed;
    private long sumServiceUs;
    private long minServiceUs = Long.MAX_VALUE;
    private long maxServiceUs;
    private long late;
    private long firstT0Us = Long.MAX_VALUE;
    private long lastT2Us = Long.MIN_VALUE;
    private long claimedEvents;
    private long claimedQty;
    private final EnumMap<ErrorKind, Long> errorsByKind = new EnumMap<>(ErrorKind.class);
    /** Events sent in failed requests, by error kind. */
    private final EnumMap<ErrorKind, Long> failedEventsByKind = new EnumMap<>(ErrorKind.class);

    /** A sample that entered its second, with its service time. */
    void recorded(Sample s, long serviceUs) {
        count++;
        account(s);
        firstT0Us = Math.min(firstT0Us, s.t0());
        lastT2Us = Math.max(lastT2Us, s.t2());
        sumServiceUs += serviceUs;
        minServiceUs = Math.min(minServiceUs, serviceUs);
        maxServiceUs = Math.max(maxServiceUs, serviceUs);
    }

    /** A time-closed source's sample for a second its watermark passed: counted, kept out of every second. */
    void late(Sample s) {
        late++;
        account(s);
    }

    /**
     * Its failure by kind, and its claim. A request claims its events only when it was answered 2xx and did not
     * fail: a 200 whose check failed claims nothing (the service may have stored none of it, or part of it;
     * reconciliation then shows what it stored).
     */
    private void account(Sample s) {
        if (s.failed()) {
            failed++;
            errorsByKind.merge(s.err(), 1L, Long::sum);
            failedEventsByKind.merge(s.err(), (long) s.batch(), Long::sum);
        } else if (s.status() >= 200 && s.status() < 300) {
            claimedEvents += s.batch();
            claimedQty += s.qty();
        }
    }

    /** A second closed: its histograms join the repeat's. */
    void addClosed(Histogram service, Histogram response) {
        serviceUs.add(service);
        responseUs.add(response);
    }

    /** A closed second reopened by a late sample: its histograms leave the repeat's until it closes again. */
    void removeClosed(Histogram service, Histogram response) {
        serviceUs.subtract(service);
        responseUs.subtract(response);
    }

    /** Requests recorded (late ones not included). */
    public long count() {
        return count;
    }

    /** Failed requests, late ones included. */
    public long failed() {
        return failed;
    }

    /** Samples of a time-closed source that came after the watermark passed their second (in no figure). */
    public long lateSamples() {
        return late;
    }

    /** Service time at a percentile over the repeat's closed seconds, µs; 0 when empty. */
    public long serviceAtPercentileUs(double percentile) {
        return Latency.percentileUs(serviceUs, percentile);
    }

    /** Adds the service times of the repeat's closed seconds to {@code into} (to pool scenarios). */
    public void addServiceTo(Histogram into) {
        into.add(serviceUs);
    }

    /** Response time ({@code t2 - t0}) at a percentile over the repeat's closed seconds, µs; 0 when empty. */
    public long responseAtPercentileUs(double percentile) {
        return Latency.percentileUs(responseUs, percentile);
    }

    /** Exact mean service time, µs; NaN when empty. */
    public double meanServiceUs() {
        return count == 0 ? Double.NaN : (double) sumServiceUs / count;
    }

    /** Exact least service time, µs; 0 when empty. */
    public long minServiceUs() {
        return count == 0 ? 0 : minServiceUs;
    }

    /** Exact worst service time, µs. */
    public long maxServiceUs() {
        return maxServiceUs;
    }

    /** The earliest intended start recorded, epoch µs ({@link Long#MAX_VALUE} when empty). */
    public long firstIntendedStartUs() {
        return firstT0Us;
    }

    /** The latest end recorded, epoch µs ({@link Long#MIN_VALUE} when empty). */
    public long lastEndUs() {
        return lastT2Us;
    }

    /**
     * Events in requests answered 2xx that passed their checks (Σ batch size of the 2xx samples that did not fail):
     * what the load claims the database stored.
     */
    public long claimedEvents() {
        return claimedEvents;
    }

    /** Σ quantity sent in requests answered 2xx that passed their checks. */
    public long claimedQty() {
        return claimedQty;
    }

    /** Failed requests by error kind, in {@link ErrorKind} order, only kinds seen (late samples included). */
    public Map<ErrorKind, Long> errorsByKind() {
        return Collections.unmodifiableMap(new EnumMap<>(errorsByKind));
    }

    /**
     * Events sent in failed requests by error kind (Σ batch size), in {@link ErrorKind} order, only kinds seen: the
     * events a request the client gave up on (timed out, reset) or judged failed (a 5xx, a failed check) may still
     * have stored.
     */
    public Map<ErrorKind, Long> failedEventsByKind() {
        return Collections.unmodifiableMap(new EnumMap<>(failedEventsByKind));
    }

    /**
     * The time watermark of one time-closed source in one repeat ({@link SecondClosing.ByTime}), shared by the
     * repeat's scenarios: the latest sample end seen from the source, and its end of stream.
     *
     * <p>Second S has <em>passed</em> once a sample of the source ended at or after S's end plus the lateness. A
     * sample arriving for a second that has passed is late. Whether a sample is late depends only on the source's
     * samples before it (one source stays in one partition, in order), never on how the records were batched, so a
     * replay finds the late samples the live run found. Not thread-safe: one owner.
     */
    public static final class TimeWatermark {

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
}
