package io.rigscope.rig.cloud.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * AWS's published CloudFormation resource specification, as npm's {@code @aws-cdk/cfnspec} ships it, and a check of
 * a template against it: every resource type and property known, required properties present, each value of a type
 * the specification allows (an intrinsic function stands for any type), every {@code Ref}, {@code Fn::GetAtt} and
 * {@code Fn::Sub} reference resolving to a resource, parameter or pseudo parameter, and every attribute it reads one
 * the resource type has.
 *
 * <p>Where it is read: the system property {@code rigscope.cfnspec} (a specification.json), else
 * {@code target/cfnspec/node_modules/@aws-cdk/cfnspec/spec/specification.json}, which {@code .ci/run} installs; when
 * that is absent and npm is on the PATH it is installed there now. Without npm the test is skipped, saying so.
 */
final class CfnSpec {

    /** The package version the suite checks against (its specification is CloudFormation's 117.0.0). */
    static final String PACKAGE = "@aws-cdk/cfnspec@2.72.1";
    private static final Path INSTALL_DIR = Path.of("target", "cfnspec");
    private static final Pattern SUB_VAR = Pattern.compile("\\$\\{([^!}][^}]*)}");

    private final JsonNode resourceTypes;
    private final JsonNode propertyTypes;
    private final String version;

    private CfnSpec(JsonNode root) {
        this.resourceTypes = root.get("ResourceTypes");
        this.propertyTypes = root.get("PropertyTypes");
        this.version = root.path("ResourceSpecificationVersion").asText();
    }

    String version() {
        return version;
    }

    boolean hasTags(String type) {
        return resourceTypes.path(type).path("Properties").has("Tags");
    }

