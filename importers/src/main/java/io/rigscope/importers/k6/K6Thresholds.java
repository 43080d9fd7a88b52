package io.rigscope.importers.k6;

import io.rigscope.analyzer.threshold.ThresholdExpression.Aggregation;
import io.rigscope.analyzer.threshold.Metric.MetricType;
import io.rigscope.analyzer.threshold.K6Verdict;
import io.rigscope.analyzer.threshold.ThresholdDecl;
import io.rigscope.analyzer.threshold.ThresholdExpression;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * k6's thresholds judged over a k6 run's points as k6 judges them (docs/gates.md, "Thresholds of an imported k6 run, as k6 judges them").
 *
 * <ul>
 *   <li>A threshold on {@code metric} covers every point of that metric, every scenario together; a tag filter
 *       {@code metric{tag:value,...}} (any tags, k6's submetric syntax) keeps the points carrying every one of
 *       those tags with that value. A {@code scenario} filter is renamed by the scenario map, as the samples are.</li>
 *   <li>Trend: {@code avg} = sum / count, {@code min}, {@code max}, {@code med} = {@code p(50)}, {@code p(N)} over
 *       the sorted values with k6's linear interpolation: rank {@code i = N/100 x (count - 1)}, value
 *       {@code v[floor i] + (v[ceil i] - v[floor i]) x (i - floor i)}. The raw values are kept (exact, no
 *       histogram), for the metrics that carry thresholds only.</li>
 *   <li>Rate: {@code rate} = points whose value is not 0 / all points.</li>
 *   <li>Counter: {@code count} = the sum of the values; {@code rate} = that sum / the test's duration (k6 divides
 *       by the run's elapsed time: the summary's {@code testRunDurationMs} when given, else the first to the last
 *       point read: those of http_req_duration, http_reqs, dropped_iterations and of the metrics with thresholds).</li>
 *   <li>Gauge: {@code value} = the last value written.</li>
 * </ul>
 * A threshold whose metric (or filter) matched no point is judged as k6 judges it at the end of a test: every
 * aggregation of an empty sink is 0. A threshold that cannot be judged (unknown metric type, an aggregation k6
 * does not allow on the type, a syntax error) fails, with the reason.
 *
 * <p>Not thread-safe; one instance per k6 run.
 */
final class K6Thresholds {

    private final Map<String, String> scenarioMap;
    private final Map<String, MetricType> declaredTypes = new HashMap<>();
    private final Map<String, Sink> sinks = new LinkedHashMap<>();
    private final Map<String, Sink[]> sinksByMetric = new HashMap<>();
    private final List<Declared> declared = new ArrayList<>();
    private long firstUs = Long.MAX_VALUE;
    private long lastUs = Long.MIN_VALUE;

    /** @param scenarioMap k6 scenario name -> rigscope's (applied to {@code scenario} filters and points alike) */
    public K6Thresholds(Map<String, String> scenarioMap) {
        this.scenarioMap = Map.copyOf(scenarioMap);
    }

    /** One declared threshold. */
    private record Declared(String writtenKey, String displayKey, String metric, ThresholdDecl decl,
                            ThresholdExpression expression, String problem, Sink sink) {
    }

    /**
     * Declares thresholds on a metric key as k6 writes them ({@code http_req_duration},
     * {@code http_req_duration{scenario:ingest,status:201}}). The same key and expression declared twice (a Metric
     * line and an options file) count once.
     */
    public void declare(String metricKey, List<ThresholdDecl> thresholds) {
        for (ThresholdDecl t : thresholds) {
            String written = metricKey.strip();
            if (declared.stream().anyMatch(d -> d.writtenKey.equals(written)
                    && d.decl.expression().strip().equals(t.expression().strip()))) {
                continue;
            }
            String problem = null;
            ThresholdExpression expression = null;
            try {
                expression = ThresholdExpression.parse(t.expression());
            } catch (IllegalArgumentException e) {
                problem = e.getMessage();
            }
            String metric;
            String[] keys;
            String[] values;
            int brace = written.indexOf('{');
            if (brace < 0) {
                metric = written;
                keys = new String[0];
                values = new String[0];
            } else {
                metric = written.substring(0, brace).strip();
                List<String> k = new ArrayList<>();
                List<String> v = new ArrayList<>();
                if (!written.endsWith("}")) {
                    problem = "metric '" + written + "': a tag filter must end with '}'";
                } else {
                    for (String pair : written.substring(brace + 1, written.length() - 1).split(",")) {
                        int colon = pair.indexOf(':');
                        if (colon <= 0 || pair.substring(0, colon).isBlank()) {
                            problem = "metric '" + written + "': tag filter '" + pair.strip() + "' is not TAG:VALUE";
                            break;
                        }
                        String key = pair.substring(0, colon).strip();
                        String value = unquote(pair.substring(colon + 1).strip());
                        k.add(key);
                        v.add(key.equals("scenario") ? scenarioMap.getOrDefault(value, value) : value);
                    }
                }
                keys = k.toArray(String[]::new);
                values = v.toArray(String[]::new);
            }
            String display = metric + (keys.length == 0 ? "" : "{" + pairs(keys, values) + "}");
            Sink sink = sinks.computeIfAbsent(display, x -> new Sink(keys, values));
            if (!Arrays.asList(sinksByMetric.getOrDefault(metric, new Sink[0])).contains(sink)) {
                Sink[] old = sinksByMetric.getOrDefault(metric, new Sink[0]);
                Sink[] grown = Arrays.copyOf(old, old.length + 1);
                grown[old.length] = sink;
                sinksByMetric.put(metric, grown);
            }
            String shownExpression = expression == null ? t.expression().strip() : expression.text();
            declared.add(new Declared(written, display + ": " + shownExpression, metric, t, expression, problem, sink));
        }
    }

