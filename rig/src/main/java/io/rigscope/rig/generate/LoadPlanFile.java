package io.rigscope.rig.generate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rigscope.generator.plan.BodyTemplate;
import io.rigscope.generator.plan.CustomerPool;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.rig.cli.Durations;
import io.rigscope.rig.cli.UsageException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
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
 * Reads a {@link LoadPlan} from YAML (docs/generator.md has the full key table). Every problem is a
 * {@link UsageException} naming the file and the key path, e.g. {@code plan.yaml: scenarios[0].rate: must be > 0}.
 *
 * <pre>
 * series: demo-1
 * mode: open-loop
 * duration: 60s
 * scenarios:
 *   - name: ingest
 *     method: POST
 *     url: http://127.0.0.1:8080/v1/usage-events
 *     headers: {Authorization: "Bearer KEY"}
 *     rate: 12000
 *     rate_unit: events/s
 *     max_in_flight: 256
 *     timeout: 10s
 *     body: {batch: 100, meter: api_calls, customers: {pattern: "cust-%d", from: 1, to: 1000}, quantity: {min: 1, max: 10}}
 *   - name: probe
 *     method: GET
 *     url: http://127.0.0.1:8080/v1/customers/cust-1/usage
 *     rate: 2
 * </pre>
 */
public final class LoadPlanFile {

    private static final Set<String> TOP = Set.of("series", "rep", "src", "phase", "mode", "duration", "scenarios");
    private static final Set<String> SCENARIO = Set.of("name", "method", "url", "headers", "rate", "rate_unit",
            "max_in_flight", "workers", "timeout", "body");
    private static final Set<String> BODY = Set.of("batch", "meter", "customers", "quantity", "properties", "envelope",
            "event");

    private final String file;

    private LoadPlanFile(String file) {
        this.file = file;
    }

