package io.rigscope.analyzer.attribution;

import static io.rigscope.analyzer.scene.EpisodeScene.LeverContext.num;

import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Lever;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;
import io.rigscope.analyzer.decision.SecondStats;
import io.rigscope.analyzer.decision.Decision.TimingFigure;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * {@code connection_pool}: requests waited for a pooled connection while the database was not busy. A request holds
 * a connection at least while the database works for it, its Server-Timing {@code db} (median over the repeat,
 * {@code d}); at the offered rate {@code λ} (the generator's scheduled requests a second, median over the
 * episode's seconds; completed requests where no ledger came) the pool keeps {@code a = λ x d} connections busy on
 * average. The pool is the smallest {@code N} whose chance that a request waits for a connection, by Erlang C (the
 * M/M/N queue: Poisson arrivals, exponential holds), is at most 1 %: the generator's evenly spaced arrivals wait less
 * than Poisson ones, so the figure errs on the large side. When more sessions sat waiting on the client inside a transaction ({@code Client:*} in rig.waits, the
 * most in one record) than even the slowest database work keeps busy ({@code λ x} the repeat's p99 {@code db}), the
 * pool's connections were held while the service did other work: the lever is to hold a connection only for the
 * database's work, not a bigger pool. The service's pool setting is its own (rigscope cannot name it):
 * an action, with {@code max_connections} named when the pool would not fit under it.
 */
final class ConnectionPoolLever implements LeverRule {

    /** The chance to wait for a connection the pool is sized to: below what a p99 would feel. */
    static final double WAIT_CHANCE = 0.01;
    /** Connections Postgres keeps for superusers by default ({@code superuser_reserved_connections}). */
    private static final int RESERVED = 3;

    @Override
    public Lever lever(Episode e, EpisodeScene scene, LeverContext ctx) {
        TimingFigure db = scene.serverTiming().figures().get(ServiceView.DB);
        if (db == null || db.p50Ms() <= 0) {
            return Lever.notMeasured("the service's Server-Timing gave no `" + ServiceView.DB + "` time over the "
                    + "repeat: how long a request holds a connection was not measured, so the pool cannot be sized");
        }
        double[] rate = offeredRate(scene.seconds());
        if (rate[0] <= 0) {
            return Lever.notMeasured("no request rate over the episode's seconds: the pool cannot be sized");
        }
        double lambda = rate[0];
        double a = lambda * db.p50Ms() / 1000.0;
        long pool = poolFor(a);
        StringBuilder why = new StringBuilder()
                .append("offered rate λ = ").append(num(lambda, 0)).append(" req/s (")
                .append(rate[1] > 0 ? "the generator's scheduled requests" : "completed requests, no ledger")
                .append(", median of the episode's ").append(scene.seconds().size()).append(" second(s)); a request ")
                .append("holds a connection at least its Server-Timing db, median d = ").append(num(db.p50Ms(), 3))
                .append(" ms over the repeat (p99 ").append(num(db.p99Ms(), 3)).append(" ms); busy connections a = λ x d = ")
                .append(num(a, 2)).append("; pool = the smallest N whose chance to wait for a connection (Erlang C, M/M/N) is at ")
                .append("most 1 %: ").append(pool).append(" (").append(num(100 * erlangC(pool, a), 2))
                .append(" %; ").append(pool - 1).append(" would give ").append(pool - 1 > a
                        ? num(100 * erlangC(pool - 1, a), 2) + " %)" : "no steady state)");
        List<Waits> waits = scene.around(TelemetryStream.WAITS, Waits.class);
        if (waits.isEmpty()) {
            why.append("; the sessions in use were not measured (no rig.waits over the episode)");
        } else {
            double[] sessions = sessions(waits);
            why.append("; rig.waits: ").append(num(sessions[0], 1)).append(" active session(s) at most, ")
                    .append(num(sessions[1], 1)).append(" of them waiting on the client (Client:*), ")
                    .append(scene.within(TelemetryStream.WAITS));
            double slowest = lambda * db.p99Ms() / 1000.0;
            if (sessions[1] > slowest && sessions[1] >= 1) {
                return Lever.action("hold a pooled connection only for the database's work: end each transaction "
                        + "before the service's own work", num(sessions[1], 1) + " sessions idle in a transaction",
                        why + "; more sessions waited on the client inside a transaction (" + num(sessions[1], 1)
                                + ") than even the slowest database work keeps busy (λ x db p99 = " + num(slowest, 2)
                                + "): the pool's connections were held while the service did other work, which no "
                                + "pool size cures");
            }
        }
        OptionalDouble max = ctx.settingNumber("max_connections");
        if (max.isPresent() && pool > max.getAsDouble() - RESERVED) {
            why.append("; max_connections ").append(num(max.getAsDouble(), 0)).append(" leaves ")
                    .append(num(max.getAsDouble() - RESERVED, 0)).append(" (").append(RESERVED)
                    .append(" reserved): raise it with the pool, or put a transaction pooler in front");
        } else if (max.isPresent()) {
            why.append("; max_connections ").append(num(max.getAsDouble(), 0)).append(" has room for it");
        }
        return Lever.action("a connection pool of at least " + pool + " connections in the service", pool
                + " connections", why.toString());
    }

    /** The smallest pool whose Erlang C chance to wait is at most {@link #WAIT_CHANCE} at {@code a} busy. */
    static long poolFor(double a) {
        long n = Math.max(1, (long) Math.floor(a) + 1);
        while (erlangC(n, a) > WAIT_CHANCE) {
            n++;
        }
        return n;
    }

    /**
     * Erlang C: the chance an arrival waits in an M/M/{@code n} queue offered {@code a} erlangs ({@code n > a}), from
     * Erlang B's recursion {@code B(k) = a B(k-1) / (k + a B(k-1))}.
     */
    static double erlangC(long n, double a) {
        double b = 1;
        for (long k = 1; k <= n; k++) {
            b = a * b / (k + a * b);
        }
        return n * b / (n - a * (1 - b));
    }

    /** {median offered rate, 1 when it came from the ledger's scheduled count}. */
    private static double[] offeredRate(List<SecondStats> seconds) {
        List<Double> scheduled = new ArrayList<>();
        List<Double> completed = new ArrayList<>();
        for (SecondStats s : seconds) {
            if (s.ledger().scheduled() > 0) {
                scheduled.add((double) s.ledger().scheduled());
            }
            completed.add((double) s.count());
        }
        if (!scheduled.isEmpty()) {
            return new double[] {Levers.median(scheduled.stream().mapToDouble(Double::doubleValue).toArray()), 1};
        }
        return new double[] {Levers.median(completed.stream().mapToDouble(Double::doubleValue).toArray()), 0};
    }

    /** {most active sessions in a record, most of them on Client:*}. */
    private static double[] sessions(List<Waits> waits) {
        double active = 0;
        double client = 0;
        for (Waits w : waits) {
            double all = 0;
            double onClient = 0;
            for (Map.Entry<String, Double> en : w.load().entrySet()) {
                all += en.getKey().startsWith("Timeout:") ? 0 : en.getValue();   // a timer is no work
                if (en.getKey().startsWith("Client:")) {
                    onClient += en.getValue();
                }
            }
            active = Math.max(active, all);
            client = Math.max(client, onClient);
        }
        return new double[] {active, client};
    }
}
