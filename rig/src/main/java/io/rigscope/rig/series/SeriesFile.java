package io.rigscope.rig.series;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.threshold.ThresholdSyntaxException;
import io.rigscope.rig.cli.Durations;
import io.rigscope.rig.cli.UsageException;
import io.rigscope.sut.SutContract;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A series config file ({@code rigscope run --config series.yaml}). Every key is checked: an unknown key, a
 * wrong type or an impossible value is a {@link UsageException} naming the file and the key. docs/protocol.md
 * shows a complete file.
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
 */
public record SeriesFile(SeriesPlan plan, String database, boolean startSut, String tenant, List<String> watchTables,
                         String sutTouch, String sutInsert, String sutAppPassword, Path pgLog, Double costPerHour) {

    public SeriesFile {
        watchTables = watchTables == null ? null : List.copyOf(watchTables);
    }

    private static final Set<String> TOP = Set.of("series", "target", "database", "sut", "load", "ladder",
            "sustained", "ceiling", "denominator", "thresholds", "analyzer", "reconciliation_sql", "watch_tables",
            "pglog", "cost_per_hour");
    /** Untyped YAML values as the wire's maps hold them: whole numbers as Long, others as Double. */
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.USE_LONG_FOR_INTS, true);

    /** Placeholder target while the reference SUT is not started yet. */
    public static final URI UNSTARTED = URI.create("http://127.0.0.1:1");

    /**
     * Reads and validates a config file.
     *
     * @param seriesOverride the series id from the command line, or null
     * @param defaultSeries used when neither the file nor the command line names one
     */
    public static SeriesFile read(Path path, String seriesOverride, String defaultSeries) {
        String text;
        try {
            text = Files.readString(path);
        } catch (IOException e) {
            throw new UsageException(path + ": cannot read: " + e.getMessage().lines().findFirst().orElse(""));
        }
        return read(path.toString(), text, seriesOverride, defaultSeries);
    }

    /**
     * Reads and validates a config given as text (a built-in series file).
     *
     * @param source the file's name in messages
     */
    public static SeriesFile read(String source, String yaml, String seriesOverride, String defaultSeries) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (IOException e) {
            throw new UsageException(source + ": cannot read: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (root == null || !root.isObject()) {
            throw new UsageException(source + ": expected a YAML mapping at the top");
        }
        return new Reader(source).series(root, seriesOverride, defaultSeries);
    }

    /** This file with the reference SUT's app-role password replaced ({@code demo --app-password}). */
    public SeriesFile withAppPassword(String password) {
        return new SeriesFile(plan, database, startSut, tenant, watchTables, sutTouch, sutInsert, password, pgLog,
                costPerHour);
    }

    /** This file with {@code database} replaced (by {@code --pg}). */
    public SeriesFile withDatabase(String url) {
        return new SeriesFile(plan, url, startSut, tenant, watchTables, sutTouch, sutInsert, sutAppPassword, pgLog,
                costPerHour);
    }

    /**
     * This file's plan aimed at a started reference SUT: what the file leaves out (API key, reconciliation SQL)
     * is the reference SUT's ({@link SutContract}).
     */
    public SeriesPlan planFor(URI target) {
        SeriesPlan p = plan;
        return new SeriesPlan(p.series(), target, p.apiKey() != null ? p.apiKey() : SutContract.API_KEY, p.load(),
                p.ladder(), p.sustained(), p.ceiling(), p.denominator(), p.analyzer(),
                p.reconciliationSql() != null ? p.reconciliationSql() : SutContract.RECONCILIATION_SQL);
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

    private record Reader(String file) {

        SeriesFile series(JsonNode root, String seriesOverride, String defaultSeries) {
            known(root, TOP, "");
            String series = seriesOverride != null ? seriesOverride : text(root, "series", "", defaultSeries);
            JsonNode target = object(root, "target", "");
            String url = target == null ? null : text(target, "url", "target.", null);
            if (target != null) {
                known(target, Set.of("url", "api_key", "tenant"), "target.");
            }
            String apiKey = target == null ? null : text(target, "api_key", "target.", null);
            String tenant = target == null ? null : text(target, "tenant", "target.", null);
            String database = text(root, "database", "", null);
            List<String> watchTables = null;
            JsonNode wt = root.get("watch_tables");
            if (wt != null && !wt.isNull()) {
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
                watchTables = names;
            }
            JsonNode sut = object(root, "sut", "");
            if (sut != null) {
                known(sut, Set.of("touch", "insert", "app_password"), "sut.");
            }
            String touch = sut == null ? "per-minute" : oneOf(sut, "touch", "sut.", "per-minute",
                    Set.of("per-minute", "every-request"));
            String insert = sut == null ? "multi-row" : oneOf(sut, "insert", "sut.", "multi-row",
                    Set.of("multi-row", "per-event"));

            JsonNode l = object(root, "load", "");
            SeriesPlan.Load load = l == null ? new SeriesPlan.Load(10, "api_calls", "cust-%d", 1000, 64,
                    Duration.ofSeconds(5), 5) : load(l);
            SeriesPlan.Ladder ladder = null;
            JsonNode ld = object(root, "ladder", "");
            if (ld != null) {
                known(ld, Set.of("rates", "repeats", "duration"), "ladder.");
                JsonNode rates = ld.get("rates");
                if (rates == null || !rates.isArray() || rates.isEmpty()) {
                    throw fail("ladder.rates", "must be a list of request rates per second, e.g. [50, 100, 200]");
                }
                List<Double> list = new ArrayList<>();
                rates.forEach(r -> {
                    if (!r.isNumber() || r.asDouble() <= 0) {
                        throw fail("ladder.rates", "holds '" + r.asText() + "', not a rate > 0");
                    }
                    list.add(r.asDouble());
                });
                ladder = build("ladder", () -> new SeriesPlan.Ladder(list, (int) integer(ld, "repeats", "ladder.", 2),
                        duration(ld, "duration", "ladder.", Duration.ofSeconds(90))));
            }
            JsonNode su = object(root, "sustained", "");
            if (su == null) {
                throw fail("sustained", "is missing: a series needs its sustained repeats (rate, repeats, duration)");
            }
            known(su, Set.of("rate", "repeats", "duration", "cooldown"), "sustained.");
            if (!su.has("rate")) {
                throw fail("sustained.rate", "is missing (requests per second)");
            }
            SeriesPlan.Sustained sustained = build("sustained", () -> new SeriesPlan.Sustained(
                    number(su, "rate", "sustained.", 0), (int) integer(su, "repeats", "sustained.", 5),
                    duration(su, "duration", "sustained.", Duration.ofMinutes(10)),
                    duration(su, "cooldown", "sustained.", Duration.ofSeconds(30))));
            SeriesPlan.Ceiling ceiling = null;
            JsonNode c = object(root, "ceiling", "");
            if (c != null) {
                known(c, Set.of("workers", "duration"), "ceiling.");
                ceiling = build("ceiling", () -> new SeriesPlan.Ceiling((int) integer(c, "workers", "ceiling.", 8),
                        duration(c, "duration", "ceiling.", Duration.ofSeconds(30))));
            }
            SeriesPlan.DenominatorSpec denominator = null;
            JsonNode d = object(root, "denominator", "");
            if (d != null) {
                known(d, Set.of("clients", "duration"), "denominator.");
                denominator = build("denominator", () -> new SeriesPlan.DenominatorSpec(
                        (int) integer(d, "clients", "denominator.", 8),
                        duration(d, "duration", "denominator.", Duration.ofSeconds(30))));
            }
            Map<String, Object> analyzer = new LinkedHashMap<>();
            JsonNode a = object(root, "analyzer", "");
            if (a != null) {
                analyzer.putAll(plain(a));
            }
            JsonNode th = object(root, "thresholds", "");
            if (th != null) {
                analyzer.put("thresholds", plain(th));
            }
            try {
                // what the analyzer will read from the CONFIG marker: a bad key or threshold is exit 2 before any load
                AnalyzerSettings.defaults().withConfig(analyzer);
            } catch (ThresholdSyntaxException e) {
                throw fail("thresholds:", e.getMessage());
            } catch (IllegalArgumentException e) {
                throw fail("analyzer:", e.getMessage());
            }
            String pglog = text(root, "pglog", "", null);
            SeriesPlan plan = build("series", () -> new SeriesPlan(series, url == null ? UNSTARTED : URI.create(url),
                    apiKey, load, null, sustained, null, null, analyzer, text(root, "reconciliation_sql", "", null)));
            plan = new SeriesPlan(plan.series(), plan.target(), apiKey, load, ladder, sustained, ceiling, denominator,
                    analyzer, plan.reconciliationSql());
            String appPassword = sut == null ? null : text(sut, "app_password", "sut.", null);
            Double cost = root.has("cost_per_hour") ? number(root, "cost_per_hour", "", 0) : null;
            if (cost != null && cost < 0) {
                throw fail("cost_per_hour", "must be >= 0");
            }
            return new SeriesFile(plan, database, url == null, tenant, watchTables, touch, insert, appPassword,
                    pglog == null ? null : Path.of(pglog), cost);
        }

        private SeriesPlan.Load load(JsonNode l) {
            known(l, Set.of("batch", "meter", "customers", "max_in_flight", "timeout", "probe_rate"), "load.");
            return build("load", () -> new SeriesPlan.Load((int) integer(l, "batch", "load.", 10),
                    text(l, "meter", "load.", "api_calls"), "cust-%d", (int) integer(l, "customers", "load.", 1000),
                    (int) integer(l, "max_in_flight", "load.", 64), duration(l, "timeout", "load.", Duration.ofSeconds(5)),
                    number(l, "probe_rate", "load.", 5)));
        }

        private <T> T build(String at, java.util.function.Supplier<T> make) {
            try {
                return make.get();
            } catch (IllegalArgumentException e) {
                throw new UsageException(file + ": " + at + ": " + e.getMessage());
            }
        }

        private void known(JsonNode node, Set<String> keys, String at) {
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!keys.contains(k)) {
                    throw fail(at + k, "is not a known key here; known: " + String.join(", ", new java.util.TreeSet<>(keys)));
                }
            }
        }

        private JsonNode object(JsonNode node, String key, String at) {
            JsonNode v = node.get(key);
            if (v == null || v.isNull()) {
                return null;
            }
            if (!v.isObject()) {
                throw fail(at + key, "must be a mapping");
            }
            return v;
        }

        private String text(JsonNode node, String key, String at, String fallback) {
            JsonNode v = node.get(key);
            if (v == null || v.isNull()) {
                return fallback;
            }
            if (!v.isValueNode() || v.asText().isBlank()) {
                throw fail(at + key, "must be a non-empty string");
            }
            return v.asText();
        }

        private String oneOf(JsonNode node, String key, String at, String fallback, Set<String> allowed) {
            String v = text(node, key, at, fallback);
            if (!allowed.contains(v)) {
                throw fail(at + key, "'" + v + "' is not one of " + new java.util.TreeSet<>(allowed));
            }
            return v;
        }

        private double number(JsonNode node, String key, String at, double fallback) {
            JsonNode v = node.get(key);
            if (v == null || v.isNull()) {
                return fallback;
            }
            if (!v.isNumber()) {
                throw fail(at + key, "must be a number, was '" + v.asText() + "'");
            }
            return v.asDouble();
        }

        private long integer(JsonNode node, String key, String at, long fallback) {
            JsonNode v = node.get(key);
            if (v == null || v.isNull()) {
                return fallback;
            }
            if (!v.canConvertToLong() || !v.isIntegralNumber()) {
                throw fail(at + key, "must be a whole number, was '" + v.asText() + "'");
            }
            return v.asLong();
        }

        private Duration duration(JsonNode node, String key, String at, Duration fallback) {
            JsonNode v = node.get(key);
            if (v == null || v.isNull()) {
                return fallback;
            }
            try {
                return Durations.parse(at + key, v.asText());
            } catch (UsageException e) {
                throw new UsageException(file + ": " + e.getMessage());
            }
        }

        @SuppressWarnings("unchecked")
        private Map<String, Object> plain(JsonNode node) {
            return YAML.convertValue(node, LinkedHashMap.class);
        }

        private UsageException fail(String key, String problem) {
            return new UsageException(file + ": " + key + " " + problem);
        }
    }
}
