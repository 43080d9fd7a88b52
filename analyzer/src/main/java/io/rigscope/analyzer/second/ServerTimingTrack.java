package io.rigscope.analyzer.second;

import io.rigscope.analyzer.decision.Decision.SecondTiming;
import io.rigscope.analyzer.decision.Decision.TimingFigure;
import io.rigscope.analyzer.decision.Decision.Worst;
import io.rigscope.model.wire.LatencySettings;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.ServerTiming;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

/**
 * What one scenario's responses said of the service's own time ({@code Server-Timing}) over a repeat: per metric
 * name, a histogram of its durations (µs, 3 significant digits) for the repeat's figures; per second (cut by
 * {@code t2}, as every second is), a coarser histogram per name (1 significant digit, about 1.4 KB each: a panel's
 * resolution) and the slowest request of the second with its own timing, which is what attribution looks at.
 * Samples without timing are not counted here.
 *
 * <p>Mutable; one owner thread (the analysis).
 */
public final class ServerTimingTrack {

    private final Map<String, Histogram> byName = new LinkedHashMap<>();
    private final TreeMap<Long, Second> bySecond = new TreeMap<>();
    private long samples;

    private static final class Second {
        final Map<String, IntCountsHistogram> byName = new LinkedHashMap<>();
        Worst worst;
    }

    /** Records the sample's timing (nothing when it has none). */
    public void record(Sample s) {
        ServerTiming t = s.serverTiming();
        if (t.isEmpty()) {
            return;
        }
        samples++;
        long sec = Math.floorDiv(s.t2(), 1_000_000L);
        Second second = bySecond.computeIfAbsent(sec, k -> new Second());
        for (int i = 0; i < t.size(); i++) {
            long us = Math.min(t.durUs(i), LatencySettings.HIGHEST_US);
            Latency.record(byName.computeIfAbsent(t.name(i), n -> Latency.newHistogram()), us);
            second.byName.computeIfAbsent(t.name(i), n -> new IntCountsHistogram(LatencySettings.HIGHEST_US, 1))
                    .recordValue(us);
        }
        if (second.worst == null || s.serviceUs() > second.worst.serviceUs()) {
            second.worst = new Worst(sec, s.serviceUs(), t);
        }
    }

    /** Samples that carried timing. */
    public long samples() {
        return samples;
    }

    /** Per name, in first-appearance order: p50 and p99 over the repeat; empty when no sample carried timing. */
    public Map<String, TimingFigure> figures() {
        Map<String, TimingFigure> out = new LinkedHashMap<>();
        byName.forEach((name, h) -> out.put(name, figure(h)));
        return Collections.unmodifiableMap(out);
    }

    /** Per second (ascending), per name: p50 and p99 of that second (1 significant digit). */
    public NavigableMap<Long, Map<String, TimingFigure>> figuresBySecond() {
        TreeMap<Long, Map<String, TimingFigure>> out = new TreeMap<>();
        bySecond.forEach((sec, s) -> {
            Map<String, TimingFigure> m = new LinkedHashMap<>();
            s.byName.forEach((name, h) -> m.put(name, figure(h)));
            out.put(sec, Collections.unmodifiableMap(m));
        });
        return Collections.unmodifiableNavigableMap(out);
    }

    /** What the service said of second {@code sec}, or null when no request that ended in it carried timing. */
    public SecondTiming second(long sec) {
        Second s = bySecond.get(sec);
        if (s == null) {
            return null;
        }
        Map<String, TimingFigure> m = new LinkedHashMap<>();
        s.byName.forEach((name, h) -> m.put(name, figure(h)));
        return new SecondTiming(m, s.worst);
    }

    /** The slowest request of each second in {@code [startSec, endSec)} that carried timing, ascending. */
    public List<Worst> worst(long startSec, long endSec) {
        List<Worst> out = new ArrayList<>();
        for (Second s : bySecond.subMap(startSec, true, endSec, false).values()) {
            out.add(s.worst);
        }
        return out;
    }

    private static TimingFigure figure(org.HdrHistogram.AbstractHistogram h) {
        return new TimingFigure(ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(99)));
    }

    private static double ms(long us) {
        return Math.round(us) / 1000.0;
    }

}
