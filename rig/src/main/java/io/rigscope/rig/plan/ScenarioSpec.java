package io.rigscope.rig.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.rigscope.generator.plan.BodyTemplate;
import io.rigscope.generator.plan.CustomerPool;
import io.rigscope.generator.plan.ResponseCheck;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.UsageException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * One scenario as a plan file ({@code generate --config}) and a series file ({@code run --config}) write it: the
 * same keys in both, bound by {@link Yaml} and turned into the generator's {@link Scenario} by
 * {@link #toScenario}. docs/generator.md has the key table.
 *
 * <pre>
 * - name: ingest
 *   method: POST
 *   url: /graphql                      # relative: against target.url (series file); absolute: as it is
 *   headers: {Authorization: "Bearer ${env:TOKEN}", Content-Type: application/json}
 *   max_in_flight: 64
 *   timeout: 5s
 *   body: {batch: 10, customers: {pattern: "acct-%d", from: 1, to: 50}, quantity: {min: 1, max: 100},
 *          envelope: '{"query":"mutation { ${events} }"}', event: 'e${index}: add(q: ${quantity}) { id }', separator: " "}
 *   check: {status: [200], body_not_contains: '"errors"'}
 * </pre>
 *
 * @param rate requests per second ({@code rate_unit} events/s converts by the batch); a series' {@code ingest}
 *             takes its rate from the steps instead
 * @param workers the closed loop's word for {@code max_in_flight}
 */
public record ScenarioSpec(String name, String method, String url, Map<String, String> headers, Double rate,
                           String rateUnit, Integer maxInFlight, Integer workers, String timeout, Body body,
                           Check check) {

    /** Without {@code timeout}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /**
     * The request body: a batch of events rendered from {@code event} into {@code envelope}.
     *
     * @param customers a list of ids, {@code {pattern: "cust-%d", from: 1, to: 1000}} or {@code {file: F, column: C}}
     * @param quantity a number or {@code {min: N, max: M}}
     */
    public record Body(Integer batch, String meter, JsonNode customers, JsonNode quantity,
                       Map<String, String> properties, String envelope, String event, String separator) {
    }

    /** k6's {@code check()}: what a response must show to count as a success. */
    public record Check(List<Integer> status, String bodyContains, String bodyNotContains, Json json) {
    }

    /** A JSON value the response must hold: {@code {path: "$.a.b", exists: true}} or {@code equals: V}. */
    public record Json(String path, Boolean exists, JsonNode equals) {
    }

    /**
     * How a scenario is placed: where relative URLs and files resolve, and what the caller sets.
     *
     * @param file the file's name in messages
     * @param at this scenario's path in the file, e.g. {@code scenarios[1]}
     * @param base the base URL relative {@code url}s resolve against, or null (then a url must be absolute)
     * @param dir the directory relative file names resolve against
     * @param rateOverride the rate to use (requests per second) instead of the file's, or null
     * @param maxInFlightOverride the cap to use instead of the file's, or null
     * @param rateRequired false when a missing rate is allowed (closed loop, a series' ingest)
     */
    public record Placement(String file, String at, URI base, Path dir, Double rateOverride, Integer maxInFlightOverride,
                            boolean rateRequired) {
    }

    /** Binds the list under {@code scenarios}; null or empty is a {@link UsageException} naming the key. */
    public static List<ScenarioSpec> list(JsonNode node, String file) {
        if (node == null || node.isNull() || !node.isArray() || node.isEmpty()) {
            throw new UsageException(file + ": scenarios is required: a list of at least one scenario");
        }
        List<ScenarioSpec> out = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode s = node.get(i);
            String at = "scenarios[" + i + "]";
            if (!s.isObject()) {
                throw new UsageException(file + ": " + at + ": a scenario is a mapping");
            }
            out.add(Yaml.bind(s, ScenarioSpec.class, file, at));
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            String n = out.get(i).name();
            if (n != null && names.contains(n)) {
                throw new UsageException(file + ": scenarios[" + i + "].name: '" + n + "' is used twice");
            }
            names.add(n);
        }
        return List.copyOf(out);
    }

    /** The generator's scenario; every problem a {@link UsageException} naming the key. */
    public Scenario toScenario(Placement p) {
        String at = p.at() + ".";
        if (name == null) {
            throw fail(p, at + "name", "is required");
        }
        String m = method != null ? method : body != null ? "POST" : "GET";
        URI target = uri(p, at + "url");
        BodyTemplate template = body == null ? null : body(p, at + "body.");
        double requestsPerSec;
        if (p.rateOverride() != null) {
            requestsPerSec = p.rateOverride();
        } else if (rate != null) {
            String unit = rateUnit == null ? "requests/s" : rateUnit;
            if (unit.equals("events/s")) {
                if (template == null) {
                    throw fail(p, at + "rate_unit", "events/s needs a body (its batch converts events to requests)");
                }
                requestsPerSec = Scenario.requestsPerSecForEvents(rate, template.batch());
            } else if (unit.equals("requests/s")) {
                requestsPerSec = rate;
            } else {
                throw fail(p, at + "rate_unit", "'" + unit + "' is not requests/s or events/s");
            }
        } else if (p.rateRequired()) {
            throw fail(p, at + "rate", "is required (requests per second)");
        } else {
            requestsPerSec = 1;
        }
        if (maxInFlight != null && workers != null) {
            throw fail(p, at + "workers", "cannot be given with max_in_flight (the same cap: give one)");
        }
        int cap = p.maxInFlightOverride() != null ? p.maxInFlightOverride()
                : maxInFlight != null ? maxInFlight : workers != null ? workers
                // without either: k6's maxVUs-like cap, the requests the scenario starts in 25 ms, at least 256
                : io.rigscope.generator.plan.DefaultSizing.maxInFlight(requestsPerSec);
        Duration t = timeout == null ? DEFAULT_TIMEOUT : duration(p, at + "timeout", timeout);
        strings(p, at + "headers", headers);
        ResponseCheck responseCheck = check == null ? null : check(p, at + "check.");
        try {
            return new Scenario(name, m, target, headers, requestsPerSec, cap, t, template, responseCheck);
        } catch (IllegalArgumentException e) {
            throw refused(p, p.at(), e.getMessage());
        }
    }

    /** This scenario's URL as written resolved against the placement's base (for messages and checks). */
    public URI resolvedUrl(Placement p) {
        return uri(p, p.at() + ".url");
    }

    private URI uri(Placement p, String key) {
        if (url == null || url.isBlank()) {
            throw fail(p, key, "is required");
        }
        URI u;
        try {
            u = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw fail(p, key, "'" + url + "' is not a URL (" + e.getReason() + "); expected e.g. http://127.0.0.1:8080/path");
        }
        if (!u.isAbsolute()) {
            if (!url.startsWith("/")) {
                throw fail(p, key, "'" + url + "' is neither an absolute http:// URL nor a path starting with /");
            }
            if (p.base() == null) {
                throw fail(p, key, "'" + url + "' is a path, and there is no target.url to resolve it against");
            }
            String base = p.base().toString();
            u = URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + url);
        }
        if (!"http".equals(u.getScheme()) || u.getHost() == null) {
            throw fail(p, key, "'" + url + "' is not an http:// URL with a host (https is not supported by the "
                    + "generator)");
        }
        return u;
    }

    /** Every value of a name-to-string mapping is there: {@code Authorization:} alone is a mistake, said so. */
    private static void strings(Placement p, String key, Map<String, String> map) {
        if (map != null) {
            map.forEach((k, v) -> {
                if (v == null) {
                    throw fail(p, key + "." + k, "has no value (a string is needed)");
                }
            });
        }
    }

    private BodyTemplate body(Placement p, String at) {
        Body b = body;
        strings(p, at + "properties", b.properties());
        int batch = b.batch() == null ? 1 : b.batch();
        CustomerPool customers = customers(p, at + "customers", b.customers());
        long qMin = 1;
        long qMax = 10;
        JsonNode q = b.quantity();
        if (q != null && !q.isNull()) {
            if (q.isIntegralNumber()) {
                qMin = q.asLong();
                qMax = qMin;
            } else if (q.isObject()) {
                Quantity range = Yaml.bind(q, Quantity.class, p.file(), at + "quantity");
                qMin = range.min() == null ? 1 : range.min();
                qMax = range.max() == null ? qMin : range.max();
            } else {
                throw fail(p, at + "quantity", "must be a whole number or {min: N, max: M}");
            }
        }
        try {
            return new BodyTemplate(batch, customers, b.meter() == null ? "api_calls" : b.meter(), qMin, qMax,
                    b.properties(), b.envelope(), b.event(), b.separator());
        } catch (IllegalArgumentException e) {
            throw refused(p, at.substring(0, at.length() - 1), e.getMessage());
        }
    }

    private record Quantity(Long min, Long max) {
    }

    private record Range(String pattern, Long from, Long to) {
    }

    private record FromFile(String file, String column) {
    }

    private static CustomerPool customers(Placement p, String key, JsonNode node) {
        try {
            if (node == null || node.isNull()) {
                return CustomerPool.defaults();
            }
            if (node.isArray()) {
                List<String> ids = new ArrayList<>();
                node.forEach(n -> ids.add(n.asText()));
                return new CustomerPool.Listed(ids);
            }
            if (node.isObject() && node.has("file")) {
                FromFile f = Yaml.bind(node, FromFile.class, p.file(), key);
                if (f.column() == null) {
                    throw fail(p, key + ".column", "is required with file (the CSV header's column to read)");
                }
                Path csv = Path.of(f.file());
                return CustomerPool.fromCsv(csv.isAbsolute() ? csv : p.dir().resolve(csv), f.column());
            }
            if (node.isObject()) {
                Range r = Yaml.bind(node, Range.class, p.file(), key);
                return new CustomerPool.Ranged(r.pattern() == null ? "cust-%d" : r.pattern(),
                        r.from() == null ? 1 : r.from(), r.to() == null ? 1000 : r.to());
            }
        } catch (IllegalArgumentException e) {
            throw refused(p, key, e.getMessage());
        }
        throw fail(p, key, "must be a list of ids, {pattern: \"cust-%d\", from: 1, to: 1000} or {file: ids.csv, column: id}");
    }

    private ResponseCheck check(Placement p, String at) {
        Check c = check;
        ResponseCheck.JsonCheck json = null;
        if (c.json() != null) {
            Json j = c.json();
            if (j.path() == null) {
                throw fail(p, at + "json.path", "is required (e.g. \"$.data.id\")");
            }
            Object equals = j.equals(); // a Jackson node: NullNode is "equals null", absent is no equals
            try {
                json = new ResponseCheck.JsonCheck(j.path(), j.exists(), equals);
            } catch (IllegalArgumentException e) {
                throw refused(p, at + "json", e.getMessage());
            }
        }
        if (c.status() != null) {
            for (Integer s : c.status()) {
                if (s == null || s < 100 || s > 599) {
                    throw fail(p, at + "status", "holds " + s + ", not an HTTP status (100..599)");
                }
            }
        }
        try {
            return new ResponseCheck(c.status(), c.bodyContains(), c.bodyNotContains(), json);
        } catch (IllegalArgumentException e) {
            throw refused(p, at.substring(0, at.length() - 1), e.getMessage());
        }
    }

    private static Duration duration(Placement p, String key, String text) {
        try {
            return Durations.parse(key, text);
        } catch (UsageException e) {
            throw new UsageException(p.file() + ": " + e.getMessage());
        }
    }

    /** {@code file: key problem}, the problem starting with a verb ({@code is required}, {@code must be ...}). */
    private static UsageException fail(Placement p, String key, String problem) {
        return new UsageException(p.file() + ": " + key + " " + problem);
    }

    /** {@code file: section: reason}, a record's own reason for refusing a value. */
    private static UsageException refused(Placement p, String section, String reason) {
        return new UsageException(p.file() + ": " + section + ": " + reason);
    }

    /**
     * YAML bound into records with Jackson: keys in snake_case ({@code max_in_flight} binds {@code maxInFlight}),
     * unknown keys refused, and every binding problem a {@link UsageException} naming the file and the key's path
     * ({@code series.yaml: scenarios[0].body.bacth: is not a known key here; known: batch, customers, ...}).
     */
    public static final class Yaml {

        /** Untyped values as the wire's maps hold them: whole numbers as Long, others as Double. */
        private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
                .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
                .configure(DeserializationFeature.USE_LONG_FOR_INTS, true)
                .configure(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY, false);

        private Yaml() {
        }

        /** The file's YAML tree; a file that is missing, unreadable or not a mapping is a {@link UsageException}. */
        public static JsonNode readFile(Path path) {
            String text;
            try {
                text = Files.readString(path);
            } catch (NoSuchFileException e) {
                throw new UsageException(path + ": no such file");
            } catch (IOException e) {
                throw new UsageException(path + ": cannot read: " + firstLine(e.getMessage()));
            }
            return readText(path.toString(), text);
        }

        /** The YAML tree of {@code text}, named {@code source} in messages; it must be a mapping. */
        public static JsonNode readText(String source, String text) {
            JsonNode root;
            try {
                root = YAML.readTree(text);
            } catch (IOException e) {
                throw new UsageException(source + ": cannot read: " + firstLine(e.getMessage()));
            }
            if (root == null || !root.isObject()) {
                throw new UsageException(source + ": expected a YAML mapping at the top");
            }
            return root;
        }

        /**
         * Binds {@code node} into {@code type}.
         *
         * @param file the file's name in messages
         * @param at the node's path in the file, e.g. {@code scenarios[0]} (empty at the top)
         */
        public static <T> T bind(JsonNode node, Class<T> type, String file, String at) {
            try {
                return YAML.treeToValue(node, type);
            } catch (UnrecognizedPropertyException e) {
                String known = e.getKnownPropertyIds() == null ? "" : e.getKnownPropertyIds().stream().map(Object::toString)
                        .collect(Collectors.toCollection(TreeSet::new)).toString();
                throw new UsageException(file + ": " + join(at, path(e)) + " is not a known key here; known: "
                        + known.substring(1, Math.max(1, known.length() - 1)));
            } catch (JsonMappingException e) {
                Throwable cause = e.getCause();
                String problem = cause instanceof IllegalArgumentException && cause.getMessage() != null
                        ? cause.getMessage() : e.getOriginalMessage();
                String key = join(at, path(e));
                String text = firstLine(shorten(problem));
                throw new UsageException(file + ": " + key + (text.startsWith("must ") || text.startsWith("is ") ? " " : ": ")
                        + text);
            } catch (IOException e) {
                throw new UsageException(file + ": " + at + ": " + firstLine(e.getMessage()));
            }
        }

        /** A plain value (maps, lists, Long, Double, String, Boolean) of {@code node}, for config data. */
        public static Object plain(JsonNode node) {
            return YAML.convertValue(node, Object.class);
        }

        private static String path(JsonMappingException e) {
            StringBuilder b = new StringBuilder();
            for (JsonMappingException.Reference r : e.getPath()) {
                if (r.getFieldName() != null) {
                    if (!b.isEmpty()) {
                        b.append('.');
                    }
                    b.append(r.getFieldName());
                } else if (r.getIndex() >= 0) {
                    b.append('[').append(r.getIndex()).append(']');
                }
            }
            return b.toString();
        }

        /** {@code at} and a path below it: {@code scenarios[0]} + {@code body.batch}. */
        public static String join(String at, String below) {
            if (at == null || at.isEmpty()) {
                return below;
            }
            if (below == null || below.isEmpty()) {
                return at;
            }
            return below.startsWith("[") ? at + below : at + "." + below;
        }

        /** Jackson's messages name Java types; users wrote YAML. */
        private static String shorten(String message) {
            if (message == null) {
                return "has a wrong value";
            }
            String m = message;
            if (m.startsWith("Cannot deserialize value of type")) {
                String type = m.replaceAll("(?s)Cannot deserialize value of type `([^`]+)`.*", "$1");
                String what = type.endsWith("Integer") || type.endsWith("Long") || type.equals("int") ? "a whole number"
                        : type.endsWith("Double") || type.equals("double") ? "a number"
                        : type.endsWith("String") ? "a string"
                        : type.endsWith("Boolean") ? "true or false"
                        : type.startsWith("java.util.List") || type.startsWith("java.util.ArrayList") ? "a list"
                        : type.startsWith("java.util.Map") || type.startsWith("java.util.LinkedHashMap") ? "a mapping"
                        : "a mapping";
                String from = m.replaceAll("(?s).*from ([^:]+?)( value)?[:(].*", "$1").strip();
                return "must be " + what + (from.isEmpty() || from.equals(m) ? "" : " (was " + from.toLowerCase() + ")");
            }
            return m;
        }

        private static String firstLine(String s) {
            return s == null ? "" : s.lines().findFirst().orElse("");
        }
    }
}