    /**
     * Reads the plan; values given here for series, rep and src win over the file's (null keeps the file's).
     *
     * @throws UsageException naming the file and key when the file is unreadable or a value is wrong
     */
    public static LoadPlan read(Path path, String seriesOverride, Integer repOverride, String srcOverride) {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(path));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new UsageException(path + ": no such plan file");
        } catch (IOException e) {
            throw new UsageException(path + ": cannot read the plan: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new UsageException(path + ": a plan is a YAML mapping with 'scenarios'");
        }
        return new LoadPlanFile(path.toString()).plan(root, seriesOverride, repOverride, srcOverride);
    }

    private LoadPlan plan(JsonNode root, String seriesOverride, Integer repOverride, String srcOverride) {
        keys(root, TOP, "");
        String series = seriesOverride != null ? seriesOverride : text(root, "series", "", defaultSeries());
        int rep = repOverride != null ? repOverride : (int) number(root, "rep", "", 0);
        String src = srcOverride != null ? srcOverride : text(root, "src", "", "gen-1");
        LoopMode mode = mode(text(root, "mode", "", "open-loop"));
        Duration duration = duration(root, "duration", "", null);
        JsonNode list = root.get("scenarios");
        if (list == null || !list.isArray() || list.isEmpty()) {
            throw fail("scenarios", "a list of at least one scenario is required");
        }
        List<Scenario> scenarios = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            scenarios.add(scenario(list.get(i), "scenarios[" + i + "].", mode));
        }
        try {
            return new LoadPlan(series, rep, src, text(root, "phase", "", null), mode, duration, scenarios, null);
        } catch (IllegalArgumentException e) {
            throw new UsageException(file + ": " + e.getMessage());
        }
    }

    private Scenario scenario(JsonNode node, String at, LoopMode mode) {
        if (!node.isObject()) {
            throw fail(at.substring(0, at.length() - 1), "a scenario is a mapping");
        }
        keys(node, SCENARIO, at);
        String name = text(node, "name", at, null);
        String method = text(node, "method", at, node.has("body") ? "POST" : "GET");
        URI url = uri(text(node, "url", at, null), at + "url");
        Map<String, String> headers = stringMap(node.get("headers"), at + "headers");
        BodyTemplate body = node.has("body") ? body(node.get("body"), at + "body.") : null;
        double rate = node.has("rate") ? number(node, "rate", at, 0) : mode == LoopMode.CLOSED ? 1 : missing(at + "rate");
        String unit = text(node, "rate_unit", at, "requests/s");
        if (unit.equals("events/s")) {
            if (body == null) {
                throw fail(at + "rate_unit", "events/s needs a body (its batch converts events to requests)");
            }
            rate = Scenario.requestsPerSecForEvents(rate, body.batch());
        } else if (!unit.equals("requests/s")) {
            throw fail(at + "rate_unit", "'" + unit + "' is not requests/s or events/s");
        }
        int maxInFlight = (int) number(node, node.has("workers") ? "workers" : "max_in_flight", at, 256);
        Duration timeout = duration(node, "timeout", at, Duration.ofSeconds(10));
        try {
            return new Scenario(name, method, url, headers, rate, maxInFlight, timeout, body);
        } catch (IllegalArgumentException e) {
            throw new UsageException(file + ": " + at + " " + e.getMessage());
        }
    }

    private BodyTemplate body(JsonNode node, String at) {
        if (!node.isObject()) {
            throw fail(at.substring(0, at.length() - 1), "body is a mapping");
        }
        keys(node, BODY, at);
        int batch = (int) number(node, "batch", at, 1);
        String meter = text(node, "meter", at, "api_calls");
        CustomerPool customers = customers(node.get("customers"), at + "customers");
        long qMin = 1;
        long qMax = 10;
        JsonNode q = node.get("quantity");
        if (q != null) {
            if (q.isNumber()) {
                qMin = q.asLong();
                qMax = qMin;
            } else if (q.isObject()) {
                qMin = (long) number(q, "min", at + "quantity.", 1);
                qMax = (long) number(q, "max", at + "quantity.", qMin);
            } else {
                throw fail(at + "quantity", "a number or {min: N, max: M}");
            }
        }
        try {
            return new BodyTemplate(batch, customers, meter, qMin, qMax, stringMap(node.get("properties"), at + "properties"),
                    text(node, "envelope", at, null), text(node, "event", at, null));
        } catch (IllegalArgumentException e) {
            throw new UsageException(file + ": " + at + " " + e.getMessage());
        }
    }

    private CustomerPool customers(JsonNode node, String at) {
        try {
            if (node == null) {
                return CustomerPool.defaults();
            }
            if (node.isArray()) {
                List<String> ids = new ArrayList<>();
                node.forEach(n -> ids.add(n.asText()));
                return new CustomerPool.Listed(ids);
            }
            if (node.isObject()) {
                return new CustomerPool.Ranged(text(node, "pattern", at + ".", "cust-%d"),
                        (long) number(node, "from", at + ".", 1), (long) number(node, "to", at + ".", 1000));
            }
        } catch (IllegalArgumentException e) {
            throw fail(at, e.getMessage());
        }
        throw fail(at, "a list of ids or {pattern: \"cust-%d\", from: 1, to: 1000}");
    }

    /** Parses {@code --customers}: {@code a,b,c} or {@code cust-%d:1..1000}. */
    public static CustomerPool customers(String text) {
        try {
            if (text.contains("%d")) {
                int colon = text.lastIndexOf(':');
                String[] range = colon < 0 ? new String[] {"1", "1000"} : text.substring(colon + 1).split("\\.\\.");
                if (range.length != 2) {
                    throw new IllegalArgumentException("range must be FROM..TO");
                }
                return new CustomerPool.Ranged(colon < 0 ? text : text.substring(0, colon),
                        Long.parseLong(range[0].strip()), Long.parseLong(range[1].strip()));
            }
            return new CustomerPool.Listed(List.of(text.split(",")));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--customers '" + text + "': " + e.getMessage()
                    + "; expected a,b,c or cust-%d:1..1000");
        }
    }

    private void keys(JsonNode node, Set<String> allowed, String at) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!allowed.contains(key)) {
                throw fail(at + key, "unknown key; allowed here: " + allowed.stream().sorted().toList());
            }
        }
    }

    private String text(JsonNode node, String key, String at, String fallback) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            if (fallback == null && !key.equals("phase") && !key.equals("envelope") && !key.equals("event")) {
                throw fail(at + key, "is required");
            }
            return fallback;
        }
        if (!v.isValueNode()) {
            throw fail(at + key, "must be a string");
        }
        return v.asText();
    }

    private double number(JsonNode node, String key, String at, double fallback) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isNumber()) {
            throw fail(at + key, "'" + v.asText() + "' is not a number");
        }
        return v.asDouble();
    }

    private double missing(String key) {
        throw fail(key, "is required");
    }

    private Duration duration(JsonNode node, String key, String at, Duration fallback) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            if (fallback == null) {
                throw fail(at + key, "is required (e.g. 30s, 10m)");
            }
            return fallback;
        }
        try {
            return Durations.parse(at + key, v.asText());
        } catch (UsageException e) {
            throw new UsageException(file + ": " + e.getMessage());
        }
    }

    private Map<String, String> stringMap(JsonNode node, String at) {
        Map<String, String> out = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            throw fail(at, "must be a mapping of names to strings");
        }
        node.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private URI uri(String text, String at) {
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            throw fail(at, "'" + text + "' is not a URL: " + e.getMessage());
        }
    }

    private LoopMode mode(String label) {
        try {
            return LoopMode.ofLabel(label);
        } catch (IllegalArgumentException e) {
            throw fail("mode", e.getMessage());
        }
    }

    private UsageException fail(String key, String message) {
        return new UsageException(file + ": " + key + ": " + message);
    }

    /** {@code gen-YYYYMMDD-HHMMSS} in UTC. */
    public static String defaultSeries() {
        return "gen-" + java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.now());
    }
}
