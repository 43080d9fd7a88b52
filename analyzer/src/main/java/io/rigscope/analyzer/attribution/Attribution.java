package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.attribution.CauseSpec.Flag;
import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Names the cause of an episode: runs every {@link CauseRule}, applies the controls, then names one primary
 * cause (and a secondary when a second one fits) with the evidence, or says plainly that none fits. Controls,
 * checked before blame:
 * <ol>
 *   <li>the instrument, for every server cause ({@link InstrumentControl}): a generator stall makes the generator
 *       the cause; the control is met by the generator's health, or by server-side evidence that load kept arriving
 *       (active sessions, commits), or by the generator host's vmstat; not met, it caps every server cause at
 *       {@code most_likely};</li>
 *   <li>the disk, for every IO cause ({@code vacuum_storm}, {@code wal_pool}, {@code storage}, {@code cache_ram};
 *       {@link DiskControl}): met by the disk canary or by the device view completing IO in step with Postgres's;
 *       not met, it caps them at {@code most_likely}; a canary stall with no Postgres cause attributed is
 *       {@code host_io};</li>
 *   <li>no vacuum, for the WAL pool (inside {@link WalPoolRule}).</li>
 * </ol>
 * A substitute that met a control is named in the finding's evidence. Ranking: a finding from a 60-s aggregate
 * ({@link Finding#coarse()}) after every other; then surer first; among equals, one that cannot explain the
 * episode ({@link Finding#partial()}: a stall shorter than its share of the worst request) after one that can;
 * among those that can, one whose measured stall spans at least {@code attribution_cover_share} of the worst
 * request ({@link Finding#share()}: the service's process stopped, a generator pause) before one that measures no
 * duration of its own (a segment's creation placed between two 1-s samples explains no length of freeze); among
 * partial ones, the larger measured share first (a pool wait of 76 % of the worst request before a 2.5 % loop
 * lag); then in the order of the rows of {@link CauseSpec}: generator, vacuum_storm, wal_pool, lock_contention, storage, cache_ram, host_io, connection_pool,
 * service (the service last: a database or disk cause as sure as it explains the service's time too); then by
 * mechanism: storage right after a
 * vacuum storm whose vacuum wrote a burst of WAL over the episode. A confident wrong answer is the worst outcome:
 * when in doubt, it says less.
 * Pure and deterministic: the same scene gives the same answer.
 */
final class Attribution {

    private final List<CauseRule> rules;

    private Attribution(List<CauseRule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** Every rule of docs/attribution.md: the rule of each row of {@link CauseSpec}, in its order. */
    public static Attribution standard() {
        return new Attribution(Arrays.stream(CauseSpec.values()).map(CauseSpec::rule).toList());
    }

    /**
     * The episode with its lever, computed by its cause's row of {@link CauseSpec} from the scene it was attributed
     * in; unchanged when it has no cause (unattributed).
     */
    public static Episode withLever(Episode attributed, EpisodeScene scene, LeverContext context) {
        CauseSpec spec = CauseSpec.of(attributed.cause());
        if (spec == null) {
            return attributed;
        }
        return attributed.withLever(spec.lever().lever(attributed, scene, context));
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
        if (findings.size() > 1) {
            // a finding by exclusion stands only when no other rule's fingerprint fits
            findings.removeIf(f -> spec(f).byExclusion(f));
        }
        boolean generatorStalled = findings.stream().anyMatch(f -> f.cause() == Cause.GENERATOR);
        boolean serverAttributed = findings.stream().anyMatch(f -> spec(f).has(Flag.SERVER)
                && f.confidence() == Confidence.ATTRIBUTED);
        Control instrument = null;
        Control disk = null;
        List<Finding> controlled = new ArrayList<>();
        for (Finding f : findings) {
            Finding c = f;
            CauseSpec spec = spec(c);
            if (spec.has(Flag.INSTRUMENT)) {
                instrument = instrument == null ? InstrumentControl.check(scene) : instrument;
                c = apply(c, instrument);
            }
            if (spec.has(Flag.DISK)) {
                disk = disk == null ? DiskControl.check(scene) : disk;
                c = apply(c, disk);
            }
            if (spec.has(Flag.YIELDS_TO_SERVER) && serverAttributed) {
                c = c.capped(Confidence.MOST_LIKELY, new Evidence("rig.canary", "the canary stalled while a "
                        + "Postgres cause was at work: its writes explain the disk's"));
            }
            controlled.add(c);
        }
        double cover = scene.settings().coverShare();
        controlled.sort(Comparator.comparing(Finding::coarse).thenComparing(Finding::confidence)
                .thenComparing(Finding::partial)
                .thenComparing(f -> !f.partial() && f.share() >= cover ? 0 : 1)
                .thenComparing(f -> f.partial() ? -Math.max(f.share(), 0) : 0)
                .thenComparing(CauseSpec::rank));
        byMechanism(scene, controlled);
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

    private static CauseSpec spec(Finding f) {
        return Objects.requireNonNull(CauseSpec.of(f.cause()), () -> "no row for " + f.cause());
    }

    /** The finding under a control: capped when the control is not met, the substitute named when one met it. */
    private static Finding apply(Finding f, Control control) {
        if (!control.met()) {
            return f.capped(Confidence.MOST_LIKELY, control.fact());
        }
        return control.substitute() ? f.noted(control.fact()) : f;
    }

    /**
     * Ranking by mechanism, not symptom: when a vacuum that wrote a burst of WAL overlaps the episode
     * ({@link Vacuums#walBurst()}) and both {@code vacuum_storm} and {@code storage} fit, the disk at its ceiling
     * is the vacuum's mechanism: storage moves to just after the vacuum storm, whatever their confidences.
     */
    private static void byMechanism(EpisodeScene scene, List<Finding> ranked) {
        int vacuum = indexOf(ranked, Cause.VACUUM_STORM);
        if (vacuum < 0) {
            return;
        }
        Boolean walBurst = null;
        for (CauseSpec spec : CauseSpec.values()) {
            int at = spec.has(Flag.VACUUM_MECHANISM) ? indexOf(ranked, spec.cause()) : -1;
            if (at < 0) {
                continue;
            }
            walBurst = walBurst == null ? new Vacuums(scene).walBurst() : walBurst;
            if (!walBurst) {
                return;
            }
            Finding s = ranked.remove(at);
            ranked.add(indexOf(ranked, Cause.VACUUM_STORM) + 1, s);
        }
    }

    private static int indexOf(List<Finding> ranked, Cause cause) {
        for (int i = 0; i < ranked.size(); i++) {
            if (ranked.get(i).cause() == cause) {
                return i;
            }
        }
        return -1;
    }
}
