package io.rigscope.rig.series;

import com.fasterxml.jackson.databind.JsonNode;
import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.threshold.ThresholdParser.ThresholdSyntaxException;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.plan.ScenarioSpec;
import io.rigscope.rig.rds.RdsRig;
import io.rigscope.sut.SutContract;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A series config file ({@code rigscope run --config series.yaml}), bound by {@link ScenarioSpec.Yaml}. Every key is
 * checked: an unknown key, a wrong type or an impossible value is a {@link UsageException} naming the file and
 * the key. Its {@code scenarios} are {@link ScenarioSpec}s, the keys of a {@code generate --config} plan's
 * scenarios. docs/protocol.md shows a complete file; docs/own-service.md one for a service rigscope did not write.
 *
 * @param plan the series to run (its target is the SUT's URL, or a placeholder until {@code startSut}; its API key
 *             and reconciliation SQL as the file gives them, null when it does not)
 * @param database the database (a {@code --pg} URL) for bring-up, reconciliation, the denominator and the
 *                 collectors, or null ({@code run --pg} overrides it)
 * @param startSut true when no {@code target.url} is given: rigscope starts the reference SUT on {@code database}
 *                 (or on a private cluster when there is none)
 * @param tenant the tenant the denominator's rows carry ({@code target.tenant}), or null
 * @param watchTables the tables the DB sampler reports ({@code watch_tables}), or null when the file names none
 * @param sutTouch the reference SUT's key-touch mode ({@code per-minute} or {@code every-request})
 * @param sutInsert the reference SUT's insert mode ({@code multi-row} or {@code per-event})
 * @param sutAppPassword the password set on the SUT's app role, or null (trust auth)
 * @param pgLog the Postgres log file the log collector reads, or null
 * @param costPerHour the setup's price per hour (any currency; printed beside the figures), or null
 * @param pgLogPrefix the server's {@code log_line_prefix} for reading {@code pgLog}, or null (the default prefix)
 * @param pgData the database's data directory ({@code pgdata}: the disk view and the canary measure its
 *               filesystem), or null: for a database rigscope did not start, then no local disk is measured
 * @param servicePid the service's process id on this host ({@code target.pid}): the process collector watches it
 *                   ({@code rig.process}); null when the file gives none (then the service's process is not watched,
 *                   unless rigscope starts the reference SUT, whose process it always watches)
 * @param rds the RDS instance the series runs against ({@code rds:}, docs/rds.md), or null
 * @param prometheusRw the Prometheus remote-write URL the decisions are pushed to ({@code export.prometheus_rw};
 *                     {@code --prometheus-rw} overrides it), or null
 * @param kafkaDeliveryTimeout the producers' delivery limit ({@code kafka.delivery_timeout};
 *                             {@code --kafka-delivery-timeout} overrides it), or null
 */
