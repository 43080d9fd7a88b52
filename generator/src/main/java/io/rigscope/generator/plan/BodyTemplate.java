package io.rigscope.generator.plan;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How a request body is built: an envelope holding a batch of events, each rendered from an event template.
 *
 * <p>Placeholders: the envelope must hold {@code ${events}} exactly once (the events, comma-separated);
 * the event template may use {@code ${idempotency_key}} (unique per event and run), {@code ${customer_id}}
 * (drawn from {@link #customers()}), {@code ${meter}}, {@code ${quantity}} (uniform in
 * {@code [quantityMin, quantityMax]}), {@code ${timestamp}} (ISO-8601 UTC, the request's render time),
 * {@code ${properties}} (the {@link #properties()} as a JSON object) and {@code ${seq}} (the request's
 * number in its scenario). Any other {@code ${...}} is an error. The defaults produce the reference SUT's
 * {@code {"events":[{"idempotency_key":...,"customer_id":...,"meter":...,"quantity":N,"timestamp":...,"properties":{...}}]}}.
 *
 * @param batch events per request, >= 1
 * @param customers where customer ids come from
 * @param meter the meter name
 * @param quantityMin smallest quantity, >= 0
 * @param quantityMax largest quantity, >= quantityMin
 * @param properties string properties put in every event (may be empty)
 * @param envelope the body around the events
 * @param event one event
 */
public record BodyTemplate(int batch, CustomerPool customers, String meter, long quantityMin, long quantityMax,
                           Map<String, String> properties, String envelope, String event) {

    /** The reference SUT's envelope. */
    public static final String DEFAULT_ENVELOPE = "{\"events\":[${events}]}";
    /** The reference SUT's event. */
    public static final String DEFAULT_EVENT = "{\"idempotency_key\":\"${idempotency_key}\",\"customer_id\":\"${customer_id}\","
            + "\"meter\":\"${meter}\",\"quantity\":${quantity},\"timestamp\":\"${timestamp}\",\"properties\":${properties}}";

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
        m.put("properties", properties);
        m.put("envelope", envelope);
        m.put("event", event);
        return m;
    }
}
