package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.decision.Cause;
import java.util.Optional;

/**
 * One cause's fingerprint as a rule (docs/attribution.md names each class beside its rule). A rule looks at an
 * {@link EpisodeScene} and returns a {@link Finding} when the fingerprint fits; the controls (the instrument,
 * the disk, each met by its own stream or a substitute; no vacuum for the WAL pool) are applied afterwards by
 * {@link Attribution}. Pure and deterministic.
 */
interface CauseRule {

    /** The cause this rule names. */
    Cause cause();

    /** The fingerprint in one sentence, with its thresholds. */
    String fingerprint();

    /** The finding, or empty when the fingerprint does not fit. */
    Optional<Finding> examine(EpisodeScene scene);
}
