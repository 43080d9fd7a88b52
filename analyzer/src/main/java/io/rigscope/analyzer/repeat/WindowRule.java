package io.rigscope.analyzer.repeat;

import io.rigscope.analyzer.decision.Window;
import io.rigscope.analyzer.second.ScenarioSeconds.ClosedSeconds.Bucket;
import java.util.ArrayList;
import java.util.List;

/**
 * The window rule: a window is {@code minBuckets} or more consecutive buckets (each starting where the
 * previous ended) whose p99 exceeds {@code factor} times the median of the repeat's bucket p99s. The median of
 * an even count is the mean of the two middle values. Pure.
 *
 * @param factor default 3
 * @param minBuckets default 2
 */
record WindowRule(double factor, int minBuckets) {

    /** The median bucket p99, µs; 0 when there are no buckets. */
    public static double medianP99Us(List<Bucket> buckets) {
        if (buckets.isEmpty()) {
            return 0;
        }
        long[] p99 = buckets.stream().mapToLong(Bucket::p99Us).sorted().toArray();
        int n = p99.length;
        return n % 2 == 1 ? p99[n / 2] : (p99[n / 2 - 1] + p99[n / 2]) / 2.0;
    }

    /** The windows among these buckets (in time order), in time order. */
    public List<Window> windows(List<Bucket> buckets) {
        double median = medianP99Us(buckets);
        double bar = factor * median;
        List<Window> out = new ArrayList<>();
        List<Bucket> run = new ArrayList<>();
        for (Bucket b : buckets) {
            boolean hot = b.p99Us() > bar;
            boolean adjacent = !run.isEmpty() && run.get(run.size() - 1).endSec() == b.startSec();
            if (!hot || (!run.isEmpty() && !adjacent)) {
                flush(run, median, out);
            }
            if (hot) {
                run.add(b);
            }
        }
        flush(run, median, out);
        return out;
    }

    private void flush(List<Bucket> run, double median, List<Window> out) {
        if (run.size() >= minBuckets) {
            long worst = run.stream().mapToLong(Bucket::p99Us).max().orElse(0);
            out.add(new Window(run.get(0).startSec(), run.get(run.size() - 1).endSec(), run.size(), worst, median));
        }
        run.clear();
    }
}
