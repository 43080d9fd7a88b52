package io.rigscope.analyzer.attribution;

import static io.rigscope.analyzer.scene.EpisodeScene.LeverContext.num;

import io.rigscope.analyzer.decision.Episode;
import io.rigscope.analyzer.decision.Lever;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.scene.EpisodeScene.LeverContext;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.OsMetrics;
import io.rigscope.model.wire.PgLogEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * {@code vacuum_storm}: a pass of autovacuum on an insert-only table dirties the pages inserted since the last one; for
 * each it writes about one full-page image to WAL and, through its ring buffer, the page itself. From the pass's log
 * line (rig.pglog, the completion over the episode) and the device (rig.os):
 * <pre>
 *   b   = the pass's WAL bytes / its full-page images                     (WAL a page)
 *   w   = avg_write_mb_per_sec x 2^20 x elapsed_s / pages_scanned          (the page writes a page; 8,192 unlogged)
 *   k   = (buffer_hits x 1 + buffer_misses x 2 + buffer_dirtied x 20) / pages_scanned  (the pass's cost a page at
 *         Postgres 15's vacuum_cost_page_hit/_miss/_dirty; 22 when the counts are not logged)
 *   r   = the table's rows / its pages                                     (tuples_remain / pages_remain)
 *   D   = the median of the busiest device's write bytes/s in the rig.os records stamped while the pass ran inside
 *         the episode (else within the stream's tolerance of the episode)
 *   C   = the committers' writes: the median of the busiest device's write bytes/s in the rig.os records of the 10 s
 *         before the pass started (0 when none was recorded, and the why says so)
 *   s   = (D x 1 s / (b + w) x r - autovacuum_vacuum_insert_threshold) / rows, rounded down to 2 significant digits:
 *         the scale factor whose pass the device writes in one second
 *   P   = (D - C) / 2 / (b + w) pages a second: the pass may take half of what the committers leave of the device
 *   L   = P x k x autovacuum_vacuum_cost_delay (2 ms when it was 0): autovacuum_vacuum_cost_limit
 * </pre>
 * When the pass wrote more than twice the pages the scale factor in force makes a pass (a table's first pass after
 * a load: every page, whatever the factor), or s is not below the factor in force, no scale factor makes this pass
 * smaller: the lever is the cost limit L (with the delay, and s for the passes after it). Otherwise it is s, with the
 * cost limit beside it.
 *
 * <p>Then the write-back: the pass writes its pages through its ring buffer into the kernel's page cache, and the
 * kernel writes them back in one burst (when they are old enough, or when a checkpoint fsyncs the table). When the
 * largest {@code memory.writeback} of the rig.os records while the pass ran or over the episode (each within the
 * stream's tolerance), {@code W}, holds the device
 * {@code W / D >= 1} s, the commits froze behind that burst (one backend in {@code IO:WALSync}, the rest on
 * {@code LWLock:WALWrite}): the lever is {@code backend_flush_after} = {@code D x 10 ms} in whole 8-kB pages, at
 * most 2MB (a backend, the autovacuum worker among them, then asks the kernel to write its pages every so many, so
 * no backlog builds), and the pass's lever with its {@code also} goes to {@code also}. Not when
 * {@code backend_flush_after} was already set above 0.
 */
final class VacuumStormLever implements LeverRule {

    /** Postgres 15's default {@code vacuum_cost_page_dirty}. */
    private static final int COST_PAGE_DIRTY = 20;
    /** Postgres 15's default {@code vacuum_cost_page_miss}. */
    private static final int COST_PAGE_MISS = 2;
    /** Postgres 15's default {@code vacuum_cost_page_hit}. */
    private static final int COST_PAGE_HIT = 1;
    /** A write-back that holds the device this long is a burst the commits wait behind. */
    private static final double BURST_SEC = 1.0;
    /** What a commit's WAL flush may wait behind a backend's flushed writes: the device's writes in 10 ms. */
    private static final double FLUSH_WAIT_SEC = 0.010;
    /** {@code backend_flush_after}'s maximum, 2MB, in 8-kB pages. */
    private static final long MAX_FLUSH_PAGES = 256;

    @Override
    public Lever lever(Episode e, EpisodeScene scene, LeverContext ctx) {
        Sized sized = sized(scene, ctx);
        return sized.lever().computed() ? writeBack(sized, scene, ctx) : sized.lever();
    }

    /** The pass's lever (the scale factor, the threshold or the cost limit) and the device rate it was sized on. */
    private record Sized(Lever lever, double deviceBytesPerSec, long passStartSec, long passEndSec) {
        Sized(Lever notMeasured) {
            this(notMeasured, Double.NaN, 0, 0);
        }
    }

    /**
     * When the page cache's write-back while the pass ran or over the episode held the device for at least
     * {@link #BURST_SEC} s, the
     * frozen commits waited behind that burst, not behind the pass's rate: the lever is {@code backend_flush_after},
     * what the device writes in {@link #FLUSH_WAIT_SEC} s (whole 8-kB pages, at most 2MB), and the pass's own lever
     * with its {@code also} go to {@code also}. Otherwise the pass's lever, with the burst's size in its why.
     */
    private static Lever writeBack(Sized sized, EpisodeScene scene, LeverContext ctx) {
        Lever pass = sized.lever();
        double device = sized.deviceBytesPerSec();
        long writebackKb = 0;
        long dirtyKb = 0;
        int records = 0;
        // the pass's write-back, whichever of its episodes this is: the records while it ran and over the episode
        int tol = scene.telemetry().toleranceSec(TelemetryStream.OS);
        long fromSec = Math.min(sized.passStartSec(), scene.startSec()) - tol;
        long toSec = Math.max(sized.passEndSec(), scene.endSec()) + tol;
        for (OsMetrics os : scene.telemetry().records(TelemetryStream.OS, fromSec, toSec, OsMetrics.class)) {
            if (os.memory() == null) {
                continue;
            }
            records++;
            writebackKb = Math.max(writebackKb, os.memory().writeback());
            dirtyKb = Math.max(dirtyKb, os.memory().dirty());
        }
        if (records == 0) {
            return Lever.setting(pass.setting(), pass.value(), pass.why() + "; the page cache's write-back was not "
                    + "measured (no rig.os memory while the pass ran or over the episode)", pass.also());
        }
        double writebackBytes = writebackKb * 1024.0;
        double holdSec = writebackBytes / device;
        StringBuilder why = new StringBuilder(pass.why());
        why.append("; rig.os: up to ").append(num(writebackBytes / 1_048_576.0, 0)).append(" MB of the page cache "
                        + "under write-back and up to ").append(num(dirtyKb / 1024.0, 0)).append(" MB dirty in ")
                .append(records).append(" record(s) while the pass ran or over the episode, within ")
                .append(tol).append(" s: ")
                .append(num(writebackBytes / 1_048_576.0, 0)).append(" MB / ").append(num(device / 1_048_576.0, 1))
                .append(" MB/s = ").append(num(holdSec, 1)).append(" s of the device");
        if (holdSec < BURST_SEC) {
            return Lever.setting(pass.setting(), pass.value(), why.append(", under ").append(num(BURST_SEC, 0))
                    .append(" s: no write-back burst to remove").toString(), pass.also());
        }
        OptionalLong flushNow = ctx.settingBytes("backend_flush_after");
        if (flushNow.isPresent() && flushNow.getAsLong() > 0) {
            return Lever.setting(pass.setting(), pass.value(), why.append("; backend_flush_after is ")
                    .append(ctx.setting("backend_flush_after").orElseThrow()).append(" already: the burst is not a "
                            + "backend's writes left in the page cache").toString(), pass.also());
        }
        long pages = Math.max(1, Math.min(MAX_FLUSH_PAGES, (long) Math.floor(device * FLUSH_WAIT_SEC / 8192)));
        String value = (pages * 8) + "kB";
        why.append(" in which a commit's WAL flush waits behind the write-back: the pass writes its pages into the "
                        + "page cache (its ring buffer), and the kernel writes them back in one burst, when they are "
                        + "old enough (vm.dirty_expire_centisecs) or when a checkpoint fsyncs the table; ")
                .append(flushNow.isPresent() ? "backend_flush_after " + ctx.setting("backend_flush_after")
                        .orElseThrow() : "backend_flush_after not in the environment (Postgres's default on Linux "
                        + "is 0)")
                .append(": the pass never asks the kernel to write them; with backend_flush_after it asks after "
                        + "every so many, so no backlog builds: what the device writes in ")
                .append(num(FLUSH_WAIT_SEC * 1000, 0)).append(" ms, ").append(num(device / 1_048_576.0, 1))
                .append(" MB/s x ").append(num(FLUSH_WAIT_SEC, 2)).append(" s = ")
                .append(num(device * FLUSH_WAIT_SEC, 0)).append(" B, whole 8-kB pages (at most ")
                .append(MAX_FLUSH_PAGES).append(", its maximum 2MB): ").append(pages).append(" = backend_flush_after ")
                .append(value).append("; the pass's own lever ").append(pass.headline()).append(" beside it");
        List<Lever.Also> also = new ArrayList<>();
        also.add(new Lever.Also(pass.setting(), pass.value()));
        also.addAll(pass.also());
        return Lever.setting("backend_flush_after", value, why.toString(), also);
    }

    private static Sized sized(EpisodeScene scene, LeverContext ctx) {
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
            return new Sized(Lever.notMeasured("no autovacuum completion with full-page images in rig.pglog "
                    + "overlaps the episode: the WAL a pass writes per page and the table's size were not measured"));
        }
        double walBytes = pass.metrics().getOrDefault("wal_bytes", 0.0);
        double pages = pass.metrics().getOrDefault("pages_remain", pass.metrics().getOrDefault("pages_scanned", 0.0));
        double rows = pass.metrics().getOrDefault("tuples_remain", 0.0);
        if (walBytes <= 0 || pages <= 0 || rows <= 0) {
            return new Sized(Lever.notMeasured("the autovacuum of " + pass.table() + " logged no WAL bytes, "
                    + "pages or rows remaining: the pages a pass dirties cannot be sized"));
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
            return new Sized(Lever.notMeasured("the device's write throughput was not measured: no rig.os "
                    + "record over the episode, so the WAL a pass may write in a second is unknown"));
        }
        double deviceBytesPerSec = Levers.median(writeKbPerSec.stream().mapToDouble(Double::doubleValue).toArray())
                * 1024;
        double walPerPage = walBytes / fpi(pass);
        double rowsPerPage = rows / pages;
        double scanned = pass.metrics().getOrDefault("pages_scanned", pages);
        double elapsed = pass.metrics().getOrDefault("elapsed_s", 0.0);
        double writeMbPerSec = pass.metrics().getOrDefault("avg_write_mb_per_sec", -1.0);
        boolean writesLogged = writeMbPerSec >= 0 && elapsed > 0 && scanned > 0;
        double writePerPage = writesLogged ? writeMbPerSec * 1_048_576 * elapsed / scanned : 8192;
        double devicePerPage = walPerPage + writePerPage;
        // the committers' own writes: the device in the 10 s before the pass began
        List<Double> beforeKb = new ArrayList<>();
        for (OsMetrics os : scene.telemetry().records(TelemetryStream.OS, passStartSec - 10, passStartSec,
                OsMetrics.class)) {
            os.diskIO().stream().mapToDouble(OsMetrics.DiskIO::writeKbPS).max().ifPresent(beforeKb::add);
        }
        double committersBytesPerSec = beforeKb.isEmpty() ? 0
                : Levers.median(beforeKb.stream().mapToDouble(Double::doubleValue).toArray()) * 1024;
        OptionalDouble thresholdSet = ctx.settingNumber("autovacuum_vacuum_insert_threshold");
        double threshold = thresholdSet.orElse(1000);
        String thresholdWhy = thresholdSet.isPresent() ? "autovacuum_vacuum_insert_threshold " + num(threshold, 0)
                : "autovacuum_vacuum_insert_threshold 1,000 (Postgres's default; not in the environment)";
        double pagesPerPass = deviceBytesPerSec / devicePerPage;
        double factor = (pagesPerPass * rowsPerPage - threshold) / rows;
        String table = pass.table() == null ? "the table" : pass.table();
        StringBuilder why = new StringBuilder();
        why.append("the autovacuum of ").append(table).append(" (rig.pglog, ").append(num(elapsed, 2))
                .append(" s): ").append(num(walBytes / 1_048_576.0, 0)).append(" MB of WAL for ")
                .append(num(fpi(pass), 0)).append(" full-page images = ").append(num(walPerPage, 0))
                .append(" B a page, and ").append(writesLogged ? "its own writes " + num(writeMbPerSec, 1)
                        + " MB/s x " + num(elapsed, 2) + " s / " + num(scanned, 0) + " pages scanned = "
                        + num(writePerPage, 0) + " B a page" : "8,192 B a page written back (its writes not logged)")
                .append(": ").append(num(devicePerPage, 0)).append(" B of device writes a page; table ")
                .append(num(rows, 0)).append(" rows in ").append(num(pages, 0)).append(" pages = ")
                .append(num(rowsPerPage, 2)).append(" rows a page; device ")
                .append(num(deviceBytesPerSec / 1_048_576.0, 1)).append(" MB/s written (rig.os, busiest device, "
                        + "median of ").append(writeKbPerSec.size()).append(" record(s) ").append(window)
                .append("); a pass may write what the device writes in 1 s: ")
                .append(num(deviceBytesPerSec / 1_048_576.0, 1)).append(" MB / ").append(num(devicePerPage, 0))
                .append(" B = ").append(num(pagesPerPass, 0)).append(" pages = ")
                .append(num(pagesPerPass * rowsPerPage, 0)).append(" rows; (").append(num(pagesPerPass * rowsPerPage, 0))
                .append(" - ").append(thresholdWhy).append(") / ").append(num(rows, 0)).append(" rows = ")
                .append(String.format(java.util.Locale.ROOT, "%.4f", factor));
        List<Lever.Also> also = new ArrayList<>();
        Lever.Also limit = costLimit(ctx, pass, deviceBytesPerSec, committersBytesPerSec, beforeKb.size(),
                devicePerPage, scanned, also, why);
        OptionalDouble now = ctx.settingNumber("autovacuum_vacuum_insert_scale_factor");
        if (factor <= 0) {
            long rowsAllowed = (long) Math.floor(pagesPerPass * rowsPerPage);
            why.append("; the threshold alone exceeds a second's pass, so the threshold carries it");
            also.add(0, new Lever.Also("autovacuum_vacuum_insert_scale_factor", "0"));
            if (limit != null) {
                also.add(limit);
            }
            return new Sized(Lever.setting("autovacuum_vacuum_insert_threshold",
                    Long.toString(Math.max(1, rowsAllowed)), why.toString(), also), deviceBytesPerSec, passStartSec,
                    passEndSec);
        }
        String value = Levers.twoDigitsDown(factor);
        boolean sizeCannotHelp = false;
        if (now.isPresent()) {
            String nowText = ctx.setting("autovacuum_vacuum_insert_scale_factor").orElseThrow();
            double passPages = (threshold + now.getAsDouble() * rows) / rowsPerPage;
            why.append("; at autovacuum_vacuum_insert_scale_factor ").append(nowText).append(" a pass dirties (")
                    .append(num(threshold, 0)).append(" + ").append(nowText).append(" x ").append(num(rows, 0))
                    .append(") / ").append(num(rowsPerPage, 2)).append(" = ").append(num(passPages, 0))
                    .append(" pages");
            if (fpi(pass) > 2 * passPages) {
                sizeCannotHelp = true;
                why.append(", and this pass wrote ").append(num(fpi(pass), 0)).append(" full-page images of the "
                        + "table's ").append(num(pages, 0)).append(" pages, ").append(num(fpi(pass) / passPages, 1))
                        .append(" times that: the table's first pass since its pages were loaded (a bulk load, or "
                        + "autovacuum off), every page whatever the factor; no scale factor makes it smaller, the "
                        + "throttle is the lever (or VACUUM (FREEZE) it once after a load, at a quiet time), "
                        + "and the factor ").append(value).append(" keeps the passes after it within a device second");
            } else if (factor >= now.getAsDouble()) {
                sizeCannotHelp = true;
                why.append(", within the device's second already: the throttle is the lever");
            }
        } else {
            why.append("; autovacuum_vacuum_insert_scale_factor not in the environment");
        }
        if (sizeCannotHelp && limit != null) {
            List<Lever.Also> rest = new ArrayList<>(also);
            if (factor < now.getAsDouble()) {
                rest.add(new Lever.Also("autovacuum_vacuum_insert_scale_factor", value));
            }
            return new Sized(Lever.setting(limit.setting(), limit.value(), why.toString(), rest),
                    deviceBytesPerSec, passStartSec, passEndSec);
        }
        if (limit != null) {
            also.add(limit);
        }
        return new Sized(Lever.setting("autovacuum_vacuum_insert_scale_factor", value, why.toString(), also),
                deviceBytesPerSec, passStartSec, passEndSec);
    }

    /**
     * The cost limit that holds a pass's device writes to half of what the committers leave of the device, or null
     * when the delay is not in the environment; the delay (2ms when it was 0) is added to {@code also}.
     */
    private static Lever.Also costLimit(LeverContext ctx, PgLogEvent pass, double deviceBytesPerSec,
                                        double committersBytesPerSec, int committersRecords, double devicePerPage,
                                        double scanned, List<Lever.Also> also, StringBuilder why) {
        OptionalDouble delay = ctx.settingSeconds("autovacuum_vacuum_cost_delay");
        if (delay.isEmpty()) {
            why.append("; autovacuum_vacuum_cost_delay not in the environment: no cost limit computed");
            return null;
        }
        double delaySec = delay.getAsDouble() > 0 ? delay.getAsDouble() : 0.002;
        double hits = pass.metrics().getOrDefault("buffer_hits", -1.0);
        double misses = pass.metrics().getOrDefault("buffer_misses", -1.0);
        double dirtied = pass.metrics().getOrDefault("buffer_dirtied", -1.0);
        boolean costLogged = hits >= 0 && misses >= 0 && dirtied >= 0 && scanned > 0;
        double costPerPage = costLogged ? (hits * COST_PAGE_HIT + misses * COST_PAGE_MISS + dirtied * COST_PAGE_DIRTY)
                / scanned : COST_PAGE_MISS + COST_PAGE_DIRTY;
        double leftBytes = Math.max(0, deviceBytesPerSec - committersBytesPerSec);
        double pagesPerSec = leftBytes / 2 / devicePerPage;
        long limit = Math.max(1, Math.min(10_000, (long) Math.floor(pagesPerSec * costPerPage * delaySec)));
        why.append("; committers' writes before the pass ").append(committersRecords == 0
                        ? "not measured (no rig.os record in the 10 s before it), taken as 0"
                        : num(committersBytesPerSec / 1_048_576.0, 1) + " MB/s (median of " + committersRecords
                        + " rig.os record(s) in the 10 s before it)")
                .append("; the pass may take half of what they leave: (").append(num(deviceBytesPerSec / 1_048_576.0,
                        1)).append(" - ").append(num(committersBytesPerSec / 1_048_576.0, 1)).append(") / 2 MB/s / ")
                .append(num(devicePerPage, 0)).append(" B = ").append(num(pagesPerSec, 0)).append(" pages/s x ")
                .append(costLogged ? "its cost " + num(costPerPage, 2) + " a page ((" + num(hits, 0) + " hits x "
                        + COST_PAGE_HIT + " + " + num(misses, 0) + " misses x " + COST_PAGE_MISS + " + "
                        + num(dirtied, 0) + " dirtied x " + COST_PAGE_DIRTY + ") / " + num(scanned, 0) + ")"
                        : "a cost of " + (COST_PAGE_MISS + COST_PAGE_DIRTY) + " a page (miss + dirty, the counts "
                        + "not logged)")
                .append(" x ").append(num(delaySec * 1000, 0)).append(" ms delay = autovacuum_vacuum_cost_limit ")
                .append(limit);
        if (delay.getAsDouble() <= 0) {
            why.append(" (autovacuum_vacuum_cost_delay was ").append(ctx.setting("autovacuum_vacuum_cost_delay")
                    .orElseThrow()).append(": unthrottled; 2ms with it)");
            also.add(new Lever.Also("autovacuum_vacuum_cost_delay", "2ms"));
        }
        return new Lever.Also("autovacuum_vacuum_cost_limit", Long.toString(limit));
    }

    private static double fpi(PgLogEvent p) {
        return p.metrics().getOrDefault("wal_fpi", 0.0);
    }
}
