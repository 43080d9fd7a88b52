package io.rigscope.analyzer.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Two series side by side (docs/compare.md): B (the treatment) against A (the control). The verdict:
 * <ul>
 *   <li>{@code not_comparable}: the environments differ in anything but the declared treatment (instance, volume,
 *       Postgres settings, PostgreSQL and rigscope versions, table rows beyond {@link #ROWS_BAND}), unless
 *       {@code crossRig};</li>
 *   <li>none, with the reason, when a side has fewer than {@link #MIN_REPEATS} judged repeats;</li>
 *   <li>else the exact permutation test on the per-repeat p99 (tied by {@link P99Ties}: within the latency
 *       histogram's resolution, or pinned at the request timeout) and on the per-repeat freeze-seconds:
 *       {@code worse} when either is higher in B at p at most {@link #ALPHA}, else {@code better} when either is
 *       lower in B at that level, else {@code no_difference}. When every p99 of both sides is pinned at the
 *       timeout, the p99 says so and the verdict rests on the freeze-seconds alone.</li>
 * </ul>
 *
 * @param a the control
 * @param b the treatment
 * @param crossRig true when asked to compare whatever the environments
 * @param treatment the Postgres settings declared as the treatment (they may differ)
 * @param differs what differs between the environments: {@code key: A -> B}
 * @param unrecorded keys one side recorded and the other did not (not counted as differences)
 * @param p99 the test on per-repeat p99 (on the tied values), or null without enough repeats
 * @param p99Ties the ties made before that test, or null when it was not run
 * @param freezeSeconds the test on per-repeat freeze-seconds, or null without enough repeats
 * @param verdict better, worse, no_difference, not_comparable, or null (no verdict)
 * @param why the verdict's reason in words
 */
public record Comparison(SeriesFigures a, SeriesFigures b, boolean crossRig, Set<String> treatment,
                         List<String> differs, List<String> unrecorded, ExactPermutationTest p99, P99Ties p99Ties,
                         ExactPermutationTest freezeSeconds, String verdict, String why) {

    /** The fewest judged repeats a side for a verdict: with 3 a side the exact test's smallest two-sided p is 0.1. */
    public static final int MIN_REPEATS = 3;
    /** The significance level: at 3 a side only a complete separation (p = 0.1) reaches it. */
    public static final double ALPHA = 0.10;
    /** Table rows may differ by this fraction of the larger count (or by at most 1,000 rows). */
    public static final double ROWS_BAND = 0.10;
    /** RAM ({@code mem_total_bytes}) may differ by this fraction: the same machine's MemTotal moves between boots. */
    public static final double MEM_BAND = 0.01;

    public Comparison {
        treatment = Set.copyOf(treatment);
        differs = List.copyOf(differs);
        unrecorded = List.copyOf(unrecorded);
    }

    /** Compares B against A. */
    public static Comparison of(SeriesFigures a, SeriesFigures b, boolean crossRig, Set<String> treatment) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Map<String, Object> ea = flatten(a.environment());
        Map<String, Object> eb = flatten(b.environment());
        List<String> differs = new ArrayList<>();
        List<String> unrecorded = new ArrayList<>();
        Set<String> keys = new TreeSet<>(ea.keySet());
        keys.addAll(eb.keySet());
        for (String k : keys) {
            if (ignored(k) || treatment.contains(k.startsWith("pg_settings.") ? k.substring(12) : k)) {
                continue;
            }
            Object va = ea.get(k);
            Object vb = eb.get(k);
            if (va == null || vb == null) {
                unrecorded.add(k + " (" + (va == null ? "not in A" : "not in B") + ")");
            } else if (k.startsWith("table_rows.") && va instanceof Number na && vb instanceof Number nb) {
                double x = na.doubleValue();
                double y = nb.doubleValue();
                if (Math.abs(x - y) > Math.max(1000, ROWS_BAND * Math.max(x, y))) {
                    differs.add(k + ": " + fmtRows(x) + " -> " + fmtRows(y) + " (beyond ±" + (int) (ROWS_BAND * 100)
                            + " %)");
                }
            } else if (k.equals("mem_total_bytes") && va instanceof Number na && vb instanceof Number nb) {
                // MemTotal moves by a few MB between boots of the same machine (the kernel's own reservations)
                if (Math.abs(na.doubleValue() - nb.doubleValue()) > MEM_BAND * Math.max(na.doubleValue(),
                        nb.doubleValue())) {
                    differs.add(k + ": " + va + " -> " + vb + " (beyond ±" + (int) (MEM_BAND * 100) + " %)");
                }
            } else if (!String.valueOf(va).equals(String.valueOf(vb))) {
                differs.add(k + ": " + va + " -> " + vb);
            }
        }
        if (a.environment().isEmpty() || b.environment().isEmpty()) {
            differs.add("environment: " + (a.environment().isEmpty() ? "A" : "B") + " recorded none (no ENVIRONMENT "
                    + "marker): the rigs cannot be shown to be the same");
        }
        ExactPermutationTest p99 = null;
        P99Ties ties = null;
        ExactPermutationTest freezes = null;
        int na = a.repeats().size();
        int nb = b.repeats().size();
        if (na >= 1 && nb >= 1 && na + nb <= ExactPermutationTest.MAX_VALUES) {
            ties = P99Ties.of(a, b);
            p99 = ExactPermutationTest.of(ties.a(), ties.b());
            freezes = ExactPermutationTest.of(freezeSecondsOf(a), freezeSecondsOf(b));
        }
        String verdict;
        String why;
        if (!differs.isEmpty() && !crossRig) {
            verdict = "not_comparable";
            why = "the environments differ in " + differs.size() + " fact(s) beyond the treatment: "
                    + String.join("; ", differs) + " (--cross-rig compares anyway)";
        } else if (na < MIN_REPEATS || nb < MIN_REPEATS) {
            verdict = null;
            why = "no verdict: " + na + " judged repeat(s) in A, " + nb + " in B; at least " + MIN_REPEATS + " a side "
                    + "are needed (the exact test's smallest two-sided p is " + fmtP(ExactPermutationTest.floor(
                    Math.min(Math.max(na, 1), 23), Math.min(Math.max(nb, 1), 23))) + " with these counts, 0.1 at 3 a "
                    + "side, the least that can reach p <= " + ALPHA + ")";
        } else {
            boolean worse = significant(p99, 1) || significant(freezes, 1);
            boolean better = significant(p99, -1) || significant(freezes, -1);
            verdict = worse ? "worse" : better ? "better" : "no_difference";
            String p99Part = ties.allPinned()
                    ? "p99 pinned at the request timeout in every repeat of both sides (more than 1 % of requests "
                    + "timed out), so it measures the timeout, not the treatment: the verdict rests on the "
                    + "freeze-seconds"
                    : "p99 p = " + fmtP(p99.pValue()) + " (mean A " + ms(p99.meanA()) + ", B " + ms(p99.meanB())
                    + (ties.ties().isEmpty() ? "" : ", with ties") + ")";
            why = (worse ? "higher in B" : better ? "lower in B" : ties.allPinned() ? "freeze-seconds do not differ"
                    : "neither p99 nor freeze-seconds differ")
                    + " at p <= " + ALPHA + ": " + p99Part + ", freeze-seconds p = " + fmtP(freezes.pValue()) + " (mean A "
                    + String.format(Locale.ROOT, "%.1f", freezes.meanA()) + ", B "
                    + String.format(Locale.ROOT, "%.1f", freezes.meanB()) + ")"
                    + (worse && better ? "; one measure is better and the other worse: worse wins" : "");
        }
        return new Comparison(a, b, crossRig, treatment, differs, unrecorded, p99, ties, freezes, verdict, why);
    }

    /**
     * The p-value that decided the verdict: for {@code worse} (or {@code better}) the smaller p of the tests that
     * found B higher (lower) at {@link #ALPHA}; otherwise the smaller of the two tests' p (the closest either came);
     * null when the tests were not run.
     */
    public Double pValue() {
        if (p99 == null || freezeSeconds == null) {
            return null;
        }
        int sign = "worse".equals(verdict) ? 1 : "better".equals(verdict) ? -1 : 0;
        double p = Double.NaN;
        for (ExactPermutationTest t : List.of(p99, freezeSeconds)) {
            if (sign == 0 || significant(t, sign)) {
                p = Double.isNaN(p) ? t.pValue() : Math.min(p, t.pValue());
            }
        }
        return p;
    }

    private static boolean significant(ExactPermutationTest t, int sign) {
        return t != null && t.pValue() <= ALPHA + 1e-12 && Math.signum(t.meanB() - t.meanA()) == sign;
    }

    private static double[] freezeSecondsOf(SeriesFigures s) {
        return s.repeats().stream().mapToDouble(SeriesFigures.Repeat::freezeSeconds).toArray();
    }

    /** True when every p99 of both sides is pinned at the request timeout ({@link P99Ties#allPinned()}). */
    public boolean p99PinnedAtTimeout() {
        return p99Ties != null && p99Ties.allPinned();
    }

    /** Facts that differ by design between two runs of one rig: a private cluster's path, the price. */
    private static boolean ignored(String key) {
        return key.equals("disk.path") || key.equals("cost_per_hour");
    }

    /** {@code disk.device}, {@code pg_settings.min_wal_size}, {@code table_rows.public.usage_events}. */
    static Map<String, Object> flatten(Map<String, Object> env) {
        Map<String, Object> out = new TreeMap<>();
        env.forEach((k, v) -> {
            if (v instanceof Map<?, ?> m) {
                m.forEach((k2, v2) -> out.put(k + "." + k2, v2));
            } else {
                out.put(k, v);
            }
        });
        return out;
    }

    /** The console's lines; with {@code crossRig} every line says so. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add("A: " + a.series() + " (" + a.source() + "): " + a.verdict() + ", " + a.headline());
        out.add("B: " + b.series() + " (" + b.source() + "): " + b.verdict() + ", " + b.headline());
        out.add(String.format(Locale.ROOT, "%-8s %10s %10s %9s %15s %8s %s", "repeat", "p50 ms", "p99 ms",
                "freeze-s", "worst 10-s p99", "dropped", "gates"));
        for (var side : List.of(a, b)) {
            String tag = side == a ? "A" : "B";
            for (SeriesFigures.Repeat r : side.repeats()) {
                out.add(String.format(Locale.ROOT, "%-8s %10.3f %10.3f %9d %15s %8d %s", tag + " rep " + r.rep(),
                        r.p50Ms(), r.p99Ms(), r.freezeSeconds(),
                        r.worst10sP99Ms() == null ? "-" : String.format(Locale.ROOT, "%.3f", r.worst10sP99Ms()),
                        r.dropped(), r.pass() ? "PASS" : "FAIL"));
            }
        }
        out.add("freeze-seconds by cause: A " + byCause(a) + "; B " + byCause(b));
        out.add("worst 10-s p99: A " + ms(a.worst10sP99Ms()) + ", B " + ms(b.worst10sP99Ms()) + "; dropped: A "
                + a.dropped() + ", B " + b.dropped() + "; passed: A " + a.passed() + "/" + a.repeats().size() + ", B "
                + b.passed() + "/" + b.repeats().size());
        counted(a.episodeLevers()).forEach((l, n) -> out.add("lever A " + l + (n > 1 ? " (" + n + " episodes)" : "")));
        counted(b.episodeLevers()).forEach((l, n) -> out.add("lever B " + l + (n > 1 ? " (" + n + " episodes)" : "")));
        out.add("environment: " + (differs.isEmpty() ? "same" + (treatment.isEmpty() ? ""
                : " but the treatment (" + String.join(", ", new TreeSet<>(treatment)) + ")")
                + " (instance, volume, Postgres settings and version, rigscope version, table rows within ±"
                + (int) (ROWS_BAND * 100) + " %)" : "differs: " + String.join("; ", differs)));
        if (!unrecorded.isEmpty()) {
            out.add("not recorded on both sides (not compared): " + String.join(", ", unrecorded));
        }
        if (p99 != null) {
            p99Ties.ties().forEach(t -> out.add("p99 tie: " + t));
            out.add("p99: " + (p99Ties.allPinned() ? "pinned_at_timeout (every repeat of both sides), no test of "
                    + "it decides; " : p99Ties.ties().isEmpty() ? "" : "on the tied values, ") + testLine(p99, true));
            out.add("freeze-seconds: " + testLine(freezeSeconds, false));
        }
        out.add("verdict: " + (verdict == null ? "none" : verdict) + " (" + why + ")");
        if (crossRig) {
            return out.stream().map(l -> "[cross-rig] " + l).toList();
        }
        return out;
    }

    private static String testLine(ExactPermutationTest t, boolean msUnit) {
        return t.name() + ", " + t.arrangements() + " arrangements, " + t.atLeastAsExtreme()
                + " at least as extreme: p = " + fmtP(t.pValue()) + "; mean A " + (msUnit ? ms(t.meanA())
                : String.format(Locale.ROOT, "%.2f", t.meanA())) + ", B " + (msUnit ? ms(t.meanB())
                : String.format(Locale.ROOT, "%.2f", t.meanB()));
    }

    /** The JSON document of {@code compare --json}. */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", side(a));
        m.put("b", side(b));
        m.put("cross_rig", crossRig);
        m.put("treatment", new TreeSet<>(treatment));
        m.put("differs", differs);
        m.put("unrecorded", unrecorded);
        m.put("min_repeats", MIN_REPEATS);
        m.put("alpha", ALPHA);
        m.put("rows_band", ROWS_BAND);
        Map<String, Object> p99Json = test(p99);
        if (p99Json != null) {
            p99Json.put("tie_rule", P99Ties.RULE);
            p99Json.put("ties", p99Ties.ties());
            p99Json.put("tested_a", p99Ties.a());
            p99Json.put("tested_b", p99Ties.b());
            p99Json.put("pinned_at_timeout", p99Ties.allPinned());
            p99Json.put("pinned_a", p99Ties.pinnedA());
            p99Json.put("pinned_b", p99Ties.pinnedB());
        }
        m.put("p99", p99Json);
        m.put("freeze_seconds", test(freezeSeconds));
        m.put("verdict", verdict);
        m.put("p_value", pValue());
        m.put("why", why);
        return m;
    }

    private static Map<String, Object> test(ExactPermutationTest t) {
        if (t == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("test", t.name());
        m.put("p_value", t.pValue());
        m.put("mean_a", t.meanA());
        m.put("mean_b", t.meanB());
        m.put("arrangements", t.arrangements());
        m.put("at_least_as_extreme", t.atLeastAsExtreme());
        return m;
    }

    private static Map<String, Object> side(SeriesFigures s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", s.source());
        m.put("series", s.series());
        m.put("verdict", s.verdict());
        m.put("passed", s.passed());
        m.put("repeats_judged", s.repeats().size());
        List<Map<String, Object>> reps = new ArrayList<>();
        for (SeriesFigures.Repeat r : s.repeats()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("rep", r.rep());
            x.put("pass", r.pass());
            x.put("p50_ms", r.p50Ms());
            x.put("p99_ms", r.p99Ms());
            x.put("freeze_seconds", r.freezeSeconds());
            x.put("freeze_seconds_by_cause", r.freezeSecondsByCause());
            x.put("worst_10s_p99_ms", r.worst10sP99Ms());
            x.put("dropped", r.dropped());
            x.put("timed_out", r.timedOut());
            x.put("p99_pinned_at_timeout", P99Ties.pinned(r));
            reps.add(x);
        }
        m.put("repeats", reps);
        m.put("freeze_seconds_by_cause", s.freezeSecondsByCause());
        m.put("worst_10s_p99_ms", s.worst10sP99Ms());
        m.put("dropped", s.dropped());
        m.put("levers", s.episodeLevers());
        return m;
    }

    private static Map<String, Integer> counted(List<String> lines) {
        Map<String, Integer> m = new LinkedHashMap<>();
        lines.forEach(l -> m.merge(l, 1, Integer::sum));
        return m;
    }

    private static String byCause(SeriesFigures s) {
        Map<String, Integer> m = s.freezeSecondsByCause();
        return m.isEmpty() ? "none" : String.join(", ", m.entrySet().stream().map(e -> e.getKey() + " "
                + e.getValue()).toList());
    }

    private static String ms(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.3f ms", v);
    }

    private static String fmtP(double p) {
        return String.format(Locale.ROOT, "%.4f", p);
    }

    private static String fmtRows(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }
}
