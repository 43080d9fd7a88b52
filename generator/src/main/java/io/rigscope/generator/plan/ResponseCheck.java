package io.rigscope.generator.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a response must be for its request to count as passed, as k6's {@code check()} does it, but counted: a
 * response that fails its scenario's check is a failed request (error kind {@code check}, or {@code 4xx}/{@code 5xx}
 * for a status >= 400 that the check does not accept; the sample keeps the status received). The config's
 * {@code check: {status: [200, 201], body_contains: S, body_not_contains: S, json: {path: "$.a.b", exists: true}}}.
 *
 * <p>The parts are checked in that order and the first that fails is the reason: the status must be in
 * {@link #status()} (empty: any 2xx); the body must hold {@link #bodyContains()} and must not hold
 * {@link #bodyNotContains()} (both compared as UTF-8 bytes, case-sensitive); {@link #json()} must hold for the
 * body parsed as JSON. Each part is optional (null).
 *
 * <p>Truncated bodies: the generator keeps at most a cap of each body (64 KiB by default,
 * {@code GeneratorOptions.checkBodyCapBytes}). On a truncated body {@code body_contains} passes only when found in
 * the part kept, {@code body_not_contains} FAILS unless it is found (then it fails anyway): the part not kept
 * could hold it, and a check that cannot tell must not pass silently; a {@code json} check fails (the body cannot
 * be parsed). Each such reason says the body was truncated.
 *
 * <p>Immutable and thread-safe; {@link #failure} allocates nothing for a body check that passes but a copy of
 * the searched text's bytes, and parses the body (a tree) for a {@code json} check.
 *
 * @param status the statuses that pass; null or empty: 200-299
 * @param bodyContains text the body must hold, or null
 * @param bodyNotContains text the body must not hold, or null
 * @param json a check of one value of the body as JSON, or null
 */
public record ResponseCheck(List<Integer> status, String bodyContains, String bodyNotContains, JsonCheck json) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int QUOTED_CHARS = 40;

    static {
        // Jackson builds its tree deserializer under a lock on first use: do it when a check is first built (a
        // config reader's thread), never on an event loop.
        try {
            JSON.readTree("{\"a\":[1,\"x\",true,null,1.5]}".getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public ResponseCheck {
        status = status == null ? List.of() : List.copyOf(status);
        for (Integer s : status) {
            if (s < 100 || s > 599) {
                throw new IllegalArgumentException("check status " + s + " is not an HTTP status (100-599)");
            }
        }
        if (bodyContains != null && bodyContains.isEmpty()) {
            throw new IllegalArgumentException("check body_contains is empty");
        }
        if (bodyNotContains != null && bodyNotContains.isEmpty()) {
            throw new IllegalArgumentException("check body_not_contains is empty");
        }
    }

    /** True when a part of the check reads the body: the response body must then be kept (up to the cap). */
    public boolean needsBody() {
        return bodyContains != null || bodyNotContains != null || json != null;
    }

    /** True when {@code status} passes the status part: in {@link #status()}, or 2xx when that is empty. */
    public boolean accepts(int status) {
        if (this.status.isEmpty()) {
            return status >= 200 && status <= 299;
        }
        for (int i = 0; i < this.status.size(); i++) {
            if (this.status.get(i) == status) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why a response fails the check, or null when it passes.
     *
     * @param body      the body kept (the whole body, or its first bytes when {@code truncated})
     * @param truncated true when the body was longer than what {@code body} holds
     * @return a short reason, e.g. {@code status 404 not in [200, 201]}, {@code body contains 'errors'},
     *         {@code $.data.e0 does not exist}
     */
    public String failure(int status, byte[] body, boolean truncated) {
        return failure(status, body, body.length, truncated);
    }

    /** {@link #failure(int, byte[], boolean)} on the first {@code length} bytes of {@code body}. */
    public String failure(int status, byte[] body, int length, boolean truncated) {
        Objects.checkFromIndexSize(0, length, body.length);
        if (!accepts(status)) {
            return this.status.isEmpty() ? "status " + status + " not 2xx" : "status " + status + " not in " + this.status;
        }
        if (bodyContains != null && indexOf(body, length, bodyContains) < 0) {
            return truncated ? "body does not contain " + quoted(bodyContains) + " in its first " + length
                    + " bytes (truncated)" : "body does not contain " + quoted(bodyContains);
        }
        if (bodyNotContains != null) {
            if (indexOf(body, length, bodyNotContains) >= 0) {
                return "body contains " + quoted(bodyNotContains);
            }
            if (truncated) {
                return "body truncated at " + length + " bytes: cannot tell it does not contain "
                        + quoted(bodyNotContains);
            }
        }
        if (json != null) {
            if (truncated) {
                return "body truncated at " + length + " bytes: " + json.path() + " not checked";
            }
            return json.failure(body, length);
        }
        return null;
    }

    private static int indexOf(byte[] body, int length, String text) {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        byte first = needle[0];
        int last = length - needle.length;
        outer:
        for (int i = 0; i <= last; i++) {
            if (body[i] != first) {
                continue;
            }
            for (int j = 1; j < needle.length; j++) {
                if (body[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static String quoted(String text) {
        return "'" + (text.length() <= QUOTED_CHARS ? text : text.substring(0, QUOTED_CHARS) + "...") + "'";
    }

    /** The check as plain config data (for the CONFIG marker): its config keys, in a fixed order, unset ones null. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", status.isEmpty() ? "2xx" : status);
        m.put("body_contains", bodyContains);
        m.put("body_not_contains", bodyNotContains);
        m.put("json", json == null ? null : json.toMap());
        return m;
    }

    /**
     * One value of the body, parsed as JSON, must exist (or not), or must equal a value.
     *
     * <p>{@code path}: {@code $} then any of {@code .name}, {@code [N]} (an array index from 0) and
     * {@code ['name']} (a name holding {@code .} or {@code [}), e.g. {@code $.data.items[0].id}. A value exists
     * when every step finds its member or element; a member whose value is JSON {@code null} exists.
     *
     * <p>{@code equals}: a string (equal to a JSON string), a number (numerically equal to a JSON number:
     * {@code 1} equals {@code 1.0}), a boolean, or {@link #NULL} for JSON {@code null}. A Jackson value node (what
     * a reader of the config's tree holds) is taken for its value: {@code NullNode} is {@link #NULL}.
     *
     * @param path where the value is
     * @param exists true: the value must exist; false: it must not; null when {@code equals} is given
     * @param equals the value it must equal; null when {@code exists} is given
     */
    public record JsonCheck(String path, Boolean exists, Object equals) {

        /** {@code equals} for JSON {@code null}. */
        public static final Object NULL = NullNode.getInstance();

        private static final Pattern STEP = Pattern.compile("\\.([^.\\[\\]']+)|\\[(\\d{1,9})]|\\['([^']+)']");

        public JsonCheck {
            if (path == null || path.isBlank()) {
                throw new IllegalArgumentException("check json path is missing");
            }
            steps(path); // throws on a bad path
            if ((exists == null) == (equals == null)) {
                throw new IllegalArgumentException("check json " + path + ": give exactly one of exists (true or false)"
                        + " and equals (a string, number, boolean or null)");
            }
            if (equals instanceof JsonNode node) {
                if (node.isTextual()) {
                    equals = node.textValue();
                } else if (node.isNumber()) {
                    equals = node.numberValue();
                } else if (node.isBoolean()) {
                    equals = node.booleanValue();
                } else if (node.isNull()) {
                    equals = NULL;
                } else {
                    throw new IllegalArgumentException("check json " + path + ": equals must be a string, number,"
                            + " boolean or null, was " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
                }
            }
            if (equals != null && !(equals instanceof String || equals instanceof Boolean || equals == NULL
                    || equals instanceof Number)) {
                throw new IllegalArgumentException("check json " + path + ": equals must be a string, number,"
                        + " boolean or null, was " + equals.getClass().getSimpleName());
            }
            if (equals instanceof Number n) {
                decimal(n, path); // throws on NaN or an infinity
            }
        }

        /**
         * The steps of {@code path}: a String is a member name, an Integer an array index.
         *
         * @throws IllegalArgumentException naming the path and where it goes wrong
         */
        static List<Object> steps(String path) {
            if (!path.startsWith("$")) {
                throw new IllegalArgumentException("check json path '" + path + "' must start with $ (e.g. $.data.id)");
            }
            List<Object> steps = new ArrayList<>();
            Matcher m = STEP.matcher(path);
            int at = 1;
            while (at < path.length()) {
                if (!m.find(at) || m.start() != at) {
                    throw new IllegalArgumentException("check json path '" + path + "': cannot read it from '"
                            + path.substring(at) + "' (steps are .name, [N] or ['name'])");
                }
                if (m.group(1) != null) {
                    steps.add(m.group(1));
                } else if (m.group(2) != null) {
                    steps.add(Integer.valueOf(m.group(2)));
                } else {
                    steps.add(m.group(3));
                }
                at = m.end();
            }
            return steps;
        }

        private static BigDecimal decimal(Number n, String path) {
            if (n instanceof BigDecimal d) {
                return d;
            }
            if (n instanceof BigInteger i) {
                return new BigDecimal(i);
            }
            if (n instanceof Double || n instanceof Float) {
                double v = n.doubleValue();
                if (Double.isNaN(v) || Double.isInfinite(v)) {
                    throw new IllegalArgumentException("check json " + path + ": equals " + v + " is not a JSON number");
                }
                return new BigDecimal(Double.toString(v));
            }
            return BigDecimal.valueOf(n.longValue());
        }

        /** Why {@code body} (JSON) fails this check, or null. */
        String failure(byte[] body, int length) {
            JsonNode node;
            try {
                node = JSON.readTree(body, 0, length);
            } catch (JsonProcessingException e) {
                return "body is not JSON (" + e.getOriginalMessage() + ")";
            } catch (IOException e) {
                return "body is not JSON (" + e.getMessage() + ")";
            }
            if (node == null || node.isMissingNode()) {
                return "body is not JSON (empty)";
            }
            for (Object step : steps(path)) {
                node = step instanceof Integer i ? (node.isArray() ? node.get(i) : null)
                        : (node.isObject() ? node.get((String) step) : null);
                if (node == null) {
                    break;
                }
            }
            if (exists != null) {
                if (exists && node == null) {
                    return path + " does not exist";
                }
                return !exists && node != null ? path + " exists" : null;
            }
            if (node == null) {
                return path + " does not exist";
            }
            return matches(node) ? null : path + " is " + abbreviated(node.toString()) + ", not " + expected();
        }

        private boolean matches(JsonNode node) {
            if (equals == NULL) {
                return node.isNull();
            }
            if (equals instanceof String s) {
                return node.isTextual() && node.textValue().equals(s);
            }
            if (equals instanceof Boolean b) {
                return node.isBoolean() && node.booleanValue() == b;
            }
            return node.isNumber() && node.decimalValue().compareTo(decimal((Number) equals, path)) == 0;
        }

        private String expected() {
            if (equals == NULL) {
                return "null";
            }
            if (equals instanceof String s) {
                return abbreviated(JSON.getNodeFactory().textNode(s).toString());
            }
            return String.valueOf(equals);
        }

        private static String abbreviated(String s) {
            return s.length() <= QUOTED_CHARS ? s : s.substring(0, QUOTED_CHARS) + "...";
        }

        /** The check as plain config data: {@code path}, then {@code exists} or {@code equals} (null for JSON null). */
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("path", path);
            if (exists != null) {
                m.put("exists", exists);
            } else {
                m.put("equals", equals == NULL ? null : equals);
            }
            return m;
        }
    }
}
