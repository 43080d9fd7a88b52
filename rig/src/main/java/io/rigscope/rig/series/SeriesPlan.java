package io.rigscope.rig.series;

import io.rigscope.generator.plan.Scenario;
import io.rigscope.model.wire.Config;
import io.rigscope.rig.plan.ScenarioSpec;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.threshold.ThresholdExpression.Aggregation;
import io.rigscope.analyzer.threshold.ThresholdExpression.Comparison;
import io.rigscope.analyzer.threshold.Metric;
import io.rigscope.analyzer.threshold.Threshold;
import io.rigscope.generator.plan.LoopMode;
import java.util.Locale;

/**
 * What a series runs against one target, in order: an optional ladder, the sustained repeats, then optionally
 * the ceiling (closed loop) and the denominator (pgbench). A definition only: {@link SeriesRunner} runs it.
 *
 * @param series the series id (Kafka key of every record)
 * @param target the SUT's base URL, e.g. {@code http://127.0.0.1:8080}
 * @param apiKey the bearer token sent with every request, or null to send none
 * @param load what one request looks like
 * @param ladder the ladder rungs, or null for none
 * @param sustained the sustained repeats
 * @param ceiling the closed-loop ceiling, or null for none
 * @param denominator the pgbench denominator, or null for none
 * @param analyzer analyzer settings and k6 thresholds, published in the series' CONFIG marker
 *                 (keys as in docs/gates.md, e.g. {@code thresholds: {service_ms: ["p(99)<500"]}})
 * @param reconciliationSql the reconciliation SQL, or null for none (the series is then UNRECONCILED)
 * @param requests the scenarios of a series file's {@code scenarios}, or null for the reference SUT's request
 */
