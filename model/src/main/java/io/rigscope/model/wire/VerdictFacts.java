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
                 Long secondsClosed) implements VerdictFacts {

        static Abort read(BodyFields f) {
            return new Abort(f.string("by"), f.string("threshold"), f.decimal("value"), f.decimal("limit"),
                    f.whole("at_ms"), f.whole("delay_ms"), f.whole("scheduled_ms"), f.whole("seconds_closed"));
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