public record SeriesFile(SeriesPlan plan, String database, boolean startSut, String tenant, List<String> watchTables,
                         String sutTouch, String sutInsert, String sutAppPassword, Path pgLog, Double costPerHour,
                         String pgLogPrefix, Path pgData, Long servicePid, RdsRig.Target rds,
                         String prometheusRw, Duration kafkaDeliveryTimeout) {

    public SeriesFile {
        watchTables = watchTables == null ? null : List.copyOf(watchTables);
        if (servicePid != null && servicePid <= 0) {
            throw new IllegalArgumentException("servicePid must be > 0, was " + servicePid);
        }
    }

    /** Placeholder target while the reference SUT is not started yet. */
    public static final URI UNSTARTED = URI.create("http://127.0.0.1:1");

    /** The file's keys, bound by {@link ScenarioSpec.Yaml} (snake_case; an unknown key is refused naming its path). */
    private record Top(String series, Target target, String database, Sut sut, Load load, List<ScenarioSpec> scenarios,
                       Ladder ladder, Sustained sustained, Ceiling ceiling, Denominator denominator,
                       JsonNode thresholds, JsonNode analyzer, String reconciliationSql, JsonNode watchTables,
                       String pglog, String pglogPrefix, String pgdata, Double costPerHour, Rds rds, Export export,
                       JsonNode cloud, Kafka kafka) {
        // cloud: is read by io.rigscope.rig.cloud.CloudSection (rigscope cloud ...); run ignores it
    }

    private record Export(String prometheusRw) {
    }

    private record Kafka(String deliveryTimeout) {
    }

    private record Rds(String dbInstance, String region, String endpoint, String poll, Boolean allowCrossAz,
                       Boolean livePrices) {
    }

    private record Target(String url, String apiKey, String tenant, String idleTimeout, Long pid) {
    }

    private record Sut(String touch, String insert, String appPassword) {
    }

    private record Load(Integer batch, String meter, Integer customers, Integer maxInFlight, String timeout,
                        Double probeRate) {
    }

    private record Ladder(List<Double> rates, Integer repeats, String duration) {
    }

    private record Sustained(Double rate, Integer repeats, String duration, String cooldown) {
    }

    private record Ceiling(Integer workers, String duration) {
    }

    private record Denominator(Integer clients, String duration, String insert, JsonNode quantity) {
    }

    /**
     * Reads and validates a config file.
     *
     * @param seriesOverride the series id from the command line, or null
     * @param defaultSeries used when neither the file nor the command line names one
     */
    public static SeriesFile read(Path path, String seriesOverride, String defaultSeries) {
        return new Reader(path.toString(), path.toAbsolutePath().getParent())
                .series(ScenarioSpec.Yaml.readFile(path), seriesOverride, defaultSeries);
    }

    /**
     * Reads and validates a config given as text (a built-in series file).
     *
     * @param source the file's name in messages
     */
    public static SeriesFile read(String source, String yaml, String seriesOverride, String defaultSeries) {
        return new Reader(source, Path.of("").toAbsolutePath()).series(ScenarioSpec.Yaml.readText(source, yaml), seriesOverride,
                defaultSeries);
    }

    /** This file with the reference SUT's app-role password replaced ({@code demo --app-password}). */
    public SeriesFile withAppPassword(String password) {
        return new SeriesFile(plan, database, startSut, tenant, watchTables, sutTouch, sutInsert, password, pgLog,
                costPerHour, pgLogPrefix, pgData, servicePid, rds, prometheusRw, kafkaDeliveryTimeout);
    }

    /** This file with its {@code rds:} section replaced (by {@code run --live-prices}). */
    public SeriesFile withRds(RdsRig.Target section) {
        return new SeriesFile(plan, database, startSut, tenant, watchTables, sutTouch, sutInsert, sutAppPassword, pgLog,
                costPerHour, pgLogPrefix, pgData, servicePid, section, prometheusRw, kafkaDeliveryTimeout);
    }

    /** This file with {@code database} replaced (by {@code --pg}). */
    public SeriesFile withDatabase(String url) {
        return new SeriesFile(plan, url, startSut, tenant, watchTables, sutTouch, sutInsert, sutAppPassword, pgLog,
                costPerHour, pgLogPrefix, pgData, servicePid, rds, prometheusRw, kafkaDeliveryTimeout);
    }

    /**
     * This file's plan aimed at a started reference SUT: what the file leaves out (API key, reconciliation SQL)
     * is the reference SUT's ({@link SutContract}).
     */
    public SeriesPlan planFor(URI target) {
        SeriesPlan p = plan;
        return new SeriesPlan(p.series(), target, p.apiKey() != null ? p.apiKey() : SutContract.API_KEY, p.load(),
                p.ladder(), p.sustained(), p.ceiling(), p.denominator(), p.analyzer(),
                p.reconciliationSql() != null ? p.reconciliationSql() : SutContract.RECONCILIATION_SQL, p.requests());
    }

    /** The API key: the file's, else the reference SUT's when rigscope starts it, else null (no header). */
    public String effectiveApiKey() {
        return plan.apiKey() != null ? plan.apiKey() : startSut ? SutContract.API_KEY : null;
    }

    /** The tenant: the file's, else the reference SUT's when rigscope starts it, else null. */
    public String effectiveTenant() {
        return tenant != null ? tenant : startSut ? SutContract.TENANT : null;
    }

    /** The tables the DB sampler reports: the file's, else the reference SUT's when rigscope starts it. */
    public List<String> effectiveWatchTables() {
        return watchTables != null ? watchTables : startSut ? SutContract.WATCHED_TABLES : List.of();
    }

    private record Reader(String file, Path dir) {

        SeriesFile series(JsonNode root, String seriesOverride, String defaultSeries) {
            Top top = ScenarioSpec.Yaml.bind(root, Top.class, file, "");
            String series = seriesOverride != null ? seriesOverride : top.series() != null ? top.series() : defaultSeries;
            Target target = top.target();
            String url = target == null ? null : nonBlank(target.url(), "target.url");
            URI targetUri = url == null ? null : targetUrl(url);
            String apiKey = target == null ? null : nonBlank(target.apiKey(), "target.api_key");
            String tenant = target == null ? null : nonBlank(target.tenant(), "target.tenant");
            String database = nonBlank(top.database(), "database");
            List<String> watchTables = watchTables(top.watchTables());
            Sut sut = top.sut();
            String touch = oneOf(sut == null ? null : sut.touch(), "sut.touch", "per-minute",
                    Set.of("per-minute", "every-request"));
            String insert = oneOf(sut == null ? null : sut.insert(), "sut.insert", "multi-row",
                    Set.of("multi-row", "per-event"));

            SeriesPlan.Requests requests = top.scenarios() == null ? null : requests(top.scenarios(), targetUri);
            if (requests != null && top.load() != null) {
                throw fail("load", "cannot be given with scenarios: the scenarios say what a request is (batch, "
                        + "max_in_flight and timeout are the ingest scenario's keys; a probe is a scenario of its own)");
            }
            SeriesPlan.Load asWritten = requests != null ? requests.load() : load(top.load());
            SeriesPlan.Load load = target == null || target.idleTimeout() == null ? asWritten
                    : asWritten.withIdleTimeout(duration(target.idleTimeout(), "target.idle_timeout", null));
            SeriesPlan.Ladder ladder = ladder(top.ladder());
            Sustained su = top.sustained();
            if (su == null) {
                throw fail("sustained", "is missing: a series needs its sustained repeats (rate, repeats, duration)");
            }
            if (su.rate() == null) {
                throw fail("sustained.rate", "is missing (requests per second)");
            }
            SeriesPlan.Sustained sustained = build("sustained", () -> new SeriesPlan.Sustained(su.rate(),
                    su.repeats() == null ? 5 : su.repeats(), duration(su.duration(), "sustained.duration",
                    Duration.ofMinutes(10)), duration(su.cooldown(), "sustained.cooldown", Duration.ofSeconds(30))));
            Ceiling c = top.ceiling();
            SeriesPlan.Ceiling ceiling = c == null ? null : build("ceiling", () -> new SeriesPlan.Ceiling(
                    c.workers() == null ? 8 : c.workers(), duration(c.duration(), "ceiling.duration",
                    Duration.ofSeconds(30))));
            Denominator d = top.denominator();
            SeriesPlan.DenominatorSpec denominator = d == null ? null : build("denominator",
                    () -> new SeriesPlan.DenominatorSpec(d.clients() == null ? 8 : d.clients(),
                            duration(d.duration(), "denominator.duration", Duration.ofSeconds(30)),
                            nonBlank(d.insert(), "denominator.insert"), quantity(d.quantity())));
            if (denominator != null && denominator.quantity() != null && denominator.insert() == null) {
                throw fail("denominator.quantity", "needs denominator.insert: it is the values of the insert's "
                        + "${quantity}");
            }
            if (denominator != null && denominator.insert() != null) {
                io.rigscope.rig.denominator.Denominator.InsertTemplate.check(denominator.insert(), file + ": denominator.insert");
            }
            Map<String, Object> analyzer = new LinkedHashMap<>();
            if (top.analyzer() != null && !top.analyzer().isNull()) {
                analyzer.putAll(mapping(top.analyzer(), "analyzer"));
            }
            if (top.thresholds() != null && !top.thresholds().isNull()) {
                analyzer.put("thresholds", mapping(top.thresholds(), "thresholds"));
            }
            if (requests != null && !analyzer.containsKey("scenario")) {
                // the claims are the ingest scenario's, whatever other scenarios send more requests
                analyzer.put("scenario", SeriesPlan.INGEST);
            }
            try {
                // what the analyzer will read from the CONFIG marker: a bad key or threshold is exit 2 before any load
                AnalyzerSettings.defaults().withConfig(analyzer);
            } catch (ThresholdSyntaxException e) {
                throw fail("thresholds:", e.getMessage());
            } catch (IllegalArgumentException e) {
                throw fail("analyzer:", e.getMessage());
            }
            String reconciliationSql = nonBlank(top.reconciliationSql(), "reconciliation_sql");
            SeriesPlan plan = build("series", () -> new SeriesPlan(series, targetUri == null ? UNSTARTED : targetUri,
                    apiKey, load, ladder, sustained, ceiling, denominator, analyzer, reconciliationSql, requests));
            if (top.costPerHour() != null && top.costPerHour() < 0) {
                throw fail("cost_per_hour", "must be >= 0");
            }
            String pglog = nonBlank(top.pglog(), "pglog");
            String pgdata = nonBlank(top.pgdata(), "pgdata");
            return new SeriesFile(plan, database, url == null, tenant, watchTables, touch, insert,
                    sut == null ? null : nonBlank(sut.appPassword(), "sut.app_password"),
                    pglog == null ? null : Path.of(pglog), top.costPerHour(),
                    nonBlank(top.pglogPrefix(), "pglog_prefix"), pgdata == null ? null : dir.resolve(pgdata),
                    servicePid(target, url), rds(top.rds()),
                    top.export() == null ? null : nonBlank(top.export().prometheusRw(), "export.prometheus_rw"),
                    top.kafka() == null ? null : positive(duration(top.kafka().deliveryTimeout(),
                            "kafka.delivery_timeout", null), "kafka.delivery_timeout"));
        }

        /** {@code rds:}: the instance's identifier is required; region, endpoint, poll and allow_cross_az are not. */
        private RdsRig.Target rds(Rds r) {
            if (r == null) {
                return null;
            }
            if (r.dbInstance() == null) {
                throw fail("rds.db_instance", "is missing: the DB instance identifier, e.g. rigscope-pg");
            }
            String id = nonBlank(r.dbInstance(), "rds.db_instance");
            String region = nonBlank(r.region(), "rds.region");
            if (region != null && !region.matches("[a-z]{2}(-[a-z]+)+-[0-9]+")) {
                throw fail("rds.region", "'" + region + "' is not an AWS region, e.g. us-east-1");
            }
            URI endpoint = null;
            if (nonBlank(r.endpoint(), "rds.endpoint") != null) {
                try {
                    endpoint = new URI(r.endpoint().strip());
                } catch (java.net.URISyntaxException e) {
                    throw fail("rds.endpoint", "'" + r.endpoint() + "' is not a URL (" + e.getReason() + ")");
                }
                if (!java.util.List.of("http", "https").contains(String.valueOf(endpoint.getScheme()))
                        || endpoint.getHost() == null) {
                    throw fail("rds.endpoint", "'" + r.endpoint() + "' is not an absolute http(s):// URL with a host");
                }
            }
            Duration poll = duration(r.poll(), "rds.poll", null);
            if (poll != null && (poll.isZero() || poll.isNegative())) {
                throw fail("rds.poll", "must be > 0");
            }
            return new RdsRig.Target(id, region, endpoint, poll, Boolean.TRUE.equals(r.allowCrossAz()),
                    Boolean.TRUE.equals(r.livePrices()));
        }

        /**
         * {@code target.pid}: the service's process on this host, for a service rigscope did not start (it watches
         * the reference SUT it starts on its own). Whether the process exists is checked when the series starts.
         */
        private Long servicePid(Target target, String url) {
            Long pid = target == null ? null : target.pid();
            if (pid == null) {
                return null;
            }
            if (pid <= 0) {
                throw fail("target.pid", "must be a process id > 0, was " + pid);
            }
            if (url == null) {
                throw fail("target.pid", "needs target.url: without it rigscope starts the reference SUT and watches "
                        + "that process itself");
            }
            return pid;
        }

        private URI targetUrl(String url) {
            URI u;
            try {
                u = new URI(url.strip());
            } catch (java.net.URISyntaxException e) {
                throw fail("target.url", "'" + url + "' is not a URL (" + e.getReason()
                        + "); expected e.g. http://127.0.0.1:8080");
            }
            if (!"http".equals(u.getScheme()) || u.getHost() == null) {
                throw fail("target.url", "'" + url + "' is not an absolute http:// URL with a host; expected e.g. "
                        + "http://127.0.0.1:8080");
            }
            return u;
        }

        /**
         * The scenarios: one named {@code ingest} (it carries the claims and takes its rate from the steps), the
         * others with rates of their own. Each is built once here, against the target, so a bad key is exit 2 now.
         */
        private SeriesPlan.Requests requests(List<ScenarioSpec> specs, URI base) {
            if (specs.isEmpty()) {
                throw fail("scenarios", "is empty: give at least the ingest scenario");
            }
            int ingest = -1;
            for (int i = 0; i < specs.size(); i++) {
                if (specs.get(i) == null) {
                    throw fail("scenarios[" + i + "]", "is empty: a scenario is a mapping");
                }
                if (SeriesPlan.INGEST.equals(specs.get(i).name())) {
                    ingest = i;
                }
            }
            if (ingest < 0) {
                throw fail("scenarios", "has no scenario named ingest: the one that writes, whose events are claimed "
                        + "and whose rate the ladder, sustained and ceiling steps set (names: "
                        + specs.stream().map(ScenarioSpec::name).toList() + ")");
            }
            if (specs.get(ingest).rate() != null) {
                throw fail("scenarios[" + ingest + "].rate", "is set by the steps for ingest (ladder.rates, "
                        + "sustained.rate): leave it out");
            }
            if (specs.get(ingest).body() == null) {
                throw fail("scenarios[" + ingest + "].body", "is missing: the ingest scenario's body says how many "
                        + "events a request carries (batch) and what they are");
            }
            SeriesPlan.Requests requests = new SeriesPlan.Requests(file, dir, specs, ingest);
            requests.scenarios(base == null ? UNSTARTED : base, 1, null, true); // every scenario built once: errors now
            return requests;
        }

        private SeriesPlan.Load load(Load l) {
            if (l == null) {
                return new SeriesPlan.Load(10, "api_calls", "cust-%d", 1000, 64, Duration.ofSeconds(5), 5);
            }
            return build("load", () -> new SeriesPlan.Load(l.batch() == null ? 10 : l.batch(),
                    l.meter() == null ? "api_calls" : l.meter(), "cust-%d", l.customers() == null ? 1000 : l.customers(),
                    l.maxInFlight() == null ? 64 : l.maxInFlight(), duration(l.timeout(), "load.timeout",
                    Duration.ofSeconds(5)), l.probeRate() == null ? 5 : l.probeRate()));
        }

        private SeriesPlan.Ladder ladder(Ladder ld) {
            if (ld == null) {
                return null;
            }
            if (ld.rates() == null || ld.rates().isEmpty()) {
                throw fail("ladder.rates", "must be a list of request rates per second, e.g. [50, 100, 200]");
            }
            for (Double r : ld.rates()) {
                if (r == null || !(r > 0)) {
                    throw fail("ladder.rates", "holds '" + r + "', not a rate > 0");
                }
            }
            return build("ladder", () -> new SeriesPlan.Ladder(ld.rates(), ld.repeats() == null ? 2 : ld.repeats(),
                    duration(ld.duration(), "ladder.duration", Duration.ofSeconds(90))));
        }

        private List<String> watchTables(JsonNode wt) {
            if (wt == null || wt.isNull()) {
                return null;
            }
            if (!wt.isArray()) {
                throw fail("watch_tables", "must be a list of table names, e.g. [usage_events, api_keys]");
            }
            List<String> names = new ArrayList<>();
            wt.forEach(t -> {
                if (!t.isTextual() || t.asText().isBlank()) {
                    throw fail("watch_tables", "holds '" + t.asText() + "', not a table name");
                }
                names.add(t.asText());
            });
            return names;
        }

        private <T> T build(String at, java.util.function.Supplier<T> make) {
            try {
                return make.get();
            } catch (IllegalArgumentException e) {
                throw new UsageException(file + ": " + at + ": " + e.getMessage());
            }
        }

        private String nonBlank(String v, String key) {
            if (v != null && v.isBlank()) {
                throw fail(key, "must be a non-empty string");
            }
            return v;
        }

        private String oneOf(String v, String key, String fallback, Set<String> allowed) {
            if (v == null) {
                return fallback;
            }
            if (!allowed.contains(v)) {
                throw fail(key, "'" + v + "' is not one of " + new java.util.TreeSet<>(allowed));
            }
            return v;
        }

        private Duration duration(String v, String key, Duration fallback) {
            if (v == null) {
                return fallback;
            }
            try {
                return Durations.parse(key, v);
            } catch (UsageException e) {
                throw new UsageException(file + ": " + e.getMessage());
            }
        }

        @SuppressWarnings("unchecked")
        private Map<String, Object> mapping(JsonNode node, String key) {
            if (!node.isObject()) {
                throw fail(key, "must be a mapping");
            }
            return (Map<String, Object>) ScenarioSpec.Yaml.plain(node);
        }

        /** {@code denominator.quantity}: a number, or {@code {min: N, max: M}}; null when absent. */
        private SeriesPlan.QuantityRange quantity(JsonNode n) {
            if (n == null || n.isNull()) {
                return null;
            }
            String usage = "must be a whole number >= 0 or {min: N, max: M} (the values the insert's ${quantity} draws)";
            if (n.isIntegralNumber()) {
                return build("denominator.quantity", () -> new SeriesPlan.QuantityRange(n.asLong(), n.asLong()));
            }
            if (!n.isObject() || !n.path("min").isIntegralNumber() || !n.path("max").isIntegralNumber() || n.size() != 2) {
                throw fail("denominator.quantity", usage);
            }
            return build("denominator.quantity", () -> new SeriesPlan.QuantityRange(n.get("min").asLong(),
                    n.get("max").asLong()));
        }

        private Duration positive(Duration d, String key) {
            if (d != null && (d.isZero() || d.isNegative())) {
                throw fail(key, "must be > 0");
            }
            return d;
        }

        private UsageException fail(String key, String problem) {
            return new UsageException(file + ": " + key + " " + problem);
        }
    }
}
