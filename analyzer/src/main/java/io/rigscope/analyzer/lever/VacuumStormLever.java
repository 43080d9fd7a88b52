package io.rigscope.analyzer.lever;

import static io.rigscope.analyzer.lever.LeverContext.num;

import io.rigscope.analyzer.attribution.EpisodeScene;
import io.rigscope.analyzer.episode.Episode;
import io.rigscope.analyzer.episode.Lever;
import io.rigscope.analyzer.telemetry.TelemetryStream;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * {@code vacuum_storm}: a pass of autovacuum on an insert-only table dirties the pages inserted since the last one,
 * and writes about one full-page image per page. Sized so a pass writes no more WAL than the device delivered in
 * one second over the episode:
 * <pre>
 *   b   = the pass's WAL bytes / its full-page images                  (rig.pglog, the completion over the episode)
 *   r   = the table's rows / its pages                                  (rig.pglog: tuples_remain / pages_remain)
 *   D   = the median of the busiest device's write KB/s x 1024 in the rig.os records stamped while the pass ran
 *         inside the episode (else within the stream's tolerance of the episode)                      (bytes/s)
 *   s   = (D x 1 s / b x r - autovacuum_vacuum_insert_threshold) / rows  rounded down to 2 significant digits
 * </pre>
 * and the cost limit that holds the pass's own writes to half of D: {@code D/2 / b} pages a second, each costing
 * {@code vacuum_cost_page_dirty} (20), per {@code autovacuum_vacuum_cost_delay} (2 ms when it was 0).
 * When s is not below the factor in force, the pass was bigger than the factor makes it: the table had not been
 * vacuumed since it was loaded, and the lever is an action.
 */
final class VacuumStormLever implements Levers.LeverRule {

    /** Postgres's default {@code vacuum_cost_page_dirty}. */
    private static final int COST_PAGE_DIRTY = 20;

    @Override
    public Lever lever(Episode e, EpisodeScene scene, LeverContext ctx) {
        PgLogEvent pass = null;
        int tol = scene.telemetry().toleranceSec(TelemetryStream.PGLOG);
        long fromUs = (scene.startSec() - tol) * 1_000_000L;
        long toUs = (scene.endSec() + tol) * 1_000_000L;
        // the completion is logged when the vacuum ends, possibly after the episode: every line up to the repeat's end
        for (PgLogEvent p : scene.telemetry().records(TelemetryStream.PGLOG, scene.startSec() - tol,
                Math.max(scene.endSec(), ctx.repeatEndSec()) + tol, PgLogEvent.class)) {
            if (p.kind() != PgLogEvent.Kind.AUTOVACUUM) {
                continue;
            }
            long startUs = p.ts() - Math.round(p.metrics().getOrDefault("elapsed_s", 0.0) * 1e6);
            if (startUs <= toUs && p.ts() >= fromUs && fpi(p) > 0
                    && (pass == null || fpi(p) > fpi(pass))) {
                pass = p;
            }
        }
        if (pass == null) {
            return Lever.notMeasured("no autovacuum completion with full-page images in rig.pglog overlaps the "
                    + "episode: the WAL a pass writes per page and the table's size were not measured");
        }
        double walBytes = pass.metrics().getOrDefault("wal_bytes", 0.0);
        double pages = pass.metrics().getOrDefault("pages_remain", pass.metrics().getOrDefault("pages_scanned", 0.0));
        double rows = pass.metrics().getOrDefault("tuples_remain", 0.0);
        if (walBytes <= 0 || pages <= 0 || rows <= 0) {
            return Lever.notMeasured("the autovacuum of " + pass.table() + " logged no WAL bytes, pages or rows "
                    + "remaining: the pages a pass dirties cannot be sized");
        }
        // what the device delivered while the pass ran inside the episode: its records stamped in the overlap
        long passStartSec = Math.floorDiv(pass.ts() - Math.round(pass.metrics().getOrDefault("elapsed_s", 0.0) * 1e6),
                1_000_000L);
        long passEndSec = Math.floorDiv(pass.ts(), 1_000_000L) + 1;
        long fromSec = Math.max(scene.startSec(), passStartSec);
        long toSec = Math.min(scene.endSec(), passEndSec);
        List<OsMetrics> during = scene.telemetry().records(TelemetryStream.OS, fromSec, toSec, OsMetrics.class);
        String window = "stamped while the pass ran inside the episode";
        if (during.isEmpty()) {
            during = scene.around(TelemetryStream.OS, OsMetrics.class);
            window = "over the episode, " + scene.within(TelemetryStream.OS);
        }
        List<Double> writeKbPerSec = new ArrayList<>();
        for (OsMetrics os : during) {
            os.diskIO().stream().mapToDouble(OsMetrics.DiskIO::writeKbPS).max().ifPresent(writeKbPerSec::add);
        }
        if (writeKbPerSec.isEmpty()) {
            return Lever.notMeasured("the device's write throughput was not measured: no rig.os record over the "
                    + "episode, so the WAL a pass may write in a second is unknown");
        }
        double deviceBytesPerSec = Levers.median(writeKbPerSec.stream().mapToDouble(Double::doubleValue).toArray())
                * 1024;
        double walPerPage = walBytes / fpi(pass);
        double rowsPerPage = rows / pages;
        OptionalDouble thresholdSet = ctx.settingNumber("autovacuum_vacuum_insert_threshold");
        double threshold = thresholdSet.orElse(1000);
        String thresholdWhy = thresholdSet.isPresent() ? "autovacuum_vacuum_insert_threshold " + num(threshold, 0)
                : "autovacuum_vacuum_insert_threshold 1,000 (Postgres's default; not in the environment)";
        double pagesPerPass = deviceBytesPerSec / walPerPage;
        double factor = (pagesPerPass * rowsPerPage - threshold) / rows;
        String table = pass.table() == null ? "the table" : pass.table();
        StringBuilder why = new StringBuilder();
        why.append("the autovacuum of ").append(table).append(" (rig.pglog, ").append(num(pass.metrics()
                        .getOrDefault("elapsed_s", 0.0), 2)).append(" s): ").append(num(walBytes / 1_048_576.0, 0))
                .append(" MB of WAL for ").append(num(fpi(pass), 0)).append(" full-page images = ")
                .append(num(walPerPage, 0)).append(" B a page; table ").append(num(rows, 0)).append(" rows in ")
                .append(num(pages, 0)).append(" pages = ").append(num(rowsPerPage, 2))
                .append(" rows a page; device ").append(num(deviceBytesPerSec / 1_048_576.0, 1))
                .append(" MB/s written (rig.os, busiest device, median of ").append(writeKbPerSec.size())
                .append(" record(s) ").append(window).append("); a pass may write what the device writes in ")
                .append("1 s: ").append(num(deviceBytesPerSec / 1_048_576.0, 1)).append(" MB / ")
                .append(num(walPerPage, 0)).append(" B = ").append(num(pagesPerPass, 0)).append(" pages = ")
                .append(num(pagesPerPass * rowsPerPage, 0)).append(" rows; (").append(num(pagesPerPass * rowsPerPage, 0))
                .append(" - ").append(thresholdWhy).append(") / ").append(num(rows, 0)).append(" rows = ")
                .append(String.format(java.util.Locale.ROOT, "%.4f", factor));
        List<Lever.Also> also = costLimits(ctx, deviceBytesPerSec, walPerPage, why);
        OptionalDouble now = ctx.settingNumber("autovacuum_vacuum_insert_scale_factor");
        if (factor <= 0) {
            long rowsAllowed = (long) Math.floor(pagesPerPass * rowsPerPage);
            why.append(": the threshold alone exceeds a second's pass, so the threshold carries it");
            also.add(0, new Lever.Also("autovacuum_vacuum_insert_scale_factor", "0"));
            return Lever.setting("autovacuum_vacuum_insert_threshold", Long.toString(Math.max(1, rowsAllowed)),
                    why.toString(), also);
        }
        String value = Levers.twoDigitsDown(factor);
        if (now.isPresent()) {
            double passPages = (threshold + now.getAsDouble() * rows) / rowsPerPage;
            why.append("; at autovacuum_vacuum_insert_scale_factor ").append(ctx.setting(
                    "autovacuum_vacuum_insert_scale_factor").orElseThrow()).append(" a pass dirties (")
                    .append(num(threshold, 0)).append(" + ").append(ctx.setting(
                    "autovacuum_vacuum_insert_scale_factor").orElseThrow()).append(" x ").append(num(rows, 0))
                    .append(") / ").append(num(rowsPerPage, 2)).append(" = ").append(num(passPages, 0))
                    .append(" pages");
            double dirtied = pass.metrics().getOrDefault("buffer_dirtied", 0.0);
            if (factor >= now.getAsDouble()) {
                why.append(", within the device's second; this pass dirtied ").append(num(dirtied, 0))
                        .append(" of the table's ").append(num(pages, 0)).append(" pages: the table had not been "
                        + "vacuumed since it was loaded");
                return Lever.action("VACUUM (FREEZE) " + table + " once after loading it, before the measured "
                        + "repeats", null, why.toString());
            }
        } else {
            why.append("; autovacuum_vacuum_insert_scale_factor not in the environment");
        }
        return Lever.setting("autovacuum_vacuum_insert_scale_factor", value, why.toString(), also);
    }

    /** The cost limit (and delay, when it was 0) that holds a pass's writes to half of the device's throughput. */
    private static List<Lever.Also> costLimits(LeverContext ctx, double deviceBytesPerSec, double walPerPage,
                                               StringBuilder why) {
        List<Lever.Also> also = new ArrayList<>();
        OptionalDouble delay = ctx.settingSeconds("autovacuum_vacuum_cost_delay");
        if (delay.isEmpty()) {
            why.append("; autovacuum_vacuum_cost_delay not in the environment: no cost limit computed");
            return also;
        }
        double delaySec = delay.getAsDouble() > 0 ? delay.getAsDouble() : 0.002;
        double pagesPerSec = deviceBytesPerSec / 2 / walPerPage;
        long limit = Math.max(1, Math.min(10_000, (long) Math.floor(pagesPerSec * COST_PAGE_DIRTY * delaySec)));
        why.append("; cost limit holding the pass to half the device: ").append(num(pagesPerSec, 0))
                .append(" pages/s x vacuum_cost_page_dirty ").append(COST_PAGE_DIRTY).append(" (the default) x ")
                .append(num(delaySec * 1000, 0)).append(" ms delay = ").append(limit);
        if (delay.getAsDouble() <= 0) {
            why.append(" (autovacuum_vacuum_cost_delay was ").append(ctx.setting("autovacuum_vacuum_cost_delay")
                    .orElseThrow()).append(": unthrottled; 2ms with it)");
            also.add(new Lever.Also("autovacuum_vacuum_cost_delay", "2ms"));
        }
        also.add(new Lever.Also("autovacuum_vacuum_cost_limit", Long.toString(limit)));
        return also;
    }

    private static double fpi(PgLogEvent p) {
        return p.metrics().getOrDefault("wal_fpi", 0.0);
    }
}
