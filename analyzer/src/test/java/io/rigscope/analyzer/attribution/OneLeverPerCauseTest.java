package io.rigscope.analyzer.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.Lever;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Levers#onePerCause}: one lever per cause per repeat, from the episode with the strongest evidence. */
class OneLeverPerCauseTest {

    private static final long S = 1_796_032_800L;

    @Test
    void everyEpisodeOfACauseCarriesTheLeverOfItsSurestThenLongestEpisode() {
        Episode shortSure = episode(S, 1, Confidence.ATTRIBUTED, Cause.VACUUM_STORM, costLimit("180"));
        Episode longSure = episode(S + 30, 5, Confidence.ATTRIBUTED, Cause.VACUUM_STORM, costLimit("92"));
        Episode longest = episode(S + 60, 9, Confidence.MOST_LIKELY, Cause.VACUUM_STORM, costLimit("311"));
        Episode other = episode(S + 90, 2, Confidence.ATTRIBUTED, Cause.WAL_POOL,
                Lever.setting("min_wal_size", "15GB", "from the WAL rate", List.of()));

        List<Episode> out = Levers.onePerCause(List.of(shortSure, longSure, longest, other));

        assertThat(out).extracting(Episode::startSec).containsExactly(S, S + 30, S + 60, S + 90);
        assertThat(out.subList(0, 3)).allSatisfy(e -> {
            assertThat(e.lever().headline()).isEqualTo("autovacuum_vacuum_cost_limit=92");
            assertThat(e.lever().why()).startsWith("one lever for vacuum_storm in this repeat, from its episode at "
                    + "second " + (S + 30) + " (of 3 with a lever computed: the surest, then the most slow seconds, "
                    + "then the worst request): cost limit from the vacuum's WAL");
        });
        assertThat(out.get(3)).isEqualTo(other);
    }

    @Test
    void anEpisodeWhoseLeverWasNotComputedTakesItsCausesComputedOne() {
        Episode computed = episode(S, 2, Confidence.ATTRIBUTED, Cause.WAL_POOL,
                Lever.setting("min_wal_size", "15GB", "from the WAL rate", List.of()));
        Episode notComputed = episode(S + 10, 3, Confidence.ATTRIBUTED, Cause.WAL_POOL,
                Lever.notMeasured("no WAL rate"));
        Episode unattributed = episode(S + 20, 3, Confidence.UNATTRIBUTED, Cause.UNATTRIBUTED, null);

        List<Episode> out = Levers.onePerCause(List.of(computed, notComputed, unattributed));

        assertThat(out.get(0)).isEqualTo(computed);
        assertThat(out.get(1).lever().headline()).isEqualTo("min_wal_size=15GB");
        assertThat(out.get(2).lever()).isNull();
    }

    private static Lever costLimit(String value) {
        return Lever.setting("autovacuum_vacuum_cost_limit", value, "cost limit from the vacuum's WAL", List.of());
    }

    private static Episode episode(long start, int freezeSeconds, Confidence confidence, Cause cause, Lever lever) {
        Episode e = new Episode(1, start, start + freezeSeconds, freezeSeconds, 0, 500.0, Cause.UNATTRIBUTED,
                Confidence.UNATTRIBUTED, List.of(new Evidence("rig.samples", freezeSeconds + " freeze-second(s)")),
                List.of(), null);
        return e.attributed(cause, confidence, List.of(), List.of()).withLever(lever);
    }
}
