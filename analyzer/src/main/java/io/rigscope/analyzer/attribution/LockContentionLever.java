package io.rigscope.analyzer.attribution;

import static io.rigscope.analyzer.scene.EpisodeScene.LeverContext.num;

import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.decision.Lever;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.DbSample;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code lock_contention}: the hot relation. rig.waits carries wait events, not query text, so the statement is not
 * measured; the relation is: among the tables rig.db follows, the one with the most dead row versions per live row
 * over the episode (its {@code n_dead_tup} at most, over its {@code n_live_tup} at most, within rig.db's tolerance),
 * when that is at least 1: the same rows updated over and over by the committers that wait on each other.
 */
final class LockContentionLever implements LeverRule {

    @Override
    public Lever lever(Episode e, EpisodeScene scene, LeverContext ctx) {
        Map<String, long[]> byTable = new LinkedHashMap<>();
        for (DbSample d : scene.around(TelemetryStream.DB, DbSample.class)) {
            for (DbSample.TableStats t : d.tables()) {
                long[] m = byTable.computeIfAbsent(t.table(), k -> new long[2]);
                m[0] = Math.max(m[0], t.nDeadTup());
                m[1] = Math.max(m[1], t.nLiveTup());
            }
        }
        String locks = Levers.evidence(e, "lock_share").map(Evidence::text).orElse("the lock waits of the episode");
        if (byTable.isEmpty()) {
            return Lever.notMeasured(locks + "; the hot relation was not measured: no table stats in rig.db over the "
                    + "episode, and rig.waits carries no query text");
        }
        String hot = null;
        double best = -1;
        for (var t : byTable.entrySet()) {
            double perRow = (double) t.getValue()[0] / Math.max(1, t.getValue()[1]);
            if (perRow > best) {
                best = perRow;
                hot = t.getKey();
            }
        }
        long[] m = byTable.get(hot);
        String why = locks + "; rig.db: " + hot + " held up to " + num(m[0], 0) + " dead row versions for up to "
                + num(m[1], 0) + " live row(s) over the episode (" + num(best, 1) + " a row, the most of the "
                + byTable.size() + " table(s) followed, " + scene.within(TelemetryStream.DB) + "); rig.waits "
                + "carries no query text: the statement itself was not measured";
        if (best < 1) {
            return Lever.notMeasured(why + "; no table's rows were updated over and over (fewer dead versions than "
                    + "rows): the hot relation is not among the tables followed");
        }
        return Lever.action("take the UPDATE of " + hot + "'s " + num(m[1], 0) + " row(s) out of the requests' "
                + "transaction (batch it, or commit it apart): every committer waits for the one holding it", hot, why);
    }
}
