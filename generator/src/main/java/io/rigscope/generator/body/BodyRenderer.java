package io.rigscope.generator.body;

import io.rigscope.generator.plan.BodyTemplate;
import io.rigscope.generator.plan.TemplateParts;
import io.rigscope.generator.plan.TemplateParts.Kind;
import io.rigscope.generator.schedule.Share;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Renders request bodies from a {@link BodyTemplate}. The template is parsed once, here; rendering walks the
 * parsed parts and appends to one builder. Idempotency keys are {@code <keyPrefix><request seq>.<index>}, so they
 * are unique per event as long as the prefix is unique per run (the generator puts series, repeat, source,
 * scenario and a random run nonce in it).
 *
 * <p>{@code ${seq}} comes from a counter the caller may share: each request takes the next {@code batch} values
 * (the request's events get {@code first}, {@code first + 1}, ...; the envelope's {@code ${seq}} is {@code first}),
 * so two renderers sharing one counter never give the same value and each gives increasing values. A request
 * takes from the counter only when the template holds {@code ${seq}}. A generator offering share K of N of a
 * schedule (each of the N counting in its own process) gives counter x N + K - 1: the shares' values never meet,
 * and a request's events then step by N.
 *
 * <p>Every text value is JSON-string-escaped as it is inserted (see {@link BodyTemplate}); numbers are digits.
 * The time placeholders read the wall clock once per request. {@code ${uuid}} is a version 4 UUID drawn from
 * {@link ThreadLocalRandom} (never blocks an event loop; not for secrets).
 *
 * <p>Thread-safe (draws from {@link ThreadLocalRandom}; the counter is atomic).
 */
public final class BodyRenderer {

    private final int batch;
    private final BodyTemplate template;
    private final AtomicLong seq;
    /** {@code ${seq}} = counter x seqStride + seqOffset (a share of a schedule; 1 and 0 for the whole). */
    private final int seqStride;
    private final int seqOffset;
    private final String keyPrefix;
    private final String meter;
    private final String propertiesJson;
    private final Compiled envelope;
    private final Compiled event;
    private final boolean staticEnvelope;
    private final boolean usesSeq;
    private final boolean usesClock;
    private final boolean usesRfc3339;
    private final String separator;
    private final int sizeHint;

    /**
     * A renderer with a counter of its own for {@code ${seq}} (from 0).
     *
     * @param keyPrefix prefix of every idempotency key; must be unique per run
     */
    public BodyRenderer(BodyTemplate template, String keyPrefix) {
        this(template, keyPrefix, new AtomicLong());
    }

    /**
     * @param keyPrefix prefix of every idempotency key; must be unique per run
     * @param seq       the series counter {@code ${seq}} takes its values from (shared with the other renderers of
     *                  the series: every scenario and repeat)
     */
    public BodyRenderer(BodyTemplate template, String keyPrefix, AtomicLong seq) {
        this(template, keyPrefix, seq, Share.WHOLE);
    }

    /**
     * @param share this generator's share of a schedule several generators offer ({@code --share K/N}): its
     *              {@code ${seq}} values are the counter's times N plus K-1, so the N generators' values never meet
     *              (each counts from 0 in its own process); {@link Share#WHOLE}: the counter's values
     */
    public BodyRenderer(BodyTemplate template, String keyPrefix, AtomicLong seq, Share share) {
        this.template = Objects.requireNonNull(template, "template");
        this.seq = Objects.requireNonNull(seq, "seq");
        this.seqStride = Objects.requireNonNull(share, "share").n();
        this.seqOffset = share.k() - 1;
        this.batch = template.batch();
        this.keyPrefix = escape(new StringBuilder(), Objects.requireNonNull(keyPrefix, "keyPrefix")).toString();
        this.meter = escape(new StringBuilder(), template.meter()).toString();
        this.propertiesJson = json(template.properties());
        TemplateParts envelopeParts = template.envelopeParts();
        TemplateParts eventParts = template.eventParts();
        this.envelope = new Compiled(envelopeParts.parts());
        this.event = new Compiled(eventParts.parts());
        this.staticEnvelope = envelopeParts.count(Kind.EVENTS) == 0;
        Set<Kind> kinds = new java.util.HashSet<>(envelopeParts.kinds());
        if (!staticEnvelope) {
            kinds.addAll(eventParts.kinds());
        }
        this.usesSeq = kinds.contains(Kind.SEQ);
        this.usesRfc3339 = kinds.contains(Kind.TIMESTAMP) || kinds.contains(Kind.NOW_RFC3339);
        this.usesClock = usesRfc3339 || kinds.contains(Kind.NOW_MS);
        this.separator = template.separator();
        this.sizeHint = envelope.literalChars + (staticEnvelope ? 0
                : batch * (event.literalChars + 40 * event.slots + separator.length()));
    }

