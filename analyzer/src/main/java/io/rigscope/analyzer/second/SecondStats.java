package io.rigscope.analyzer.second;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One scenario's second, cut by the requests' end ({@code t2}), once its samples are in.
 *
 * @param sec the second, epoch seconds
 * @param count requests that ended in it
 * @param failed of those, failed requests
 * @param slowCount of those, requests whose service time exceeded the slow threshold in force
 * @param maxServiceUs the worst service time, exact
 * @param p50ServiceUs median service time
 * @param p99ServiceUs 99th percentile service time
 * @param p99ResponseUs 99th percentile response time ({@code t2 - t0})
 * @param freeze whether the second is a freeze-second
 * @param exact true when the ledger watermark closed it; false when it was closed at the end of input
 */
public record SecondStats(long sec, long count, long failed, long slowCount, long maxServiceUs, long p50ServiceUs,
                          long p99ServiceUs, long p99ResponseUs, boolean freeze, boolean exact) {

    /** The body of a {@code SECOND} verdict. */
    public Map<String, Object> toBody() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("sec", sec);
        body.put("count", count);
        body.put("failed", failed);
        body.put("slow", slowCount);
        body.put("max_ms", Latency.ms(maxServiceUs));
        body.put("p50_ms", Latency.ms(p50ServiceUs));
        body.put("p99_ms", Latency.ms(p99ServiceUs));
        body.put("response_p99_ms", Latency.ms(p99ResponseUs));
        body.put("freeze", freeze);
        body.put("final", exact);
        return body;
    }
}
