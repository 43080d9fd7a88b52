package io.rigscope.model.wire;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads and writes a marker's {@code data} object for the {@link MarkerBody} records; the only place marker body
 * keys turn into typed fields and back.
 *
 * <p>Reading takes a known key only when its value has the field's type (a whole number for an integer field, any
 * number for a decimal one, ...); a key it does not know, or a known key whose value does not fit, stays in
 * {@link #rest()}, which the body keeps as its {@code other} map and writes back after its known keys. So a decoded
 * marker never loses a key, and a reader that needs a field finds it null and says so.
 *
 * <p>Writing puts the non-null fields in the order given, which is the order the writers have always used: the
 * bytes on the wire stay what they were.
 */
final class BodyFields {

    private final Map<String, Object> rest;

    BodyFields(Map<?, ?> data) {
        rest = new LinkedHashMap<>();
        if (data != null) {
            data.forEach((k, v) -> rest.put(String.valueOf(k), v));
        }
    }

    /** What no field took, in its original order. */
    Map<String, Object> rest() {
        return rest;
    }

    /** True when none of the keys is present. */
    boolean noneOf(String... keys) {
        for (String k : keys) {
            if (rest.containsKey(k)) {
                return false;
            }
        }
        return true;
    }

    String string(String key) {
        return rest.get(key) instanceof String s ? take(key, s) : null;
    }

    Boolean bool(String key) {
        return rest.get(key) instanceof Boolean b ? take(key, b) : null;
    }

    /** A whole number: an integral value as decoded (a decimal such as {@code 5.0} is left, so it re-encodes as is). */
    Long whole(String key) {
        Object v = rest.get(key);
        return isIntegral(v) ? take(key, ((Number) v).longValue()) : null;
    }

    Integer integer(String key) {
        Object v = rest.get(key);
        if (isIntegral(v) && ((Number) v).longValue() == ((Number) v).intValue()) {
            return take(key, ((Number) v).intValue());
        }
        return null;
    }

    /** Any number, or JSON's {@code "NaN"}/{@code "Infinity"} strings (as Jackson writes a non-finite double). */
    Double decimal(String key) {
        Object v = rest.get(key);
        if (v instanceof Number n) {
            return take(key, n.doubleValue());
        }
        if ("NaN".equals(v) || "Infinity".equals(v) || "-Infinity".equals(v)) {
            return take(key, Double.valueOf((String) v));
        }
        return null;
    }

    static Double decimalOf(Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if ("NaN".equals(v) || "Infinity".equals(v) || "-Infinity".equals(v)) {
            return Double.valueOf((String) v);
        }
        return null;
    }

    /** An object, its keys as strings, in order. */
    Map<String, Object> object(String key) {
        return rest.get(key) instanceof Map<?, ?> m ? take(key, stringKeys(m)) : null;
    }

    /** An object read by {@code parse} (null when it does not fit: then the key is left). */
    <T> T object(String key, Function<Map<String, Object>, T> parse) {
        if (!(rest.get(key) instanceof Map<?, ?> m)) {
            return null;
        }
        T t = parse.apply(stringKeys(m));
        return t == null ? null : take(key, t);
    }

    /** A list of strings. */
    List<String> strings(String key) {
        if (!(rest.get(key) instanceof List<?> list) || !list.stream().allMatch(x -> x instanceof String)) {
            return null;
        }
        return take(key, list.stream().map(String.class::cast).toList());
    }

    /** An object of whole numbers. */
    Map<String, Long> counts(String key) {
        if (!(rest.get(key) instanceof Map<?, ?> m) || !m.values().stream().allMatch(BodyFields::isIntegral)) {
            return null;
        }
        Map<String, Long> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), ((Number) v).longValue()));
        return take(key, out);
    }

    /** A list of objects. */
    List<Map<String, Object>> objects(String key) {
        if (!(rest.get(key) instanceof List<?> list) || !list.stream().allMatch(x -> x instanceof Map<?, ?>)) {
            return null;
        }
        return take(key, list.stream().map(x -> stringKeys((Map<?, ?>) x)).toList());
    }

    /** A list of objects, each read by {@code parse} (null when one does not fit: then the key is left). */
    <T> List<T> objects(String key, Function<BodyFields, T> parse) {
        if (!(rest.get(key) instanceof List<?> list) || !list.stream().allMatch(x -> x instanceof Map<?, ?>)) {
            return null;
        }
        List<T> out = new ArrayList<>();
        for (Object x : list) {
            T t = parse.apply(new BodyFields((Map<?, ?>) x));
            if (t == null) {
                return null;
            }
            out.add(t);
        }
        return take(key, out);
    }

    private <T> T take(String key, T value) {
        rest.remove(key);
        return value;
    }

    private static boolean isIntegral(Object v) {
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
                || v instanceof java.math.BigInteger b && b.bitLength() < 64;
    }

    static Map<String, Object> stringKeys(Map<?, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }

    /** An unmodifiable ordered copy; null becomes empty. */
    static Map<String, Object> copy(Map<String, ?> m) {
        return m == null || m.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }

    static Writer out() {
        return new Writer();
    }

    /** Puts non-null values in the order given. */
    static final class Writer {
        private final Map<String, Object> map = new LinkedHashMap<>();

        Writer put(String key, Object value) {
            if (value != null) {
                map.put(key, value);
            }
            return this;
        }

        Writer putAll(Map<String, ?> values) {
            if (values != null) {
                map.putAll(values);
            }
            return this;
        }

        Map<String, Object> done() {
            return map;
        }
    }
}
