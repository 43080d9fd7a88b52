package io.rigscope.generator.plan;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How a request body is built: an envelope holding a batch of events joined by a separator, each rendered from
 * an event template; or a static envelope (no {@code ${events}}) rendered once per request, for a service whose
 * request body holds no list of events. Either way a request claims {@link #batch()} events: state how many rows
 * one request writes.
 *
 * <p>Placeholders (the table, with examples, is in docs/generator.md "Body template"). The envelope may hold
 * {@code ${events}} at most once, and the request-level ones: {@code ${uuid}}, {@code ${now_ms}},
 * {@code ${now_rfc3339}}, {@code ${timestamp}}, {@code ${random:A..B}}, {@code ${env:NAME}}, {@code ${meter}},
 * {@code ${properties}}, and {@code ${seq}} and {@code ${idempotency_key}}, which in the envelope are those of
 * the request's first event. The event may hold every one but {@code ${events}}, plus {@code ${customer_id}}
 * (drawn from {@link #customers()}), {@code ${quantity}} (uniform in {@code [quantityMin, quantityMax]}) and
 * {@code ${index}} (the event's index in its request, from 0). {@code ${seq}} counts events over the series
 * (the counter the renderer is given); {@code ${idempotency_key}} is unique per event and run. The time
 * placeholders are the request's render time (one clock read per request); {@code ${uuid}} and
 * {@code ${random:A..B}} are drawn per occurrence; {@code ${env:NAME}} is read once, here (an unset variable is
 * an error). <code>$${</code> is a literal <code>${</code>. Any other {@code ${...}} is an error.
 *
 * <p>Escaping: bodies are JSON, so every substituted text value (customer ids, the meter, env values, uuids,
 * times, keys, property names and values) is JSON-string-escaped ({@code "}, {@code \} and control characters)
 * where it is inserted; the template itself must put the quotes around it. Numbers ({@code ${quantity}},
 * {@code ${seq}}, {@code ${index}}, {@code ${now_ms}}, {@code ${random:A..B}}) are inserted as bare digits.
 *
 * <p>Quantity: every claimed event draws a quantity, whether or not the body renders {@code ${quantity}}, and
 * the sample's quantity is their sum. A static envelope, or an event without {@code ${quantity}}, should give a
 * single quantity ({@code quantityMin == quantityMax}): what one row adds.
 *
 * <p>The texts are parsed when the template is built ({@link TemplateParts}), so a bad placeholder fails here,
 * with an {@link IllegalArgumentException} starting {@code body envelope:} or {@code body event:}, naming it and
 * listing the allowed ones. The defaults produce the reference SUT's
 * {@code {"events":[{"idempotency_key":...,"customer_id":...,"meter":...,"quantity":N,"timestamp":...,"properties":{...}}]}}.
 *
 * @param batch events per request (rows one request writes), >= 1
 * @param customers where customer ids come from
 * @param meter the meter name
 * @param quantityMin smallest quantity, >= 0
 * @param quantityMax largest quantity, >= quantityMin
 * @param properties string properties for {@code ${properties}} (may be empty)
 * @param envelope the body around the events, or the whole body when static; null: {@link #DEFAULT_ENVELOPE}
 * @param event one event; null: {@link #DEFAULT_EVENT}
 * @param separator the text between two events; null: {@code ","}
 */
public record BodyTemplate(int batch, CustomerPool customers, String meter, long quantityMin, long quantityMax,
                           Map<String, String> properties, String envelope, String event, String separator) {

    /** The reference SUT's envelope. */
    public static final String DEFAULT_ENVELOPE = "{\"events\":[${events}]}";
    /** The reference SUT's event. */
    public static final String DEFAULT_EVENT = "{\"idempotency_key\":\"${idempotency_key}\",\"customer_id\":\"${customer_id}\","
            + "\"meter\":\"${meter}\",\"quantity\":${quantity},\"timestamp\":\"${timestamp}\",\"properties\":${properties}}";
    /** The default separator between events. */
    public static final String DEFAULT_SEPARATOR = ",";

    public BodyTemplate {
        if (batch < 1) {
            throw new IllegalArgumentException("body batch must be >= 1, was " + batch);
        }
        Objects.requireNonNull(customers, "body customers");
        if (meter == null || meter.isBlank()) {
            throw new IllegalArgumentException("body meter is missing");
        }
        if (quantityMin < 0 || quantityMax < quantityMin) {
            throw new IllegalArgumentException("body quantity range " + quantityMin + ".." + quantityMax
                    + " is invalid (need 0 <= min <= max)");
        }
        properties = Map.copyOf(properties == null ? Map.of() : properties);
        envelope = envelope == null ? DEFAULT_ENVELOPE : envelope;
        event = event == null ? DEFAULT_EVENT : event;
        separator = separator == null ? DEFAULT_SEPARATOR : separator;
        check(envelope, event);
    }

    /** A template with the default separator ({@code ","}). */
    public BodyTemplate(int batch, CustomerPool customers, String meter, long quantityMin, long quantityMax,
                        Map<String, String> properties, String envelope, String event) {
        this(batch, customers, meter, quantityMin, quantityMax, properties, envelope, event, null);
    }

    /**
     * Parses an envelope and an event as a template would (null: the defaults), reading their {@code ${env:NAME}}.
     *
     * @throws IllegalArgumentException starting {@code body envelope:} or {@code body event:}, naming the bad
     *                                  placeholder and listing the allowed ones
     */
    public static void check(String envelope, String event) {
        TemplateParts.envelope(envelope == null ? DEFAULT_ENVELOPE : envelope);
        TemplateParts.event(event == null ? DEFAULT_EVENT : event);
    }

    /** The envelope, parsed (its {@code ${env:NAME}} read again: the environment of a JVM does not change). */
    public TemplateParts envelopeParts() {
        return TemplateParts.envelope(envelope);
    }

    /** The event, parsed. */
    public TemplateParts eventParts() {
        return TemplateParts.event(event);
    }

    /** True when the envelope holds no {@code ${events}}: the body is the envelope alone. */
    public boolean staticEnvelope() {
        return envelopeParts().count(TemplateParts.Kind.EVENTS) == 0;
    }

    /** A body of {@code batch} events in the reference shape: default customers, quantity 1..10. */
    public static BodyTemplate usageEvents(int batch, String meter) {
        return new BodyTemplate(batch, CustomerPool.defaults(), meter, 1, 10, Map.of(), null, null);
    }

    /** The template as plain config data (for the CONFIG marker). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("batch", batch);
        m.put("customers", customers.toMap());
        m.put("meter", meter);
        m.put("quantity_min", quantityMin);
        m.put("quantity_max", quantityMax);
        m.put("properties", new java.util.TreeMap<>(properties)); // sorted: the CONFIG marker's bytes are stable
        m.put("envelope", envelope);
        m.put("event", event);
        m.put("separator", separator);
        return m;
    }
}
