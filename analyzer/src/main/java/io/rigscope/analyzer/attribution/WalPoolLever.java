package io.rigscope.analyzer.attribution;

import static io.rigscope.analyzer.scene.EpisodeScene.LeverContext.num;
import static io.rigscope.analyzer.scene.EpisodeScene.LeverContext.pgSize;

import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Lever;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.PgLogEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * {@code wal_pool}: the WAL to keep ready is what one checkpoint cycle writes. WAL rate (rig.db: pg_stat_wal bytes
 * over the repeat's readings, or the WAL directory's growth over them when larger: a session's WAL reaches
 * pg_stat_wal only when it reports its statistics) times the checkpoint cycle (the median interval between checkpoint starts logged in
 * rig.pglog up to the repeat's end when at least two were, else {@code checkpoint_timeout}), rounded up to whole
 * segments ({@code wal_segment_size}), at least two: {@code min_wal_size}. With {@code wal_recycle=off} no pool is
 * kept whatever min_wal_size says: the lever is {@code wal_recycle=on}. When min_wal_size already covers the cycle,
 * the segments were created because the pool had not been filled yet (a fresh cluster): the lever is an action.
 */
final class WalPoolLever implements LeverRule {

    @Override
    public Lever lever(Episode e, EpisodeScene scene, LeverContext ctx) {
        List<DbSample> readings = scene.telemetry().records(TelemetryStream.DB, ctx.repeatStartSec(),
                ctx.repeatEndSec(), DbSample.class);
        long walBytes = 0;
        long intervalMs = 0;
        int n = 0;
        Integer filesAtStart = null;
        DbSample firstDir = null;
        DbSample lastDir = null;
        for (DbSample d : readings) {
            if (d.walDir() != null) {
                firstDir = firstDir == null ? d : firstDir;
                lastDir = d;
            }
            if (filesAtStart == null && d.walDir() != null) {
                filesAtStart = d.walDir().files();
            }
            if (d.wal() != null && d.intervalMs() > 0) {
                walBytes += d.wal().bytes();
                intervalMs += d.intervalMs();
                n++;
            }
        }
        if (n < 2) {
            return Lever.notMeasured("the WAL rate was not measured: " + n + " rig.db reading(s) with pg_stat_wal in "
                    + "repeat " + e.rep() + " (2 needed)");
        }
        double statRate = walBytes / (intervalMs / 1000.0);
        // pg_stat_wal counts a backend's WAL when it reports its statistics (at the end of a transaction, or of a
        // long server-side loop): a session still writing at the repeat's end is missing from it. The segments the
        // WAL directory gained over the repeat are WAL written too, a lower bound: the larger of the two is the rate.
        double dirRate = 0;
        String dirWhy = "";
        if (firstDir != null && lastDir != firstDir && lastDir.ts() > firstDir.ts()
                && lastDir.walDir().bytes() > firstDir.walDir().bytes()) {
            double sec = (lastDir.ts() - firstDir.ts()) / 1e6;
            dirRate = (lastDir.walDir().bytes() - firstDir.walDir().bytes()) / sec;
            dirWhy = "; the WAL directory grew " + num((lastDir.walDir().bytes() - firstDir.walDir().bytes())
                    / 1_048_576.0, 0) + " MB (" + firstDir.walDir().files() + " -> " + lastDir.walDir().files()
                    + " files) in " + num(sec, 1) + " s = " + num(dirRate / 1_048_576.0, 1) + " MB/s";
        }
        double rateBytesPerSec = Math.max(statRate, dirRate);
        List<Long> startsUs = new ArrayList<>();
        for (PgLogEvent p : scene.telemetry().records(TelemetryStream.PGLOG, 0, ctx.repeatEndSec(),
                PgLogEvent.class)) {
            if (p.kind() == PgLogEvent.Kind.CHECKPOINT_START) {
                startsUs.add(p.ts());
            }
        }
        double cycleSec;
        String cycleWhy;
        if (startsUs.size() >= 2) {
            double[] gaps = new double[startsUs.size() - 1];
            for (int i = 1; i < startsUs.size(); i++) {
                gaps[i - 1] = (startsUs.get(i) - startsUs.get(i - 1)) / 1e6;
            }
            cycleSec = Levers.median(gaps);
            cycleWhy = "the median interval between the " + startsUs.size() + " checkpoint starts logged in rig.pglog";
        } else {
            OptionalDouble timeout = ctx.settingSeconds("checkpoint_timeout");
            if (timeout.isEmpty() || timeout.getAsDouble() <= 0) {
                return Lever.notMeasured("the checkpoint cycle was not measured: " + startsUs.size() + " checkpoint "
                        + "start(s) in rig.pglog and no checkpoint_timeout in the series' environment");
            }
            cycleSec = timeout.getAsDouble();
            cycleWhy = "checkpoint_timeout " + ctx.setting("checkpoint_timeout").orElseThrow() + ": " + startsUs.size()
                    + " checkpoint start(s) logged in rig.pglog, fewer than the 2 that measure it";
        }
        double needBytes = rateBytesPerSec * cycleSec;
        OptionalLong segment = ctx.settingBytes("wal_segment_size");
        long valueBytes;
        String rounding;
        if (segment.isPresent() && segment.getAsLong() > 0) {
            long seg = segment.getAsLong();
            long segments = Math.max(2, (long) Math.ceil(needBytes / seg));
            valueBytes = segments * seg;
            rounding = "rounded up to whole " + pgSize(seg) + " segments (at least 2): " + segments + " x "
                    + pgSize(seg) + " = " + pgSize(valueBytes);
        } else {
            valueBytes = (long) Math.ceil(needBytes / 1_048_576.0) * 1_048_576L;
            rounding = "rounded up to whole MB (wal_segment_size not in the environment): " + pgSize(valueBytes);
        }
        String value = pgSize(valueBytes);
        StringBuilder why = new StringBuilder();
        why.append("WAL rate ").append(num(rateBytesPerSec / 1_048_576.0, 1)).append(" MB/s (rig.db: ")
                .append(num(walBytes / 1_048_576.0, 1)).append(" MB of pg_stat_wal bytes over ")
                .append(num(intervalMs / 1000.0, 1)).append(" s of ").append(n).append(" readings in repeat ")
                .append(e.rep()).append(" = ").append(num(statRate / 1_048_576.0, 1)).append(" MB/s").append(dirWhy)
                .append(dirRate > statRate ? "; the larger is taken" : "").append(") x checkpoint cycle ").append(num(cycleSec, 0)).append(" s (")
                .append(cycleWhy).append(") = ").append(num(needBytes / 1_048_576.0, 0)).append(" MB per cycle, ")
                .append(rounding);
        OptionalLong min = ctx.settingBytes("min_wal_size");
        OptionalLong max = ctx.settingBytes("max_wal_size");
        why.append("; min_wal_size ").append(ctx.setting("min_wal_size").orElse("not recorded"));
        if (filesAtStart != null) {
            why.append("; WAL files at the repeat's start: ").append(filesAtStart).append(" (rig.db)");
        }
        var recycle = ctx.setting("wal_recycle");
        var zero = ctx.setting("wal_init_zero");
        if (recycle.isEmpty() && zero.isEmpty()) {
            why.append("; wal_recycle and wal_init_zero are not in this series' environment");
        } else {
            zero.filter("on"::equals).ifPresent(z -> why.append("; wal_init_zero=on: a created segment is first "
                    + "written full of zeros"));
        }
        List<Lever.Also> also = new ArrayList<>();
        if (max.isPresent() && max.getAsLong() < valueBytes) {
            also.add(new Lever.Also("max_wal_size", value));
            why.append("; max_wal_size ").append(ctx.setting("max_wal_size").orElseThrow())
                    .append(" is below it and is raised with it");
        }
        if (recycle.filter("off"::equals).isPresent()) {
            why.append("; wal_recycle=off: a finished segment is removed, never renamed for reuse, so every segment "
                    + "is created anew and no min_wal_size keeps a pool");
            if (min.isEmpty() || min.getAsLong() < valueBytes) {
                also.add(0, new Lever.Also("min_wal_size", value));
            }
            return Lever.setting("wal_recycle", "on", why.toString(), also);
        }
        if (min.isPresent() && min.getAsLong() >= valueBytes) {
            why.append("; min_wal_size already covers a cycle: the segments were created because the pool was not "
                    + "filled yet (a cluster creates the segments of its first cycle, recycles them after)");
            return Lever.action("write " + value + " of WAL before the measured repeats, so they run on recycled "
                    + "segments", value, why.toString());
        }
        return Lever.setting("min_wal_size", value, why.toString(), also);
    }
}
