package io.rigscope.sut.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and validates a {@code POST /v1/usage-events} body:
 * <pre>{"events":[{"idempotency_key":"k1","customer_id":"cust-0001","meter":"api_calls","quantity":3,
 *   "timestamp":"2026-11-30T02:00:00Z","properties":{"region":"eu-1"}}]}</pre>
 *
 * <p>Rules (the first broken one is reported, naming the field, e.g. {@code events[3].quantity}):
 * {@code events} is a non-empty array of at most {@value #MAX_EVENTS} objects; {@code idempotency_key},
 * {@code customer_id} and {@code meter} are non-blank strings of at most {@value #MAX_TEXT} characters;
 * {@code quantity} is an integer {@code >= 0} (a JSON number without a fraction); {@code timestamp} is
 * ISO-8601 with an offset or {@code Z}; {@code properties} is optional and, when present, an object of at
 * most {@value #MAX_PROPERTIES_BYTES} bytes as JSON. Unknown fields are ignored.
 *
 * <p>Thread-safe.
 */
public final class BatchParser {

    public static final int MAX_EVENTS = 10_000;
    public static final int MAX_TEXT = 256;
    public static final int MAX_PROPERTIES_BYTES = 4096;

    /** The outcome of parsing a body. */
    public sealed interface Parsed permits Ok, Invalid {
    }

    /** A valid batch. */
    public record Ok(List<UsageEvent> events) implements Parsed {
        public Ok {
            events = List.copyOf(events);
        }
    }

    /** A bad body: {@code message} names the field and what is wrong with it. */
    public record Invalid(String message) implements Parsed {
    }

    private final ObjectMapper json;

    public BatchParser(ObjectMapper json) {
        this.json = json;
    }

    public Parsed parse(byte[] body) {
        if (body == null || body.length == 0) {
            return new Invalid("the request body is empty; expected {\"events\":[...]}");
        }
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (JsonProcessingException e) {
            return new Invalid("the request body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            return new Invalid("the request body cannot be read: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            return new Invalid("the request body must be a JSON object {\"events\":[...]}");
        }
        JsonNode events = root.get("events");
        if (events == null || events.isNull()) {
            return new Invalid("events is missing; expected an array of events");
        }
        if (!events.isArray()) {
            return new Invalid("events must be an array, got " + kind(events));
        }
        if (events.isEmpty()) {
            return new Invalid("events is empty; send at least one event");
        }
        if (events.size() > MAX_EVENTS) {
            return new Invalid("events has " + events.size() + " entries; at most " + MAX_EVENTS + " per request");
        }
        List<UsageEvent> out = new ArrayList<>(events.size());
        for (int i = 0; i < events.size(); i++) {
            String at = "events[" + i + "]";
            JsonNode e = events.get(i);
            if (!e.isObject()) {
                return new Invalid(at + " must be an object, got " + kind(e));
            }
            Text key = text(e, at, "idempotency_key");
            Text customer = text(e, at, "customer_id");
            Text meter = text(e, at, "meter");
            for (Text t : new Text[] {key, customer, meter}) {
                if (t.error() != null) {
                    return new Invalid(t.error());
                }
            }
            JsonNode q = e.get("quantity");
            if (q == null || q.isNull()) {
                return new Invalid(at + ".quantity is missing; expected an integer >= 0");
            }
            if (!q.isIntegralNumber() || !q.canConvertToLong()) {
                return new Invalid(at + ".quantity must be an integer >= 0, got " + shown(q));
            }
            if (q.asLong() < 0) {
                return new Invalid(at + ".quantity must be >= 0, got " + q.asLong());
            }
            JsonNode ts = e.get("timestamp");
            if (ts == null || ts.isNull()) {
                return new Invalid(at + ".timestamp is missing; expected ISO-8601 like 2026-11-30T02:00:00Z");
            }
            Instant when;
            try {
                if (!ts.isTextual()) {
                    throw new DateTimeParseException("not a string", ts.toString(), 0);
                }
                when = OffsetDateTime.parse(ts.asText(), DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
            } catch (DateTimeParseException ex) {
                return new Invalid(at + ".timestamp must be ISO-8601 with an offset, like 2026-11-30T02:00:00Z, got "
                        + shown(ts));
            }
            JsonNode props = e.get("properties");
            String propsJson = "{}";
            if (props != null && !props.isNull()) {
                if (!props.isObject()) {
                    return new Invalid(at + ".properties must be an object, got " + kind(props));
                }
                propsJson = props.toString();
                if (propsJson.length() > MAX_PROPERTIES_BYTES) {
                    return new Invalid(at + ".properties is " + propsJson.length() + " bytes as JSON; at most "
                            + MAX_PROPERTIES_BYTES);
                }
                if (propsJson.indexOf('\u0000') >= 0 || propsJson.contains("\\u0000")) {
                    return new Invalid(at + ".properties contains a NUL character, which PostgreSQL cannot store");
                }
            }
            out.add(new UsageEvent(key.value(), customer.value(), meter.value(), q.asLong(), when, propsJson));
        }
        return new Ok(out);
    }

    /** A text field's value, or the error that stops the parse (exactly one is non-null). */
    private record Text(String value, String error) {
        static Text bad(String error) {
            return new Text(null, error);
        }
    }

    private static Text text(JsonNode e, String at, String field) {
        JsonNode v = e.get(field);
        if (v == null || v.isNull()) {
            return Text.bad(at + "." + field + " is missing; expected a non-empty string");
        }
        if (!v.isTextual()) {
            return Text.bad(at + "." + field + " must be a string, got " + kind(v));
        }
        String s = v.asText();
        if (s.isBlank()) {
            return Text.bad(at + "." + field + " is blank; expected a non-empty string");
        }
        if (s.length() > MAX_TEXT) {
            return Text.bad(at + "." + field + " is " + s.length() + " characters; at most " + MAX_TEXT);
        }
        if (s.indexOf('\u0000') >= 0) {
            return Text.bad(at + "." + field + " contains a NUL character, which PostgreSQL cannot store");
        }
        return new Text(s, null);
    }

    private static String kind(JsonNode n) {
        return switch (n.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
        };
    }

    private static String shown(JsonNode n) {
        String s = n.toString();
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
