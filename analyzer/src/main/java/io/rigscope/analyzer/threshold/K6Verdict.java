package io.rigscope.analyzer.threshold;

import io.rigscope.model.wire.K6Threshold;
import java.util.Objects;

/**
 * One k6 threshold judged over an imported run, as k6 judges it.
 *
 * @param key the gate's name, {@code metric{filter}: expression} as written (a {@code scenario} filter renamed by
 *            the scenario map), e.g. {@code http_req_duration{scenario:ingest}: p(95)<200}
 * @param value the aggregated value, or null when nothing could be judged
 * @param pass whether the threshold held; false whenever it could not be judged
 * @param reason why it could not be judged, or null when it was
 * @param points how many points the threshold covered
 * @param abortOnFail k6's {@code abortOnFail} on it
 * @param delayAbortEval k6's {@code delayAbortEval}, as written, or null
 * @param k6Pass k6's own verdict from its summary export, or null without one (or when the summary lacks it)
 */
public record K6Verdict(String key, Double value, boolean pass, String reason, long points, boolean abortOnFail,
                        String delayAbortEval, Boolean k6Pass) {

    public K6Verdict {
        Objects.requireNonNull(key, "key");
    }

    /** True when k6's summary gave a verdict and it differs from rigscope's. */
    public boolean disagrees() {
        return k6Pass != null && k6Pass != pass;
    }

    /** This verdict with k6's own beside it. */
    public K6Verdict withK6(Boolean k6) {
        return new K6Verdict(key, value, pass, reason, points, abortOnFail, delayAbortEval, k6);
    }

    /** As carried on the REPEAT_END marker ({@code k6_thresholds}). */
    public K6Threshold toWire() {
        return new K6Threshold(key, value, pass, reason, points, abortOnFail, delayAbortEval, k6Pass);
    }

    /** Reads {@link #toWire()}'s form back. */
    public static K6Verdict of(K6Threshold t) {
        return new K6Verdict(t.threshold(), t.value(), t.pass(), t.reason(), t.points(), t.abortOnFail(),
                t.delayAbortEval(), t.k6Pass());
    }
}
