package io.rigscope.benchmarks.generator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code bench generator}'s paired measurements ({@code --check}, {@code --server-timing-pairs},
 * {@code --spool-pairs}, {@code --kafka-pairs}): each pair's two runs (A, B) and the ratios B / A, the median over
 * the pairs, so that one noisy run moves them less than a ratio of sums would.
 */
public final class BenchPairs {

    private BenchPairs() {
    }

    /**
     * Pairs of runs (A, B) under the names {@code a} and {@code b}, then under {@code ratioKey} the ratios B / A:
     * CPU per request (the process's, the generator's threads', their user part), send lag p99, service p99 (and
     * p50 with {@code withP50}).
     */
    public static Map<String, Object> figures(List<BenchResult[]> pairs, String a, String b, String ratioKey,
                                       boolean withP50, double tolerance) {
        Map<String, Object> m = new LinkedHashMap<>();
        List<Map<String, Object>> runs = new ArrayList<>();
        for (BenchResult[] pair : pairs) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put(a, runFigures(pair[0], tolerance));
            p.put(b, runFigures(pair[1], tolerance));
            runs.add(p);
        }
        m.put("pairs", runs);
        Map<String, Object> ratios = new LinkedHashMap<>();
        ratios.put("cpu_us_per_request", ratio(pairs, BenchResult::cpuUsPerRequest));
        ratios.put("generator_threads_cpu_us_per_request", ratio(pairs, BenchResult::generatorCpuUsPerRequest));
        ratios.put("user_cpu_us_per_request", ratio(pairs, BenchResult::userUsPerRequest));
        ratios.put("lag_p99_ms", ratio(pairs, BenchResult::lagP99Ms));
        if (withP50) {
            ratios.put("service_p50_ms", ratio(pairs, BenchResult::serviceP50Ms));
        }
        ratios.put("service_p99_ms", ratio(pairs, BenchResult::serviceP99Ms));
        m.put(ratioKey, ratios);
        return m;
    }

    private static Map<String, Object> runFigures(BenchResult r, double tolerance) {
        Map<String, Object> all = r.toMap();
        Map<String, Object> m = new LinkedHashMap<>();
        for (String key : List.of("offered_rate", "dropped", "failed", "lag_p50_ms", "lag_p99_ms", "service_p50_ms",
                "service_p99_ms", "cpu_pct", "cpu_us_per_request", "generator_threads_cpu_us_per_request",
                "user_cpu_us_per_request")) {
            m.put(key, all.get(key));
        }
        m.put("holds", r.held(tolerance));
        return m;
    }

    /** The median over the pairs of {@code figure} B / A. */
    public static Double ratio(List<BenchResult[]> pairs, ToDoubleFunction<BenchResult> figure) {
        double[] ratios = new double[pairs.size()];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = figure.applyAsDouble(pairs.get(i)[1]) / figure.applyAsDouble(pairs.get(i)[0]);
        }
        Arrays.sort(ratios);
        int n = ratios.length;
        return round3(n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2);
    }

    /** Three decimals, or null (JSON null) for NaN or infinity. */
    public static Double round3(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? null : Math.round(v * 1000) / 1000.0;
    }
}
