package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.episode.Cause;
import io.rigscope.analyzer.episode.Confidence;
import io.rigscope.analyzer.episode.Episode;
import io.rigscope.analyzer.episode.Evidence;
import io.rigscope.analyzer.telemetry.TelemetryStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Names the cause of an episode: runs every {@link CauseRule}, applies the controls, then names one primary
 * cause (and a secondary when a second one fits) with the evidence, or says plainly that none fits. Controls,
 * checked before blame:
 * <ol>
 *   <li>the generator's health, for every cause: a generator stall makes the generator the cause; no health
 *       record over the episode caps every server cause at {@code most_likely};</li>
 *   <li>the disk canary, for every IO cause ({@code vacuum_storm}, {@code wal_pool}, {@code storage},
 *       {@code cache_ram}): no canary over the episode caps them at {@code most_likely}; a canary stall with no
 *       Postgres cause attributed is {@code host_io};</li>
 *   <li>no vacuum, for the WAL pool (inside {@link WalPoolRule}).</li>
 * </ol>
 * Ranking: surer first; among equals, in this order: generator, vacuum_storm, wal_pool, lock_contention,
 * storage, cache_ram, host_io. A confident wrong answer is the worst outcome: when in doubt, it says less.
 * Pure and deterministic: the same scene gives the same answer.
 */
public final class Attribution {

    private static final List<Cause> PRIORITY = List.of(Cause.GENERATOR, Cause.VACUUM_STORM, Cause.WAL_POOL,
            Cause.LOCK_CONTENTION, Cause.STORAGE, Cause.CACHE_RAM, Cause.HOST_IO);
    private static final Set<Cause> IO_CAUSES = EnumSet.of(Cause.VACUUM_STORM, Cause.WAL_POOL, Cause.STORAGE,
            Cause.CACHE_RAM);

    private final List<CauseRule> rules;

    private Attribution(List<CauseRule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** Every rule of docs/attribution.md. */
    public static Attribution standard() {
        return new Attribution(List.of(new GeneratorRule(), new VacuumStormRule(), new WalPoolRule(),
                new LockContentionRule(), new StorageRule(), new CacheRamRule(), new HostIoRule()));
    }

    /** The rules, in order. */
    public List<CauseRule> rules() {
        return rules;
    }

    /** The episode of the scene with its cause, confidence, evidence, secondary cause and missing streams. */
    public Episode attribute(EpisodeScene scene) {
        Episode e = scene.episode();
        List<String> missing = scene.telemetry().lacking(e.startSec(), e.endSec());
        List<Finding> findings = new ArrayList<>();
        for (CauseRule rule : rules) {
            rule.examine(scene).ifPresent(findings::add);
        }
        boolean healthCovered = !scene.health().subMap(e.startSec() - 1, true, e.endSec(), true).isEmpty();
        boolean canaryCovered = scene.covered(TelemetryStream.CANARY);
        boolean generatorStalled = findings.stream().anyMatch(f -> f.cause() == Cause.GENERATOR);
        boolean serverAttributed = findings.stream().anyMatch(f -> f.cause() != Cause.GENERATOR
                && f.cause() != Cause.HOST_IO && f.confidence() == Confidence.ATTRIBUTED);
        List<Finding> controlled = new ArrayList<>();
        for (Finding f : findings) {
            Finding c = f;
            if (c.cause() != Cause.GENERATOR && !healthCovered) {
                c = c.capped(Confidence.MOST_LIKELY, new Evidence("rig.health", "control missing: no generator "
                        + "health over the episode, the instrument cannot be ruled out"));
            }
            if (IO_CAUSES.contains(c.cause()) && !canaryCovered) {
                c = c.capped(Confidence.MOST_LIKELY, new Evidence("rig.canary", "control missing: no disk canary "
                        + "over the episode, a host IO stall cannot be ruled out"));
            }
            if (c.cause() == Cause.HOST_IO && serverAttributed) {
                c = c.capped(Confidence.MOST_LIKELY, new Evidence("rig.canary", "the canary stalled while a "
                        + "Postgres cause was at work: its writes explain the disk's"));
            }
            controlled.add(c);
        }
        controlled.sort(Comparator.comparing(Finding::confidence)
                .thenComparing(f -> PRIORITY.indexOf(f.cause())));
        if (controlled.isEmpty()) {
            List<Evidence> why = new ArrayList<>();
            why.add(new Evidence("attribution", "no rule's fingerprint fits (" + String.join(", ",
                    rules.stream().map(r -> r.cause().code()).toList()) + ")"));
            return e.attributed(Cause.UNATTRIBUTED, Confidence.UNATTRIBUTED, why, missing);
        }
        Finding primary = controlled.get(0);
        Optional<Finding> secondary = controlled.stream().skip(1).filter(f -> f.cause() != primary.cause()).findFirst();
        List<Evidence> evidence = new ArrayList<>(primary.evidence());
        secondary.ifPresent(s -> evidence.add(new Evidence("attribution", "also " + s.cause().code() + " ("
                + s.confidence().code() + "): " + (s.evidence().isEmpty() ? "" : s.evidence().get(0).text()))));
        if (generatorStalled && primary.cause() != Cause.GENERATOR) {
            evidence.add(new Evidence("rig.health", "the generator also stalled"));
        }
        return e.attributed(primary.cause(), primary.confidence(), evidence, missing)
                .withSecondary(secondary.map(Finding::cause).orElse(null));
    }
}
