package io.rigscope.rig.plan;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rigscope.rig.options.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * YAML bound into records with Jackson: keys in snake_case ({@code max_in_flight} binds {@code maxInFlight}),
 * unknown keys refused, and every binding problem a {@link UsageException} naming the file and the key's path
 * ({@code series.yaml: scenarios[0].body.bacth: is not a known key here; known: batch, customers, ...}).
 */
public final class PlanYaml {

    /** Untyped values as the wire's maps hold them: whole numbers as Long, others as Double. */
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
            .configure(DeserializationFeature.USE_LONG_FOR_INTS, true)
            .configure(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY, false);

    private PlanYaml() {
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