    /** The template's parts as arrays: what render walks. */
    private static final class Compiled {
        final Kind[] kinds;
        final String[] texts;
        final long[] mins;
        final long[] maxs;
        final int literalChars;
        final int slots;

        Compiled(List<TemplateParts.Part> parts) {
            int n = parts.size();
            kinds = new Kind[n];
            texts = new String[n];
            mins = new long[n];
            maxs = new long[n];
            int chars = 0;
            int slotCount = 0;
            for (int i = 0; i < n; i++) {
                TemplateParts.Part p = parts.get(i);
                if (p instanceof TemplateParts.Text t) {
                    texts[i] = t.text(); // kinds[i] null: literal
                    chars += t.text().length();
                } else if (p instanceof TemplateParts.Slot s) {
                    kinds[i] = s.kind();
                    mins[i] = s.min();
                    maxs[i] = s.max();
                    texts[i] = s.value() == null ? null : escape(new StringBuilder(), s.value()).toString();
                    slotCount++;
                }
            }
            literalChars = chars;
            slots = slotCount;
        }
    }

    /**
     * The body of request {@code requestSeq} of its scenario (the idempotency keys' middle part), rendered now.
     * Takes {@code batch} values from the series counter when the template holds {@code ${seq}}.
     */
    public RequestBody render(long requestSeq) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long nowMs = usesClock ? System.currentTimeMillis() : 0;
        String rfc3339 = usesRfc3339 ? rfc3339(nowMs) : null;
        long firstSeq = usesSeq ? seq.getAndAdd(batch) : 0;
        StringBuilder out = new StringBuilder(sizeHint);
        long sum = 0;
        Compiled env = envelope;
        for (int p = 0; p < env.kinds.length; p++) {
            Kind k = env.kinds[p];
            if (k == null) {
                out.append(env.texts[p]);
            } else if (k == Kind.EVENTS) {
                sum = events(out, random, requestSeq, firstSeq, nowMs, rfc3339);
            } else {
                append(out, env, p, random, requestSeq, seqValue(firstSeq), 0, 0, nowMs, rfc3339);
            }
        }
        if (staticEnvelope) {
            sum = drawQuantities(random);
        }
        return new RequestBody(out.toString().getBytes(StandardCharsets.UTF_8), batch, sum);
    }

    private long events(StringBuilder out, ThreadLocalRandom random, long requestSeq, long firstSeq, long nowMs,
                        String rfc3339) {
        Compiled ev = event;
        long min = template.quantityMin();
        long max = template.quantityMax();
        long sum = 0;
        for (int i = 0; i < batch; i++) {
            if (i > 0) {
                out.append(separator);
            }
            long quantity = min == max ? min : random.nextLong(min, max + 1);
            sum += quantity;
            for (int p = 0; p < ev.kinds.length; p++) {
                Kind k = ev.kinds[p];
                if (k == null) {
                    out.append(ev.texts[p]);
                } else {
                    append(out, ev, p, random, requestSeq, seqValue(firstSeq + i), i, quantity, nowMs, rfc3339);
                }
            }
        }
        return sum;
    }

    /** The {@code ${seq}} value of the counter's value {@code c}. */
    private long seqValue(long c) {
        return c * seqStride + seqOffset;
    }

    private long drawQuantities(ThreadLocalRandom random) {
        long min = template.quantityMin();
        long max = template.quantityMax();
        if (min == max) {
            return min * batch;
        }
        long sum = 0;
        for (int i = 0; i < batch; i++) {
            sum += random.nextLong(min, max + 1);
        }
        return sum;
    }

    /** Appends slot {@code p} of {@code c}; {@code index} and {@code quantity} are the event's (0 in the envelope). */
    private void append(StringBuilder out, Compiled c, int p, ThreadLocalRandom random, long requestSeq, long seqValue,
                        int index, long quantity, long nowMs, String rfc3339) {
        switch (c.kinds[p]) {
            case IDEMPOTENCY_KEY -> out.append(keyPrefix).append(requestSeq).append('.').append(index);
            case CUSTOMER_ID -> escape(out, template.customers().draw(random));
            case METER -> out.append(meter);
            case QUANTITY -> out.append(quantity);
            case TIMESTAMP, NOW_RFC3339 -> out.append(rfc3339);
            case PROPERTIES -> out.append(propertiesJson);
            case SEQ -> out.append(seqValue);
            case INDEX -> out.append(index);
            case UUID -> uuid(out, random);
            case NOW_MS -> out.append(nowMs);
            case RANDOM -> out.append(uniform(random, c.mins[p], c.maxs[p]));
            case ENV -> out.append(c.texts[p]);
            case EVENTS -> throw new IllegalStateException("${events} outside the envelope");
            default -> throw new IllegalStateException("unhandled placeholder " + c.kinds[p]);
        }
    }

    /** Uniform in {@code [min, max]}, whatever the span (even the whole range of long). */
    static long uniform(ThreadLocalRandom random, long min, long max) {
        if (min == max) {
            return min;
        }
        if (max != Long.MAX_VALUE) {
            return random.nextLong(min, max + 1); // handles a span beyond Long.MAX_VALUE itself
        }
        if (min == Long.MIN_VALUE) {
            return random.nextLong();
        }
        return random.nextLong(min - 1, max) + 1;
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** A version 4 (random) UUID, in its 36-character form. */
    private static void uuid(StringBuilder out, ThreadLocalRandom random) {
        long hi = (random.nextLong() & ~0xF000L) | 0x4000L; // version 4
        long lo = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L; // IETF variant
        hex(out, hi >>> 32, 8).append('-');
        hex(out, hi >>> 16, 4).append('-');
        hex(out, hi, 4).append('-');
        hex(out, lo >>> 48, 4).append('-');
        hex(out, lo, 12);
    }

    private static StringBuilder hex(StringBuilder out, long value, int digits) {
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            out.append(HEX[(int) (value >>> shift) & 0xF]);
        }
        return out;
    }

    /** {@code epochMs} as RFC 3339 UTC with milliseconds: {@code 2026-12-01T21:30:00.123Z}. */
    static String rfc3339(long epochMs) {
        long days = Math.floorDiv(epochMs, 86_400_000L);
        long msOfDay = Math.floorMod(epochMs, 86_400_000L);
        // civil-from-days (H. Hinnant's algorithm), proleptic Gregorian
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long day = doy - (153 * mp + 2) / 5 + 1;
        long month = mp < 10 ? mp + 3 : mp - 9;
        long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        char[] c = new char[24];
        digits(c, 0, year, 4);
        c[4] = '-';
        digits(c, 5, month, 2);
        c[7] = '-';
        digits(c, 8, day, 2);
        c[10] = 'T';
        digits(c, 11, msOfDay / 3_600_000, 2);
        c[13] = ':';
        digits(c, 14, msOfDay / 60_000 % 60, 2);
        c[16] = ':';
        digits(c, 17, msOfDay / 1000 % 60, 2);
        c[19] = '.';
        digits(c, 20, msOfDay % 1000, 3);
        c[23] = 'Z';
        return new String(c);
    }

    private static void digits(char[] c, int at, long value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            c[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    private static String json(Map<String, String> properties) {
        StringBuilder b = new StringBuilder("{");
        properties.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            if (b.length() > 1) {
                b.append(',');
            }
            escape(b.append('"'), e.getKey()).append("\":\"");
            escape(b, e.getValue()).append('"');
        });
        return b.append('}').toString();
    }

    /**
     * Appends {@code s} escaped for the inside of a JSON string: {@code "} and {@code \} get a backslash, control
     * characters become {@code \n}, {@code \r}, {@code \t}, {@code \b}, {@code \f} or {@code \}{@code u00XX};
     * the rest (all of Unicode) is kept. A string with nothing to escape is appended whole.
     */
    static StringBuilder escape(StringBuilder out, String s) {
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\') {
                break;
            }
            i++;
        }
        if (i == n) {
            return out.append(s);
        }
        out.append(s, 0, i);
        for (; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out;
    }
}
