package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Joins freeze-seconds and windows into episodes: each freeze-second S is the span [S, S+1), each window its
 * buckets' span; spans are sorted by start and one joins the previous episode when it starts no more than
 * {@code gapSec} seconds after that episode's end. Pure.
 */
final class EpisodeJoiner {

    private EpisodeJoiner() {
    }

    /** One input span. */
    public record Span(long startSec, long endSec, boolean window, int buckets, double worstMs) {
    }

    /** The joined episodes, unattributed, with the spans' facts as evidence. */
    public static List<Episode> join(int rep, List<Span> spans, int gapSec) {
        List<Span> sorted = new ArrayList<>(spans);
        sorted.sort(Comparator.comparingLong(Span::startSec).thenComparingLong(Span::endSec));
        List<Episode> out = new ArrayList<>();
        List<Span> current = new ArrayList<>();
        long end = Long.MIN_VALUE;
        for (Span s : sorted) {
            if (!current.isEmpty() && s.startSec() - end > gapSec) {
                out.add(episode(rep, current));
                current.clear();
            }
            current.add(s);
            end = current.size() == 1 ? s.endSec() : Math.max(end, s.endSec());
        }
        if (!current.isEmpty()) {
            out.add(episode(rep, current));
        }
        return out;
    }

    private static Episode episode(int rep, List<Span> spans) {
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        int freezes = 0;
        int buckets = 0;
        double worst = 0;
        double worstFreeze = 0;
        List<Evidence> evidence = new ArrayList<>();
        for (Span s : spans) {
            start = Math.min(start, s.startSec());
            end = Math.max(end, s.endSec());
            worst = Math.max(worst, s.worstMs());
            if (s.window()) {
                buckets += s.buckets();
                evidence.add(new Evidence("rig.samples", "window " + s.startSec() + "-" + s.endSec() + ": "
                        + s.buckets() + " buckets, worst bucket p99 " + s.worstMs() + " ms"));
            } else {
                freezes++;
                worstFreeze = Math.max(worstFreeze, s.worstMs());
            }
        }
        if (freezes > 0) {
            evidence.add(0, new Evidence("rig.samples", freezes + " freeze-second(s), worst request " + worstFreeze
                    + " ms"));
        }
        return new Episode(rep, start, end, freezes, buckets, worst, Cause.UNATTRIBUTED, Confidence.UNATTRIBUTED,
                evidence, List.of(), null);
    }
}