public record SeriesPlan(String series, URI target, String apiKey, Load load, Ladder ladder, Sustained sustained,
                         Ceiling ceiling, DenominatorSpec denominator, Map<String, Object> analyzer,
                         String reconciliationSql, Requests requests) {

    /** The scenario that writes: its events are claimed, and the steps set its rate. */
    public static final String INGEST = "ingest";

    public SeriesPlan {
        Objects.requireNonNull(series, "series");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(sustained, "sustained");
        analyzer = analyzer == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(analyzer));
    }

    /** A plan sending the reference SUT's request ({@code requests} null). */
    public SeriesPlan(String series, URI target, String apiKey, Load load, Ladder ladder, Sustained sustained,
                      Ceiling ceiling, DenominatorSpec denominator, Map<String, Object> analyzer,
                      String reconciliationSql) {
        this(series, target, apiKey, load, ladder, sustained, ceiling, denominator, analyzer, reconciliationSql, null);
    }

    /**
     * The requests a series file's {@code scenarios} describe, for a service rigscope did not write: built into the
     * generator's scenarios per step, the ingest one at the step's rate.
     *
     * @param file the series file's name (in messages)
     * @param dir where relative file names in the scenarios resolve
     * @param specs the scenarios as written
     * @param ingest the index of the one named {@link #INGEST}
     */
    public record Requests(String file, java.nio.file.Path dir, List<ScenarioSpec> specs, int ingest) {
        public Requests {
            specs = List.copyOf(specs);
            if (ingest < 0 || ingest >= specs.size()) {
                throw new IllegalArgumentException("no ingest scenario");
            }
        }

        /**
         * The scenarios for one step, ingest first.
         *
         * @param base what relative URLs resolve against (the target)
         * @param ingestRate the ingest rate, requests per second
         * @param ingestCap the ingest cap (the ceiling's workers), or null for the scenario's own
         * @param open false in closed loop: only ingest runs
         */
        public List<Scenario> scenarios(URI base, double ingestRate, Integer ingestCap, boolean open) {
            List<Scenario> out = new ArrayList<>();
            out.add(specs.get(ingest).toScenario(placement(ingest, base, ingestRate, ingestCap)));
            for (int i = 0; i < specs.size(); i++) {
                if (i != ingest) {
                    Scenario other = specs.get(i).toScenario(placement(i, base, null, null));
                    if (open) {
                        out.add(other);
                    }
                }
            }
            return out;
        }

        private ScenarioSpec.Placement placement(int i, URI base, Double rate, Integer cap) {
            return new ScenarioSpec.Placement(file, "scenarios[" + i + "]", base, dir, rate, cap, i != ingest);
        }

        /** The ingest scenario as built against {@code base} (rate 1: a stand-in). */
        public Scenario ingestScenario(URI base) {
            return scenarios(base, 1, null, false).get(0);
        }

        /** What one ingest request is, in the terms the rest of the series reads (batch, cap, timeout, probe rate). */
        Load load() {
            Scenario in = ingestScenario(SeriesFile.UNSTARTED);
            double probe = 0;
            for (Scenario s : scenarios(SeriesFile.UNSTARTED, 1, null, true)) {
                if (!s.name().equals(INGEST)) {
                    probe += s.requestsPerSec();
                }
            }
            return new Load(Math.max(1, in.batch()), in.body() == null ? "api_calls" : in.body().meter(), "cust-%d", 1,
                    in.maxInFlight(), in.timeout(), probe);
        }
    }

    /**
     * One ingest request and the read probe.
     *
     * @param batch events per ingest request
     * @param meter the meter every event names
     * @param customerFormat {@code String.format} pattern of customer ids, e.g. {@code cust-%04d}
     * @param customers customer ids are drawn from 1..customers
     * @param maxInFlight the ingest scenario's concurrency cap (k6's maxVUs)
     * @param timeout the request timeout
     * @param probePerSec read-probe requests per second (GET aggregate), 0 for no probe
     * @param idleTimeout the generator closes a keep-alive connection idle this long (zero: never), so that the
     *                    server's own keep-alive timeout (Node's 5 s) never closes one just as a request goes out
     */
    public record Load(int batch, String meter, String customerFormat, int customers, int maxInFlight,
                       Duration timeout, double probePerSec, Duration idleTimeout) {

        /** Keep-alive connections kept however long they idle. */
        public Load(int batch, String meter, String customerFormat, int customers, int maxInFlight, Duration timeout,
                    double probePerSec) {
            this(batch, meter, customerFormat, customers, maxInFlight, timeout, probePerSec, Duration.ZERO);
        }

        /** This load with {@code idle} as the generator's idle timeout ({@code target.idle_timeout}). */
        public Load withIdleTimeout(Duration idle) {
            return new Load(batch, meter, customerFormat, customers, maxInFlight, timeout, probePerSec, idle);
        }

        public Load {
            idleTimeout = idleTimeout == null ? Duration.ZERO : idleTimeout;
            if (batch < 1) {
                throw new IllegalArgumentException("batch must be >= 1, was " + batch);
            }
            if (customers < 1) {
                throw new IllegalArgumentException("customers must be >= 1, was " + customers);
            }
            if (maxInFlight < 1) {
                throw new IllegalArgumentException("max_in_flight must be >= 1, was " + maxInFlight);
            }
            if (probePerSec < 0) {
                throw new IllegalArgumentException("probe rate must be >= 0, was " + probePerSec);
            }
            Objects.requireNonNull(timeout, "timeout");
        }
    }

    /**
     * Ladder rungs of increasing rate, judged on delivered rate, drops and reconciliation only.
     *
     * @param requestsPerSec the rungs' ingest rates, requests per second
     * @param repeatsPerRung steps per rung (default 2)
     * @param stepDuration each step's length (default 90 s)
     */
    public record Ladder(List<Double> requestsPerSec, int repeatsPerRung, Duration stepDuration) {
        public Ladder {
            requestsPerSec = List.copyOf(requestsPerSec);
            if (requestsPerSec.isEmpty() || requestsPerSec.stream().anyMatch(r -> !(r > 0))) {
                throw new IllegalArgumentException("ladder rates must be a non-empty list of rates > 0");
            }
            if (repeatsPerRung < 1) {
                throw new IllegalArgumentException("ladder repeats per rung must be >= 1, was " + repeatsPerRung);
            }
            positive(stepDuration, "ladder step duration");
        }
    }

    /**
     * The sustained repeats that a configuration is reported by ("4/5").
     *
     * @param requestsPerSec ingest rate, requests per second
     * @param repeats how many repeats (default 5)
     * @param duration each repeat's length (default 10 min)
     * @param cooldown pause between repeats
     */
    public record Sustained(double requestsPerSec, int repeats, Duration duration, Duration cooldown) {
        public Sustained {
            if (!(requestsPerSec > 0)) {
                throw new IllegalArgumentException("sustained rate must be > 0, was " + requestsPerSec);
            }
            if (repeats < 1) {
                throw new IllegalArgumentException("sustained repeats must be >= 1, was " + repeats);
            }
            positive(duration, "sustained duration");
            Objects.requireNonNull(cooldown, "cooldown");
        }
    }

    /**
     * The closed-loop ceiling at the same batch: a maximum, never a service level.
     *
     * @param workers concurrent closed-loop workers
     * @param duration how long
     */
    public record Ceiling(int workers, Duration duration) {
        public Ceiling {
            if (workers < 1) {
                throw new IllegalArgumentException("ceiling workers must be >= 1, was " + workers);
            }
            positive(duration, "ceiling duration");
        }
    }

    /**
     * pgbench inserting the same rows at the same batch into the same database.
     *
     * @param clients pgbench clients
     * @param duration how long
     * @param insert the user's row: an INSERT of one row with {@code ${customer_id}}, {@code ${quantity}} ...
     *               ({@code InsertTemplate}), run as one multi-row statement per batch; null for the reference
     *               SUT's row shape
     * @param quantity the values the insert's {@code ${quantity}} draws ({@code denominator.quantity}), or null: the
     *                 quantities the ingest check accepted in this series (their mean), else the ingest body's range
     */
    public record DenominatorSpec(int clients, Duration duration, String insert, QuantityRange quantity) {
        public DenominatorSpec {
            if (clients < 1) {
                throw new IllegalArgumentException("denominator clients must be >= 1, was " + clients);
            }
            positive(duration, "denominator duration");
        }

        /** The quantities drawn from the ingest check's accepted values, or the ingest body's range. */
        public DenominatorSpec(int clients, Duration duration, String insert) {
            this(clients, duration, insert, null);
        }

        /** The reference SUT's row shape. */
        public DenominatorSpec(int clients, Duration duration) {
            this(clients, duration, null);
        }
    }

    /**
     * A quantity range, {@code min..max} inclusive, both >= 0.
     *
     * @param min smallest
     * @param max largest
     */
    public record QuantityRange(long min, long max) {
        public QuantityRange {
            if (min < 0 || max < min) {
                throw new IllegalArgumentException("a quantity range must be 0 <= min <= max, was " + min + ".." + max);
            }
        }
    }

    private static void positive(Duration d, String name) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be > 0");
        }
    }

    /** The series' CONFIG marker: the analyzer settings (top level, as the analyzer reads them) and the plan. */
    public Config configData() {
        Map<String, Object> plan = new LinkedHashMap<>();
        plan.put("target", target.toString());
        if (requests != null) {
            List<Object> list = new ArrayList<>();
            for (Scenario sc : requests.scenarios(target, sustained.requestsPerSec(), null, true)) {
                list.add(sc.toMap());
            }
            plan.put("scenarios", list);
        }
        plan.put("batch", (long) load.batch());
        plan.put("meter", load.meter());
        plan.put("max_in_flight", (long) load.maxInFlight());
        plan.put("timeout_ms", load.timeout().toMillis());
        plan.put("probe_per_s", load.probePerSec());
        if (!load.idleTimeout().isZero()) {
            plan.put("idle_timeout_ms", load.idleTimeout().toMillis());
        }
        if (ladder != null) {
            plan.put("ladder", Map.of("requests_per_s", ladder.requestsPerSec(), "repeats_per_rung",
                    (long) ladder.repeatsPerRung(), "step_ms", ladder.stepDuration().toMillis()));
        }
        plan.put("sustained", Map.of("requests_per_s", sustained.requestsPerSec(), "repeats", (long) sustained.repeats(),
                "duration_ms", sustained.duration().toMillis(), "cooldown_ms", sustained.cooldown().toMillis()));
        if (ceiling != null) {
            plan.put("ceiling", Map.of("workers", (long) ceiling.workers(), "duration_ms", ceiling.duration().toMillis()));
        }
        if (denominator != null) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("clients", (long) denominator.clients());
            d.put("duration_ms", denominator.duration().toMillis());
            if (denominator.insert() != null) {
                d.put("insert", denominator.insert());
            }
            if (denominator.quantity() != null) {
                d.put("quantity", Map.of("min", denominator.quantity().min(), "max", denominator.quantity().max()));
            }
            plan.put("denominator", d);
        }
        return Config.ofSeries(analyzer, plan);
    }

    /** One line on what the series runs, for the console. */
    public String describe() {
        SeriesPlan plan = this;
        StringBuilder s = new StringBuilder();
        if (plan.ladder() != null) {
            s.append("ladder ").append(plan.ladder().requestsPerSec()).append(" req/s x ")
                    .append(plan.ladder().stepDuration().toSeconds()).append(" s; ");
        }
        s.append("sustained ").append(plan.sustained().repeats()).append(" x ")
                .append(plan.sustained().duration().toSeconds()).append(" s at ")
                .append((long) plan.sustained().requestsPerSec()).append(" req/s, batch ").append(plan.load().batch());
        if (requests == null) {
            s.append(", probe ").append((long) plan.load().probePerSec()).append(" req/s");
        }
        return s.toString();
    }

    /** The target and, for a series file's scenarios, each scenario's method, URL and rate: one line each. */
    public List<String> describeRequests() {
        List<String> lines = new ArrayList<>();
        lines.add("target " + target);
        if (requests != null) {
            for (Scenario sc : requests.scenarios(target, sustained.requestsPerSec(), null, true)) {
                lines.add("scenario " + sc.name() + ": " + sc.method() + " " + sc.url()
                        + (sc.name().equals(INGEST) ? " at the steps' rate, batch " + sc.batch()
                                : " at " + trim(sc.requestsPerSec()) + " req/s")
                        + ", max in flight " + sc.maxInFlight() + ", timeout " + sc.timeout().toMillis() + " ms"
                        + (sc.check() == null ? ", no check (a 2xx status passes)" : ", check " + checkLine(sc.check().toMap())));
            }
        }
        return lines;
    }

    /** The check's keys that are set: {@code status [200], body_not_contains "errors"}. */
    private static String checkLine(Map<String, Object> check) {
        List<String> parts = new ArrayList<>();
        check.forEach((k, v) -> {
            if (v != null && !(v instanceof java.util.Collection<?> c && c.isEmpty())) {
                parts.add(k + " " + (v instanceof String text ? "'" + text + "'" : v));
            }
        });
        return String.join(", ", parts);
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    /**
     * What a series plan cannot pass, known before any load: checked when the series file is read, so that a plan whose
     * every repeat must fail says so at once (exit 2 naming the key, or a warning with {@code run --allow}) instead of
     * after its last repeat. Only what is decidable from the plan alone:
     *
     * <ul>
     *   <li>{@code sustained.rate} x {@code sustained.duration} below {@code analyzer.min_samples}: every repeat fails
     *       its samples gate;</li>
     *   <li>a threshold on {@code http_reqs} (count or rate) above what the planned rates can send, or a
     *       {@code http_req_failed} rate below 0;</li>
     *   <li>a probe (a scenario with a rate of its own) whose rate x the probe gate's p99 ({@code analyzer.probe_p99_ms})
     *       exceeds its {@code max_in_flight}: answered within its own gate, it would still be dropped, and a drop fails
     *       the repeat.</li>
     * </ul>
     */
    public static final class Check {

        /**
         * One plan that cannot pass.
         *
         * @param key the series file's key to change
         * @param problem why, in one sentence with the figures
         */
        public record Problem(String key, String problem) {
            /** {@code key: problem}. */
            public String line() {
                return key + ": " + problem;
            }
        }

        private Check() {
        }

        /** Every problem of {@code plan}, in file order; empty when it can pass. */
        public static List<Problem> problems(SeriesPlan plan) {
            AnalyzerSettings settings = AnalyzerSettings.defaults().withConfig(plan.analyzer());
            List<Problem> out = new ArrayList<>();
            SeriesPlan.Sustained s = plan.sustained();
            double seconds = s.duration().toMillis() / 1000.0;
            long planned = (long) Math.floor(s.requestsPerSec() * seconds);
            if (planned < settings.minSamples()) {
                out.add(new Problem("sustained", String.format(Locale.ROOT, "%s req/s x %s s = %,d requests per repeat, "
                        + "fewer than min_samples %,d (analyzer.min_samples, default 1000): every repeat would fail its "
                        + "samples gate; raise sustained.rate or sustained.duration, or lower analyzer.min_samples",
                        number(s.requestsPerSec()), number(seconds), planned, settings.minSamples())));
            }
            List<Scenario> scenarios = SeriesRunner.scenariosOf(plan, s.requestsPerSec(), plan.load().maxInFlight(),
                    LoopMode.OPEN);
            double othersPerSec = scenarios.stream().skip(1).mapToDouble(Scenario::requestsPerSec).sum();
            for (Threshold t : settings.thresholds()) {
                Problem p = threshold(t, s.requestsPerSec(), othersPerSec, seconds);
                if (p != null) {
                    out.add(p);
                }
            }
            double probeP99Sec = settings.probeP99Us() / 1e6;
            for (int i = 1; i < scenarios.size(); i++) {
                Scenario sc = scenarios.get(i);
                double inFlight = sc.requestsPerSec() * probeP99Sec;
                if (inFlight > sc.maxInFlight()) {
                    out.add(new Problem(plan.requests() == null ? "load.probe_rate" : scenarioKey(plan, sc.name()),
                            String.format(Locale.ROOT, "%s req/s with max_in_flight %d: answered at the probe gate's p99 "
                                    + "(%s ms, analyzer.probe_p99_ms) it holds %.1f requests in flight, more than its cap, "
                                    + "and each request it cannot start is a drop that fails the repeat; lower its rate "
                                    + "or raise its max_in_flight to %d", number(sc.requestsPerSec()), sc.maxInFlight(),
                                    number(settings.probeP99Us() / 1000.0), inFlight, (long) Math.ceil(inFlight))));
                }
            }
            return out;
        }

        /** A threshold no planned rate can meet, or null. */
        private static Problem threshold(Threshold t, double ingestPerSec, double othersPerSec, double seconds) {
            Aggregation.Kind kind = t.aggregation().kind();
            boolean atLeast = t.comparison() == Comparison.GT || t.comparison() == Comparison.GE;
            if (t.metric() == Metric.HTTP_REQS && atLeast) {
                // the most the plan can send: every scenario counted, whatever the threshold's filter
                double mostPerSec = ingestPerSec + othersPerSec;
                double most = kind == Aggregation.Kind.COUNT ? Math.floor(mostPerSec * seconds) : mostPerSec;
                boolean cannot = t.comparison() == Comparison.GT ? most <= t.limit() : most < t.limit();
                if (cannot) {
                    return new Problem("thresholds", String.format(Locale.ROOT, "%s cannot hold: the plan sends at most "
                            + "%s %s per sustained repeat (sustained.rate %s req/s%s)", t.name(), number(most),
                            kind == Aggregation.Kind.COUNT ? "requests" : "req/s", number(ingestPerSec),
                            othersPerSec > 0 ? " and " + number(othersPerSec) + " req/s of other scenarios" : ""));
                }
            }
            if (t.metric() == Metric.HTTP_REQ_FAILED && kind == Aggregation.Kind.RATE
                    && (t.comparison() == Comparison.LT && t.limit() <= 0 || t.comparison() == Comparison.LE && t.limit() < 0)) {
                return new Problem("thresholds", t.name() + " cannot hold: a failure rate is never below 0 (write rate<=0 "
                        + "or rate==0 for no failure at all)");
            }
            return null;
        }

        private static String scenarioKey(SeriesPlan plan, String name) {
            List<io.rigscope.rig.plan.ScenarioSpec> specs = plan.requests().specs();
            for (int i = 0; i < specs.size(); i++) {
                if (name.equals(specs.get(i).name())) {
                    return "scenarios[" + i + "].rate";
                }
            }
            return "scenarios";
        }

        private static String number(double d) {
            return d == Math.rint(d) ? String.format(Locale.ROOT, "%,d", (long) d) : String.format(Locale.ROOT, "%.1f", d);
        }
    }
}