    /** A metric's type, from its Metric line. */
    public void type(String metric, String k6Type) {
        MetricType.of(k6Type).ifPresent(t -> declaredTypes.put(metric, t));
    }

    /** True when a threshold is declared on this metric (with or without a filter). */
    public boolean judges(String metric) {
        return sinksByMetric.containsKey(metric);
    }

    /** True when nothing is declared. */
    public boolean isEmpty() {
        return declared.isEmpty();
    }

    /** The metric keys and expressions declared so far, as written, in order. */
    public Map<String, List<String>> declaredAsWritten() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        declared.forEach(d -> out.computeIfAbsent(d.writtenKey, k -> new ArrayList<>()).add(d.decl.expression()));
        return out;
    }

    /** One point of the run. */
    public void accept(K6Line.Point point) {
        long t = point.timeUs();
        if (t < firstUs) {
            firstUs = t;
        }
        if (t > lastUs) {
            lastUs = t;
        }
        Sink[] forMetric = sinksByMetric.get(point.metric());
        if (forMetric == null) {
            return;
        }
        for (Sink s : forMetric) {
            if (s.matches(point.tags())) {
                s.add(point.value());
            }
        }
    }

    /** Seconds from the first point read to the last (those of the metrics rigscope reads), or NaN before two. */
    public double spanSec() {
        return lastUs > firstUs ? (lastUs - firstUs) / 1e6 : Double.NaN;
    }

    /**
     * Judges every declared threshold, in declaration order.
     *
     * @param summary k6's summary export of the same run (its verdicts go beside rigscope's; its test duration is
     *                the one counter rates divide by), or null
     */
    public List<K6Verdict> judge(K6Summary summary) {
        List<K6Verdict> out = new ArrayList<>();
        for (Declared d : declared) {
            K6Verdict v = judge(d, summary != null && summary.testRunDurationSec() != null
                    ? summary.testRunDurationSec() : spanSec());
            out.add(summary == null ? v : v.withK6(summary.passed(d.writtenKey, d.decl.expression())));
        }
        return out;
    }

    private K6Verdict judge(Declared d, double durationSec) {
        {
            boolean abort = d.decl.abortOnFail();
            String delay = d.decl.delayAbortEval();
            if (d.problem != null) {
                return new K6Verdict(d.displayKey, null, false, "not judged: " + d.problem, 0, abort, delay, null);
            }
            Optional<MetricType> type = Optional.ofNullable(declaredTypes.get(d.metric))
                    .or(() -> MetricType.builtIn(d.metric));
            if (type.isEmpty()) {
                return new K6Verdict(d.displayKey, null, false, "not judged: metric " + d.metric + " has no Metric "
                        + "line in the file and is not a k6 built-in metric: its type is unknown", 0, abort, delay,
                        null);
            }
            if (!type.get().allows(d.expression.aggregation().kind())) {
                return new K6Verdict(d.displayKey, null, false, "not judged: k6 does not allow "
                        + d.expression.aggregation().kind().method() + " on a " + type.get().k6Name() + " ("
                        + d.metric + ")",
                        d.sink.count, abort, delay, null);
            }
            double value = d.sink.aggregate(type.get(), d.expression, durationSec);
            if (Double.isNaN(value)) {
                return new K6Verdict(d.displayKey, null, false, "not judged: the test's duration is unknown "
                        + "(a counter's rate needs it)", d.sink.count, abort, delay, null);
            }
            return new K6Verdict(d.displayKey, value, d.expression.holds(value), null, d.sink.count, abort, delay,
                    null);
        }
    }

    private static String pairs(String[] keys, String[] values) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < keys.length; i++) {
            b.append(i == 0 ? "" : ",").append(keys[i]).append(':').append(values[i]);
        }
        return b.toString();
    }

    private static String unquote(String v) {
        if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }

    /** The points of one metric key: counts, and the raw values for trends. */
    private final class Sink {
        private final String[] keys;
        private final String[] values;
        private final IdentityHashMap<K6Tags, Boolean> seen = new IdentityHashMap<>();
        private double[] raw = new double[1024];
        /** No NaN and no -0.0 among the values: {@link OrderStatistics} may compare them with {@code <}. */
        private boolean plainOrder = true;
        /**
         * The index the last percentile selected, with the count it was selected at: no value before it is greater,
         * none after it smaller (a later percentile selects on one side of it only).
         */
        private int selectedAt = -1;
        private long selectedAtCount = -1;
        /** raw[0, sortedCount) is sorted (values without a plain order are sorted, as k6's are). */
        private int sortedCount;
        private long count;
        private double sum;
        private double min = Double.POSITIVE_INFINITY;
        private double max = Double.NEGATIVE_INFINITY;
        private long nonZero;
        private double last;

        Sink(String[] keys, String[] values) {
            this.keys = keys;
            this.values = values;
        }

        boolean matches(K6Tags tags) {
            if (keys.length == 0) {
                return true;
            }
            Boolean known = seen.get(tags);
            if (known != null) {
                return known;
            }
            boolean ok = true;
            for (int i = 0; i < keys.length && ok; i++) {
                String v = tags.get(keys[i]);
                if (v != null && keys[i].equals("scenario")) {
                    v = scenarioMap.getOrDefault(v, v);
                }
                ok = values[i].equals(v);
            }
            if (seen.size() < K6LineReader.MAX_INTERNED) {
                seen.put(tags, ok);
            }
            return ok;
        }

        void add(double v) {
            if (count == raw.length) {
                raw = Arrays.copyOf(raw, raw.length * 2);
            }
            raw[(int) count] = v;
            count++;
            if (v != v || (v == 0 && Double.doubleToRawLongBits(v) != 0L)) {
                plainOrder = false;
            }
            sum += v;
            min = Math.min(min, v);
            max = Math.max(max, v);
            if (v != 0) {
                nonZero++;
            }
            last = v;
        }

        double aggregate(MetricType type, ThresholdExpression e, double durationSec) {
            if (count == 0) {
                return 0; // k6 judges an empty sink at the end of a test: every aggregation of it is 0
            }
            return switch (type) {
                case TREND -> switch (e.aggregation().kind()) {
                    case AVG -> sum / count;
                    case MIN -> min;
                    case MAX -> max;
                    case MED -> percentile(50);
                    default -> percentile(e.aggregation().percentile());
                };
                case RATE -> (double) nonZero / count;
                case COUNTER -> e.aggregation().kind() == Aggregation.Kind.COUNT ? sum : sum / durationSec;
                case GAUGE -> last;
            };
        }

        /**
         * k6's percentile: linear interpolation between the sorted values around rank pct/100 x (count - 1), read
         * with {@link OrderStatistics} (the values reordered in place; only percentiles read their order).
         */
        private double percentile(double pct) {
            int n = (int) count;
            if (n == 1) {
                return raw[0];
            }
            double i = pct / 100.0 * (n - 1);
            int below = (int) Math.floor(i);
            int above = (int) Math.ceil(i);
            double lo;
            double hi;
            if (!plainOrder) {
                if (sortedCount != n) {
                    Arrays.sort(raw, 0, n);
                    sortedCount = n;
                }
                lo = raw[below];
                hi = raw[above];
            } else {
                int from = 0;
                int to = n;
                if (selectedAtCount == n) {
                    if (selectedAt < below) {
                        from = selectedAt + 1;
                    } else {
                        to = selectedAt + 1;
                    }
                }
                lo = OrderStatistics.select(raw, from, to, below);
                selectedAt = below;
                selectedAtCount = n;
                hi = above == below ? lo : OrderStatistics.min(raw, below + 1, n);
            }
            return lo + (hi - lo) * (i - Math.floor(i));
        }
    }
}
