package io.rigscope.model.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What rigscope reads back from a {@link Verdict}'s body, typed: one record per {@link Verdict.Kind} that a reader
 * outside the analyzer looks into (the dashboard, {@code generate}'s stop on an ABORT, the live bench). The body
 * itself is the analyzer's decision as its JSON view (docs/wire-format.md lists every key); its writer is the
 * decision's own record in the analyzer, and the analyzer's tests read every kind it writes back through this
 * class, so the keys named here and the keys written agree. Read by pattern matching:
 * {@code if (verdict.facts() instanceof VerdictFacts.Episode e) ...}.
 *
 * <p>Never throws on content: a key that is missing or not of its type reads as null (false for the flags).
 */
public sealed interface VerdictFacts {

    /**
     * A SECOND: the epoch second, whether it is final (closed by the ledger, not by the end of input), whether
     * provisional (a live second not yet closed).
     */
    record Second(Long sec, boolean isFinal, boolean provisional) implements VerdictFacts {
    }

    /** A FREEZE: the epoch second and the rule it broke, in words. */
    record Freeze(Long sec, String rule) implements VerdictFacts {
    }

    /** An EPISODE: its first and last second, the cause named and how sure, and whether it is still going. */
    record Episode(Long start, Long end, String cause, String confidence, boolean provisional)
            implements VerdictFacts {
    }

    /** A REPEAT: its kind (ladder, sustained, ...), whether it passed, and each gate's pass, in order. */
    record Repeat(String kind, Boolean pass, Map<String, Boolean> gates) implements VerdictFacts {
    }

    /** The SERIES: its verdict word, the headline, and how many judged repeats passed. */
    record Series(String verdict, String headline, Long passed, Long total) implements VerdictFacts {
    }

    /**
     * An ABORT: a threshold with abortOnFail failed while the repeat ran ({@code by}), what it measured against
     * its limit, when ({@code atMs} into a schedule of {@code scheduledMs}, after {@code delayMs} of
     * delayAbortEval) and over how many closed seconds. The same object is a REPEAT_END's {@code stopped}
     * ({@link RepeatEnd#stop()}).
     */
    record Abort(String by, String threshold, Double value, Double limit, Long atMs, Long delayMs, Long scheduledMs,
                 Long secondsClosed, Map<String, Object> other) implements VerdictFacts {

        static final String BY = "by";
        static final String THRESHOLD = "threshold";
        static final String VALUE = "value";
        static final String LIMIT = "limit";
        static final String AT_MS = "at_ms";
        static final String DELAY_MS = "delay_ms";
        static final String SCHEDULED_MS = "scheduled_ms";
        static final String SECONDS_CLOSED = "seconds_closed";

        public Abort {
            other = BodyFields.copy(other);
        }

        /** Every field given, nothing else: what the analyzer decides. */
        public Abort(String by, String threshold, double value, double limit, long atMs, long delayMs,
                     long scheduledMs, long secondsClosed) {
            this(by, threshold, value, limit, atMs, delayMs, scheduledMs, secondsClosed, Map.of());
        }

        static Abort read(BodyFields f) {
            return new Abort(f.string(BY), f.string(THRESHOLD), f.decimal(VALUE), f.decimal(LIMIT), f.whole(AT_MS),
                    f.whole(DELAY_MS), f.whole(SCHEDULED_MS), f.whole(SECONDS_CLOSED), f.rest());
        }

        /**
         * A REPEAT_END's {@code stopped} read typed only when writing it back gives the same object, key for key
         * and in order (a whole number where a decimal is written, a key moved): else null, and the marker keeps
         * the object as it came ({@link RepeatEnd#stop()} then says it cannot read it).
         */
        static Abort readExact(Map<String, Object> data) {
            Abort a = read(new BodyFields(data));
            return new java.util.ArrayList<>(a.toData().entrySet()).equals(new java.util.ArrayList<>(data.entrySet()))
                    ? a : null;
        }

        /** The body's object: its fields in the order the analyzer writes them, then {@code other}. */
        public Map<String, Object> toData() {
            return BodyFields.out().put(BY, by).put(THRESHOLD, threshold).put(VALUE, value).put(LIMIT, limit)
                    .put(AT_MS, atMs).put(DELAY_MS, delayMs).put(SCHEDULED_MS, scheduledMs)
                    .put(SECONDS_CLOSED, secondsClosed).putAll(other).done();
        }
    }

    /** A kind nothing outside the analyzer reads (WINDOW, CEILING): the body is passed on as it is. */
    record Unread(Verdict.Kind kind) implements VerdictFacts {
    }

    /** The facts of a body of {@code kind}. */
    static VerdictFacts of(Verdict.Kind kind, Map<String, ?> body) {
        BodyFields f = new BodyFields(body);
        return switch (kind) {
            case SECOND -> new Second(f.whole("sec"), is(f.bool("final")), is(f.bool("provisional")));
            case FREEZE -> new Freeze(f.whole("sec"), f.string("rule"));
            case EPISODE -> new Episode(f.whole("start"), f.whole("end"), f.string("cause"), f.string("confidence"),
                    is(f.bool("provisional")));
            case REPEAT -> new Repeat(f.string("kind"), f.bool("pass"), gates(f.object("gates")));
            case SERIES -> new Series(f.string("verdict"), f.string("headline"), f.whole("passed"), f.whole("total"));
            case ABORT -> Abort.read(f);
            case WINDOW, CEILING -> new Unread(kind);
        };
    }

    private static boolean is(Boolean b) {
        return Boolean.TRUE.equals(b);
    }

    private static Map<String, Boolean> gates(Map<String, Object> gates) {
        Map<String, Boolean> out = new LinkedHashMap<>();
        if (gates != null) {
            gates.forEach((name, result) -> out.put(name,
                    result instanceof Map<?, ?> r && Boolean.TRUE.equals(r.get("pass"))));
        }
        return out;
    }
}