    /** The specification, installed with npm when it is not there yet; the calling test is skipped without npm. */
    static CfnSpec load() throws IOException, InterruptedException {
        String configured = System.getProperty("rigscope.cfnspec");
        Path file = configured != null ? Path.of(configured)
                : INSTALL_DIR.resolve("node_modules/@aws-cdk/cfnspec/spec/specification.json");
        if (!Files.exists(file) && configured == null) {
            String npm = onPath("npm");
            Assumptions.assumeTrue(npm != null, "npm is not installed: cannot install " + PACKAGE + " (AWS's "
                    + "CloudFormation resource specification) to check the template against; .ci/run installs both");
            Files.createDirectories(INSTALL_DIR);
            Process p = new ProcessBuilder(npm, "install", "--prefix", INSTALL_DIR.toString(), "--no-save",
                    "--no-audit", "--no-fund", "--ignore-scripts", PACKAGE).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("npm install " + PACKAGE + " failed: " + output);
            }
        }
        if (!Files.exists(file)) {
            throw new IllegalStateException(file + " is missing (rigscope.cfnspec names it, or npm did not install it)");
        }
        return new CfnSpec(new ObjectMapper().readTree(file.toFile()));
    }

    private static String onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(dir, command);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    /** Every way {@code template} (parsed back from its YAML) breaks the specification; empty when none. */
    @SuppressWarnings("unchecked")
    List<String> problems(Map<String, Object> template) {
        List<String> problems = new ArrayList<>();
        Map<String, Object> resources = (Map<String, Object>) template.get("Resources");
        Map<String, Object> parameters = (Map<String, Object>) template.getOrDefault("Parameters", Map.of());
        for (Map.Entry<String, Object> e : resources.entrySet()) {
            String id = e.getKey();
            Map<String, Object> body = (Map<String, Object>) e.getValue();
            String type = (String) body.get("Type");
            JsonNode spec = resourceTypes.get(type);
            if (spec == null) {
                problems.add(id + ": unknown resource type " + type);
                continue;
            }
            for (Object dep : (List<Object>) body.getOrDefault("DependsOn", List.of())) {
                if (!resources.containsKey(dep)) {
                    problems.add(id + ": DependsOn " + dep + " is not a resource");
                }
            }
            Map<String, Object> props = (Map<String, Object>) body.getOrDefault("Properties", Map.of());
            checkStruct(props, spec.get("Properties"), type, id, problems);
            references(props, id, resources, parameters, problems);
        }
        Map<String, Object> outputs = (Map<String, Object>) template.getOrDefault("Outputs", Map.of());
        references(outputs, "Outputs", resources, parameters, problems);
        return problems;
    }

    private void checkStruct(Map<String, Object> value, JsonNode properties, String resourceType, String at,
                             List<String> problems) {
        properties.fields().forEachRemaining(p -> {
            if (p.getValue().path("Required").asBoolean() && !value.containsKey(p.getKey())) {
                problems.add(at + ": required property " + p.getKey() + " is missing");
            }
        });
        for (Map.Entry<String, Object> v : value.entrySet()) {
            JsonNode prop = properties.get(v.getKey());
            if (prop == null) {
                problems.add(at + "." + v.getKey() + ": not a property of " + resourceType);
            } else {
                checkValue(v.getValue(), prop, resourceType, at + "." + v.getKey(), problems);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void checkValue(Object value, JsonNode prop, String resourceType, String at, List<String> problems) {
        if (isIntrinsic(value)) {
            return;
        }
        if (prop.has("PrimitiveType")) {
            checkPrimitive(value, prop.get("PrimitiveType").asText(), at, problems);
            return;
        }
        String type = prop.path("Type").asText();
        if (type.equals("List") || type.equals("Map")) {
            boolean list = type.equals("List");
            if (list ? !(value instanceof List) : !(value instanceof Map)) {
                problems.add(at + ": must be a " + type + ", was " + value);
                return;
            }
            Iterable<Object> items = list ? (List<Object>) value : ((Map<String, Object>) value).values();
            int i = 0;
            for (Object item : items) {
                String itemAt = at + "[" + i++ + "]";
                if (prop.has("PrimitiveItemType")) {
                    if (!isIntrinsic(item)) {
                        checkPrimitive(item, prop.get("PrimitiveItemType").asText(), itemAt, problems);
                    }
                } else {
                    checkStructOf(item, prop.get("ItemType").asText(), resourceType, itemAt, problems);
                }
            }
            return;
        }
        checkStructOf(value, type, resourceType, at, problems);
    }

    @SuppressWarnings("unchecked")
    private void checkStructOf(Object value, String typeName, String resourceType, String at, List<String> problems) {
        if (isIntrinsic(value)) {
            return;
        }
        JsonNode struct = propertyTypes.get(resourceType + "." + typeName);
        if (struct == null) {
            struct = propertyTypes.get(typeName);
        }
        if (struct == null) {
            problems.add(at + ": the specification has no property type " + typeName);
            return;
        }
        if (!(value instanceof Map)) {
            problems.add(at + ": must be a " + typeName + " mapping, was " + value);
            return;
        }
        checkStruct((Map<String, Object>) value, struct.get("Properties"), resourceType, at, problems);
    }

    private static void checkPrimitive(Object value, String primitive, String at, List<String> problems) {
        boolean ok = switch (primitive) {
            case "String", "Timestamp" -> value instanceof String;
            case "Integer", "Long" -> value instanceof Integer || value instanceof Long
                    || value instanceof String s && s.matches("-?\\d+");
            case "Double" -> value instanceof Number || value instanceof String s && s.matches("-?\\d+(\\.\\d+)?");
            case "Boolean" -> value instanceof Boolean || "true".equals(value) || "false".equals(value);
            case "Json" -> value instanceof Map || value instanceof List;
            default -> false;
        };
        if (!ok) {
            problems.add(at + ": must be a " + primitive + ", was " + value + " ("
                    + (value == null ? "null" : value.getClass().getSimpleName()) + ")");
        }
    }

    private static boolean isIntrinsic(Object value) {
        return value instanceof Map<?, ?> m && m.size() == 1
                && m.keySet().iterator().next() instanceof String k && (k.equals("Ref") || k.startsWith("Fn::"));
    }

    @SuppressWarnings("unchecked")
    private void references(Object node, String at, Map<String, Object> resources, Map<String, Object> parameters,
                            List<String> problems) {
        if (node instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                Object v = e.getValue();
                if ("Ref".equals(e.getKey())) {
                    String target = (String) v;
                    if (!resources.containsKey(target) && !parameters.containsKey(target) && !target.startsWith("AWS::")) {
                        problems.add(at + ": Ref " + target + " resolves to nothing");
                    }
                } else if ("Fn::GetAtt".equals(e.getKey())) {
                    List<Object> pair = (List<Object>) v;
                    getAtt((String) pair.get(0), (String) pair.get(1), at, resources, problems);
                } else if ("Fn::Sub".equals(e.getKey()) && v instanceof String text) {
                    Matcher mm = SUB_VAR.matcher(text);
                    while (mm.find()) {
                        String name = mm.group(1);
                        int dot = name.indexOf('.');
                        if (dot > 0) {
                            getAtt(name.substring(0, dot), name.substring(dot + 1), at, resources, problems);
                        } else if (!resources.containsKey(name) && !parameters.containsKey(name)
                                && !name.startsWith("AWS::")) {
                            problems.add(at + ": Fn::Sub ${" + name + "} resolves to nothing");
                        }
                    }
                }
                references(v, at, resources, parameters, problems);
            }
        } else if (node instanceof List<?> l) {
            for (Object o : l) {
                references(o, at, resources, parameters, problems);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void getAtt(String id, String attribute, String at, Map<String, Object> resources, List<String> problems) {
        Object r = resources.get(id);
        if (r == null) {
            problems.add(at + ": GetAtt " + id + "." + attribute + ": no resource " + id);
            return;
        }
        String type = (String) ((Map<String, Object>) r).get("Type");
        JsonNode spec = resourceTypes.path(type);
        if (!spec.path("Attributes").has(attribute)) {
            problems.add(at + ": GetAtt " + id + "." + attribute + ": " + type + " has no attribute " + attribute);
        }
    }
}
