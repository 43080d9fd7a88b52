package io.rigscope.model.wire;

import io.rigscope.model.topic.Topic;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One analyzer decision on {@code rig.verdicts}.
 *
 * @param kind what was decided
 * @param scenario the scenario it concerns, or null for series-level decisions
 * @param body the decision's JSON view, as the analyzer wrote it (docs/wire-format.md lists the keys of each kind);
 *             read it through {@link #facts()}
 */
public record Verdict(String run, int rep, String src, long ts, Kind kind, String scenario, Map<String, Object> body)
        implements WireRecord {

    /** The closed set of decisions. */
    public enum Kind {
        SECOND, WINDOW, FREEZE, EPISODE, REPEAT, CEILING, SERIES, ABORT
    }

    public Verdict {
        Checks.header(run, rep, src, ts);
        Objects.requireNonNull(kind, "kind is missing");
        body = body == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(body));
    }

    /** What rigscope reads from the body, typed by kind ({@link VerdictFacts}). */
    public VerdictFacts facts() {
        return VerdictFacts.of(kind, body);
    }

    @Override
    public Topic topic() {
        return Topic.VERDICTS;
    }
}
