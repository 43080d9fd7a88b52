package io.rigscope.analyzer.second;

import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** One scenario's second while samples may still arrive. Single-threaded; owned by {@link ScenarioSeconds}. */
final class OpenSecond {
    final long sec;
    final Histogram serviceUs;
    final Histogram responseUs;
    long count;
    long failed;
    long slowCount;
    long maxServiceUs;
    /** Whether a provisional SECOND verdict was published for it. */
    boolean provisionalSent;
    /** Samples seen per generator, to compare with each generator's ledger. */
    final Map<String, long[]> seenByGenerator = new HashMap<>(4);

    OpenSecond(long sec, Histogram serviceUs, Histogram responseUs) {
        this.sec = sec;
        this.serviceUs = serviceUs;
        this.responseUs = responseUs;
    }

    long seen(String generator) {
        long[] n = seenByGenerator.get(generator);
        return n == null ? 0 : n[0];
    }

    void addSeen(String generator, long n) {
        seenByGenerator.computeIfAbsent(generator, g -> new long[1])[0] += n;
    }
}
