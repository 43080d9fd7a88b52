package io.rigscope.generator.body;

import io.rigscope.generator.plan.BodyTemplate;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders request bodies from a {@link BodyTemplate}. Templates are parsed once; rendering walks the parsed
 * parts. Idempotency keys are {@code <keyPrefix><seq>.<i>}, so they are unique per event as long as the prefix
 * is unique per run (the generator puts series, repeat, source, scenario and a random run nonce in it).
 *
 * <p>Thread-safe (draws from {@link ThreadLocalRandom}).
 */
public final class BodyRenderer {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([a-z_]+)}");
    private static final List<String> EVENT_FIELDS =
            List.of("idempotency_key", "customer_id", "meter", "quantity", "timestamp", "properties", "seq");

    private final BodyTemplate template;
    private final String keyPrefix;
    private final String envelopeHead;
    private final String envelopeTail;
    private final List<Object> eventParts;
    private final String propertiesJson;

    /**
     * @param keyPrefix prefix of every idempotency key; must be unique per run
     * @throws IllegalArgumentException naming the template and the bad placeholder
     */
    public BodyRenderer(BodyTemplate template, String keyPrefix) {
        this.template = template;
        this.keyPrefix = keyPrefix;
        String envelope = template.envelope();
        int at = envelope.indexOf("${events}");
        if (at < 0 || envelope.indexOf("${events}", at + 1) >= 0) {
            throw new IllegalArgumentException("body envelope must hold ${events} exactly once: " + envelope);
        }
        Matcher other = PLACEHOLDER.matcher(envelope.replace("${events}", ""));
        if (other.find()) {
            throw new IllegalArgumentException("body envelope: unknown placeholder ${" + other.group(1)
                    + "}; only ${events} is allowed there");
        }
        this.envelopeHead = envelope.substring(0, at);
        this.envelopeTail = envelope.substring(at + "${events}".length());
        this.eventParts = parse(template.event());
        this.propertiesJson = json(template.properties());
    }

    private static List<Object> parse(String event) {
        List<Object> parts = new ArrayList<>();
        Matcher m = PLACEHOLDER.matcher(event);
        int end = 0;
        while (m.find()) {
            String field = m.group(1);
            if (!EVENT_FIELDS.contains(field)) {
                throw new IllegalArgumentException("body event: unknown placeholder ${" + field + "}; allowed: "
                        + EVENT_FIELDS);
            }
            if (m.start() > end) {
                parts.add(event.substring(end, m.start()));
            }
            parts.add(Field.valueOf(field.toUpperCase(java.util.Locale.ROOT)));
            end = m.end();
        }
        if (end < event.length()) {
            parts.add(event.substring(end));
        }
        return List.copyOf(parts);
    }

    private enum Field { IDEMPOTENCY_KEY, CUSTOMER_ID, METER, QUANTITY, TIMESTAMP, PROPERTIES, SEQ }

    /** The body of request {@code seq} of its scenario, rendered now. */
    public RequestBody render(long seq) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String timestamp = Instant.now().toString();
        StringBuilder out = new StringBuilder(envelopeHead.length() + template.batch() * 200);
        out.append(envelopeHead);
        long sum = 0;
        for (int i = 0; i < template.batch(); i++) {
            if (i > 0) {
                out.append(',');
            }
            long quantity = template.quantityMin() == template.quantityMax() ? template.quantityMin()
                    : random.nextLong(template.quantityMin(), template.quantityMax() + 1);
            sum += quantity;
            for (Object part : eventParts) {
                if (part instanceof String literal) {
                    out.append(literal);
                    continue;
                }
                switch ((Field) part) {
                    case IDEMPOTENCY_KEY -> out.append(keyPrefix).append(seq).append('.').append(i);
                    case CUSTOMER_ID -> out.append(template.customers().draw(random));
                    case METER -> out.append(template.meter());
                    case QUANTITY -> out.append(quantity);
                    case TIMESTAMP -> out.append(timestamp);
                    case PROPERTIES -> out.append(propertiesJson);
                    case SEQ -> out.append(seq);
                    default -> throw new IllegalStateException("unhandled field " + part);
                }
            }
        }
        out.append(envelopeTail);
        return new RequestBody(out.toString().getBytes(StandardCharsets.UTF_8), template.batch(), sum);
    }

    private static String json(Map<String, String> properties) {
        StringBuilder b = new StringBuilder("{");
        properties.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            if (b.length() > 1) {
                b.append(',');
            }
            quote(b, e.getKey()).append(':');
            quote(b, e.getValue());
        });
        return b.append('}').toString();
    }

    private static StringBuilder quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"');
    }
}
