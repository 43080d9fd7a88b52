package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Cause;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.Episode.Confidence;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code connection_pool}: the service's connection pool is too small for the load. Defining: the slowest request of
 * the episode that carried {@code Server-Timing} waited for a pooled connection ({@code pool}) at least
 * {@code attribution_pool_share} of the episode's worst request, longer than it spent in {@code db} or in the
 * service's own metrics. Database control ({@code rig.waits}): fewer than {@code attribution_db_busy_sessions} active
 * sessions not waiting on the client over the episode (the pool's connections then sit mostly idle or in
 * {@code Client:ClientRead}); a busy database holds its connections longer and is the cause, not the pool (no
 * finding). Without {@code rig.waits} the control cannot be met and the finding is most likely. A service whose process
 * was starved of CPU ({@code rig.process}: one thread's run-queue wait in a second at least
 * {@code attribution_cover_share} of the worst request) holds its connections while it waits to run: then this
 * finding is at most most likely (and {@code service}, attributed from the same record, outranks it); so it is when
 * one thread of it waited for a CPU at least {@code attribution_service_starved_share} of a second (a record spans a
 * second: a worst request of several seconds is never covered by one). The instrument control is {@link Attribution}'s.
 */
final class ConnectionPoolRule implements CauseRule {

    @Override
    public Cause cause() {
        return Cause.CONNECTION_POOL;
    }

    @Override
    public String fingerprint() {
        return "Server-Timing pool >= attribution_pool_share of the episode's worst request and more than db and the "
                + "service's own time, with the database not busy (< attribution_db_busy_sessions)";
    }

    @Override
    public Optional<Finding> examine(EpisodeScene scene) {
        Decision.Worst w = ServiceView.slowestTimed(scene);
        double worstUs = scene.episode().worstMs() * 1000.0;
        if (w == null || worstUs <= 0) {
            return Optional.empty();
        }
        long poolUs = ServiceView.us(w.timing(), ServiceView.POOL);
        long dbUs = ServiceView.us(w.timing(), ServiceView.DB);
        long ownUs = ServiceView.ownUs(w.timing());
        if (poolUs < scene.settings().poolShare() * worstUs || poolUs <= dbUs || poolUs <= ownUs) {
            return Optional.empty();
        }
        double busy = ServiceView.busySessions(scene);
        if (busy >= scene.settings().dbBusySessions()) {
            return Optional.empty();
        }
        boolean starved = ServiceView.starved(scene, worstUs);
        List<Evidence> evidence = new ArrayList<>();
        evidence.add(Evidence.measured("server-timing", w.sec() * 1_000_000L, "pool_ms", poolUs / 1000.0, "ms",
                "the slowest timed request (second " + w.sec() + ", " + WaitProfile.round(w.serviceUs() / 1000.0)
                        + " ms) waited " + WaitProfile.round(poolUs / 1000.0) + " ms for a pooled connection ("
                        + ServiceView.describe(w.timing()) + "), >= attribution_pool_share "
                        + scene.settings().poolShare() + " of the episode's worst request " + scene.episode().worstMs()
                        + " ms"));
        if (busy < 0) {
            evidence.add(new Evidence("rig.waits", "database control missing: no rig.waits over the episode, a busy "
                    + "database holding its connections cannot be ruled out"));
            return Optional.of(new Finding(Cause.CONNECTION_POOL, Confidence.MOST_LIKELY, evidence, List.of("rig.waits"))
                    .explaining(poolUs / worstUs));
        }
        evidence.add(ServiceView.dbFact(scene, busy));
        if (starved) {
            // a service starved of CPU hands its connections back late: the pool's size is then not proven
            evidence.add(new Evidence("rig.process", "the service was also starved of CPU (a thread's run-queue "
                    + "wait covers the worst request, or is at least attribution_service_starved_share "
                    + scene.settings().serviceStarvedShare() + " of a second): a starved thread takes a freed "
                    + "connection late and hands it back late, so the pool's size is not proven; ranked after service"));
            // partial: it cannot explain the episode on its own while the service could not run
            return Optional.of(new Finding(Cause.CONNECTION_POOL, Confidence.MOST_LIKELY, evidence, List.of(), false,
                    true, poolUs / worstUs));
        }
        return Optional.of(new Finding(Cause.CONNECTION_POOL, Confidence.ATTRIBUTED, evidence, List.of())
                .explaining(poolUs / worstUs));
    }
}
