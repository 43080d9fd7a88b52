package io.rigscope.benchmarks.generator;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code bench generator --vs-wrk}: the search for the highest open-loop rate that holds. */
public final class BenchSearch {

    private BenchSearch() {
    }

    /**
     * Bisection over {@code [0, 1.2 × wrk's rate]}: {@code --search-steps} runs of {@code --step-duration}; each
     * step that holds raises the lower bound, each that does not lowers the upper one. Returns the lower bound:
     * the highest rate seen to hold.
     */
    public static double search(GeneratorBench bench, double wrkMax, Duration step, int searchSteps, double tolerance,
                         List<Map<String, Object>> steps) {
        double lo = 0;
        double hi = 1.2 * wrkMax;
        for (int i = 0; i < searchSteps; i++) {
            double mid = Math.round((lo + hi) / 2);
            BenchResult res = bench.run(mid, step);
            steps.add(stepMap(res, tolerance));
            if (res.held(tolerance)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static Map<String, Object> stepMap(BenchResult r, double tolerance) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target_rate", r.targetRate());
        m.put("offered_rate", Math.round(10 * r.offeredRate()) / 10.0);
        m.put("dropped", r.dropped());
        m.put("failed", r.failed());
        m.put("lag_p99_ms", r.toMap().get("lag_p99_ms"));
        m.put("cpu_us_per_request", r.toMap().get("cpu_us_per_request"));
        m.put("generator_threads_cpu_us_per_request", r.toMap().get("generator_threads_cpu_us_per_request"));
        m.put("holds", r.held(tolerance));
        System.err.printf(Locale.ROOT, "bench: step %.0f req/s -> offered %.1f, dropped %d, lag p99 %.3f ms: %s%n",
                r.targetRate(), r.offeredRate(), r.dropped(), r.lagP99Ms(), r.held(tolerance) ? "holds" : "does not hold");
        return m;
    }
}
