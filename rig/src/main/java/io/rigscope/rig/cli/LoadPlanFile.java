package io.rigscope.rig.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.rigscope.generator.plan.CustomerPool;
import io.rigscope.generator.plan.LoadPlan;
import io.rigscope.generator.plan.LoopMode;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.plan.ScenarioSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@link LoadPlan} from YAML (docs/generator.md has the full key table): the top level here, each scenario
 * a {@link ScenarioSpec} (the keys a series file's {@code scenarios} have, one reader for both). Every problem is a
 * {@link UsageException} naming the file and the key path, e.g. {@code plan.yaml: scenarios[0].rate: is required}.
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
final class LoadPlanFile {

    /** The file's top level; {@code scenarios} are {@link ScenarioSpec}s, the keys a series file's scenarios have. */
    private record Top(String series, Integer rep, String src, String phase, String mode, String duration,
                       List<ScenarioSpec> scenarios) {
    }

    private LoadPlanFile() {
    }

    /**
     * Reads the plan; values given here for series, rep and src win over the file's (null keeps the file's).
     *
     * @throws UsageException naming the file and key when the file is unreadable or a value is wrong
     */
    public static LoadPlan read(Path path, String seriesOverride, Integer repOverride, String srcOverride) {
        String file = path.toString();
        JsonNode root;
        try {
            root = ScenarioSpec.Yaml.readFile(path);
        } catch (UsageException e) {
            if (!java.nio.file.Files.exists(path)) {
                throw new UsageException(path + ": no such plan file");
            }
            throw e;
        }
        Top top = ScenarioSpec.Yaml.bind(root, Top.class, file, "");
        String series = seriesOverride != null ? seriesOverride : top.series() != null ? top.series() : defaultSeries();
        int rep = repOverride != null ? repOverride : top.rep() == null ? 0 : top.rep();
        String src = srcOverride != null ? srcOverride : top.src() != null ? top.src() : "gen-1";
        LoopMode mode = mode(file, top.mode() == null ? "open-loop" : top.mode());
        if (top.duration() == null) {
            throw new UsageException(file + ": duration is required (e.g. 30s, 10m)");
        }
        Duration duration;
        try {
            duration = Durations.parse("duration", top.duration());
        } catch (UsageException e) {
            throw new UsageException(file + ": " + e.getMessage());
        }
        if (top.scenarios() == null || top.scenarios().isEmpty()) {
            throw new UsageException(file + ": scenarios is required: a list of at least one scenario");
        }
        Path dir = path.toAbsolutePath().getParent();
        List<Scenario> scenarios = new ArrayList<>();
        for (int i = 0; i < top.scenarios().size(); i++) {
            ScenarioSpec spec = top.scenarios().get(i);
            if (spec == null) {
                throw new UsageException(file + ": scenarios[" + i + "]: a scenario is a mapping");
            }
            scenarios.add(spec.toScenario(new ScenarioSpec.Placement(file, "scenarios[" + i + "]", null, dir, null,
                    null, mode != LoopMode.CLOSED)));
        }
        try {
            return new LoadPlan(series, rep, src, top.phase(), mode, duration, scenarios, null);
        } catch (IllegalArgumentException e) {
            throw new UsageException(file + ": " + e.getMessage());
        }
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

    private static LoopMode mode(String file, String label) {
        try {
            return LoopMode.ofLabel(label);
        } catch (IllegalArgumentException e) {
            throw new UsageException(file + ": mode: " + e.getMessage());
        }
    }

    /** {@code gen-YYYYMMDD-HHMMSS} in UTC. */
    public static String defaultSeries() {
        return "gen-" + java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.now());
    }
}
