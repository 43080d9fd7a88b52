package io.rigscope.generator.plan;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A body template's text (its envelope or its event) cut into literal text and placeholders, checked: every
 * {@code ${...}} is a known placeholder allowed where it stands, {@code ${random:A..B}} has {@code A <= B}, every
 * {@code ${env:NAME}} is set (its value is read here, once). {@link BodyTemplate} parses its texts when it is
 * built, so a bad template fails when the config is read; the renderer parses again when it is made and walks the
 * parts for every request. <code>$${</code> is a literal <code>${</code>. Immutable and thread-safe.
 *
 * @param where {@code body envelope} or {@code body event}, the name every error message starts with
 * @param parts the literal texts and placeholders in order (adjacent texts merged)
 */
public record TemplateParts(String where, List<Part> parts) {

    /** Where a placeholder may stand. */
    private enum Scope { ENVELOPE, EVENT, BOTH }

    /** The placeholders, by the name written between <code>${</code> and <code>}</code>. */
    public enum Kind {
        /** Envelope only, at most once: the rendered events joined by the separator. */
        EVENTS("events", Scope.ENVELOPE),
        /** {@code <prefix><request seq>.<index>}, unique per event and run; in the envelope the first event's. */
        IDEMPOTENCY_KEY("idempotency_key", Scope.BOTH),
        /** Drawn from the customer pool, per event. */
        CUSTOMER_ID("customer_id", Scope.EVENT),
        /** The template's meter. */
        METER("meter", Scope.BOTH),
        /** Uniform in the template's quantity range, per event; summed into the sample's quantity. */
        QUANTITY("quantity", Scope.EVENT),
        /** The request's render time, RFC 3339 UTC with milliseconds (the same value as {@link #NOW_RFC3339}). */
        TIMESTAMP("timestamp", Scope.BOTH),
        /** The template's properties as a JSON object, keys sorted. */
        PROPERTIES("properties", Scope.BOTH),
        /** The series counter: unique and increasing per event; in the envelope the request's first event's. */
        SEQ("seq", Scope.BOTH),
        /** The event's index within its request, from 0. */
        INDEX("index", Scope.EVENT),
        /** A random (version 4) UUID, per occurrence. */
        UUID("uuid", Scope.BOTH),
        /** The request's render time, epoch milliseconds. */
        NOW_MS("now_ms", Scope.BOTH),
        /** The request's render time, RFC 3339 UTC with milliseconds, e.g. {@code 2026-12-01T21:30:00.123Z}. */
        NOW_RFC3339("now_rfc3339", Scope.BOTH),
        /** {@code ${random:A..B}}: a uniform integer in {@code [A, B]}, per occurrence. */
        RANDOM("random:A..B", Scope.BOTH),
        /** {@code ${env:NAME}}: the environment variable's value, read once when the template is parsed. */
        ENV("env:NAME", Scope.BOTH);

        private final String written;
        private final Scope scope;

        Kind(String written, Scope scope) {
            this.written = written;
            this.scope = scope;
        }

        /** How it is written, e.g. {@code ${random:A..B}}. */
        public String written() {
            return "${" + written + "}";
        }

        boolean allowedIn(boolean envelope) {
            return scope == Scope.BOTH || scope == (envelope ? Scope.ENVELOPE : Scope.EVENT);
        }
    }

    /** A piece of a template. */
    public sealed interface Part permits Text, Slot {
    }

    /** Literal text, copied as written. */
    public record Text(String text) implements Part {
        public Text {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * A placeholder.
     *
     * @param kind  which one
     * @param min   {@link Kind#RANDOM}: the least value; 0 otherwise
     * @param max   {@link Kind#RANDOM}: the largest value; 0 otherwise
     * @param value {@link Kind#ENV}: the variable's value (raw, not escaped); null otherwise
     */
    public record Slot(Kind kind, long min, long max, String value) implements Part {
        public Slot {
            Objects.requireNonNull(kind, "kind");
        }
    }

    private static final Pattern RANDOM_RANGE = Pattern.compile("(-?\\d{1,19})\\.\\.(-?\\d{1,19})");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    public TemplateParts {
        Objects.requireNonNull(where, "where");
        parts = List.copyOf(parts);
    }

    /** Parses an envelope, reading {@code ${env:NAME}} from the process environment. */
    public static TemplateParts envelope(String text) {
        return parse(text, true, System::getenv);
    }

    /** Parses an event, reading {@code ${env:NAME}} from the process environment. */
    public static TemplateParts event(String text) {
        return parse(text, false, System::getenv);
    }

    /**
     * Parses {@code text} as an envelope or an event, reading {@code ${env:NAME}} through {@code env}.
     *
     * @throws IllegalArgumentException starting with {@link #where} and naming the bad placeholder and the allowed ones
     */
    static TemplateParts parse(String text, boolean envelope, Function<String, String> env) {
        String where = envelope ? "body envelope" : "body event";
        Objects.requireNonNull(text, where);
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int events = 0;
        int i = 0;
        while (i < text.length()) {
            int at = text.indexOf("${", i);
            if (at < 0) {
                literal.append(text, i, text.length());
                break;
            }
            if (at > i && text.charAt(at - 1) == '$') { // $${ is a literal ${
                literal.append(text, i, at - 1).append("${");
                i = at + 2;
                continue;
            }
            literal.append(text, i, at);
            int close = text.indexOf('}', at + 2);
            if (close < 0) {
                throw new IllegalArgumentException(where + ": '" + text.substring(at, Math.min(text.length(), at + 20))
                        + "' opens a placeholder that is never closed with '}' (write $${ for a literal ${)");
            }
            Slot slot = slot(where, text.substring(at + 2, close), envelope, env);
            if (slot.kind() == Kind.EVENTS && ++events > 1) {
                throw new IllegalArgumentException(where + ": ${events} may appear at most once");
            }
            if (!literal.isEmpty()) {
                parts.add(new Text(literal.toString()));
                literal.setLength(0);
            }
            parts.add(slot);
            i = close + 1;
        }
        if (!literal.isEmpty()) {
            parts.add(new Text(literal.toString()));
        }
        return new TemplateParts(where, parts);
    }

    private static Slot slot(String where, String name, boolean envelope, Function<String, String> env) {
        String written = "${" + name + "}";
        if (name.startsWith("random:")) {
            Matcher m = RANDOM_RANGE.matcher(name.substring("random:".length()));
            long min;
            long max;
            try {
                if (!m.matches()) {
                    throw new NumberFormatException();
                }
                min = Long.parseLong(m.group(1));
                max = Long.parseLong(m.group(2));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + ": " + written
                        + ": expected ${random:A..B} with integers A <= B, e.g. ${random:1..100}");
            }
            if (min > max) {
                throw new IllegalArgumentException(where + ": " + written + ": A must be <= B (" + min + " > " + max + ")");
            }
            return new Slot(Kind.RANDOM, min, max, null);
        }
        if (name.startsWith("env:")) {
            String variable = name.substring("env:".length());
            if (!ENV_NAME.matcher(variable).matches()) {
                throw new IllegalArgumentException(where + ": " + written
                        + ": expected ${env:NAME} with NAME letters, digits and _ (not starting with a digit)");
            }
            String value = env.apply(variable);
            if (value == null) {
                throw new IllegalArgumentException(where + ": " + written + ": environment variable " + variable
                        + " is not set");
            }
            return new Slot(Kind.ENV, 0, 0, value);
        }
        for (Kind k : Kind.values()) {
            if (k != Kind.RANDOM && k != Kind.ENV && k.written.equals(name)) {
                if (!k.allowedIn(envelope)) {
                    throw new IllegalArgumentException(where + ": " + written + " is not allowed here"
                            + (envelope ? " (it is an event placeholder)" : " (it is for the envelope)")
                            + "; allowed: " + allowed(envelope));
                }
                return new Slot(k, 0, 0, null);
            }
        }
        throw new IllegalArgumentException(where + ": unknown placeholder " + written + "; allowed: " + allowed(envelope));
    }

    /** The placeholders allowed in an envelope or in an event, as written, comma-separated. */
    static String allowed(boolean envelope) {
        StringJoiner j = new StringJoiner(", ");
        for (Kind k : Kind.values()) {
            if (k.allowedIn(envelope)) {
                j.add(k.written());
            }
        }
        return j.toString();
    }

    /** How many placeholders of {@code kind} the template holds. */
    public int count(Kind kind) {
        int n = 0;
        for (Part p : parts) {
            if (p instanceof Slot s && s.kind() == kind) {
                n++;
            }
        }
        return n;
    }

    /** The kinds a template holds. */
    public Set<Kind> kinds() {
        Set<Kind> set = EnumSet.noneOf(Kind.class);
        for (Part p : parts) {
            if (p instanceof Slot s) {
                set.add(s.kind());
            }
        }
        return set;
    }
}
