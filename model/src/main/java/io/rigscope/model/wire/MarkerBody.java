package io.rigscope.model.wire;

import java.util.Map;

/**
 * The kind-specific content of a {@link Marker}: one record per {@link Marker.Kind}. On the wire a body is the
 * marker's {@code data} object; docs/wire-format.md lists which record holds which kind and its keys.
 *
 * <p>Each body has typed fields for the keys its writers write, and an {@code other} map for any key it does not
 * know (a newer or foreign writer's, or an older writer's that is no longer read) or whose value does not have the
 * field's type. Those are kept and written back after the known keys, so a marker decodes and re-encodes without
 * losing anything; a reader never looks into {@code other}. {@link Config} and {@link Environment} are snapshots
 * whose key order is their writer's (copied as they are into reports): they keep the whole object, with typed
 * accessors for the keys rigscope reads.
 *
 * <p>Read by pattern matching: {@code if (marker.body() instanceof RepeatStart start) ...}.
 */
public sealed interface MarkerBody
        permits SeriesStart, SeriesEnd, RepeatStart, RepeatEnd, PhaseStart, PhaseEnd, Config, Reconciliation,
                Environment, Gap {

    /** The marker kind this body belongs to. */
    Marker.Kind kind();

    /** The wire's {@code data} object: the known keys in their writers' order, then {@code other}'s. */
    Map<String, Object> toData();

    /**
     * Reads a {@code data} object as the body of {@code kind}. Never throws on content: what does not fit a field
     * is kept in the body's {@code other} map.
     */
    static MarkerBody of(Marker.Kind kind, Map<String, ?> data) {
        BodyFields f = new BodyFields(data);
        return switch (kind) {
            case SERIES_START -> SeriesStart.read(f);
            case SERIES_END -> SeriesEnd.read(f);
            case REPEAT_START -> RepeatStart.read(f);
            case REPEAT_END -> RepeatEnd.read(f);
            case PHASE_START -> PhaseStart.read(f);
            case PHASE_END -> PhaseEnd.read(f);
            case CONFIG -> new Config(f.rest());
            case RECONCILIATION -> Reconciliation.read(f);
            case ENVIRONMENT -> new Environment(f.rest());
            case GAP -> Gap.read(f);
        };
    }
}
