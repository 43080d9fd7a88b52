package io.rigscope.analyzer.attribution;

import io.rigscope.analyzer.decision.Evidence;
import io.rigscope.analyzer.scene.EpisodeScene;
import io.rigscope.analyzer.telemetry.TelemetryIndex.TelemetryStream;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.PgLogEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * The vacuums seen around an episode: autovacuum completions in the Postgres log whose run
 * {@code [ts - elapsed_s, ts]} overlaps the episode (within the log's tolerance) and that wrote a burst of WAL
 * (at least {@code attribution_vacuum_wal_mb} or 1,000 full-page images: a 10-ms vacuum of a few pages is not a
 * storm), and vacuum progress rows of the DB sampler around it (a vacuum still running, WAL not yet known) of a
 * table large enough to write such a burst ({@link #STORM_PAGES} heap pages). Shared by the vacuum rule (its defining evidence) and the WAL pool rule (its
 * control).
 */
final class Vacuums {

    final List<Evidence> evidence = new ArrayList<>();
    final boolean logCovered;
    final boolean samplerCovered;
    double fpi;
    double walBytes;
    /** A logged completion with a burst, or a progress row beside a sampler interval with a burst. */
    boolean walBurst;

    Vacuums(EpisodeScene scene) {
        logCovered = scene.covered(TelemetryStream.PGLOG);
        samplerCovered = scene.covered(TelemetryStream.DB);
        int tol = scene.telemetry().toleranceSec(TelemetryStream.PGLOG);
        long from = (scene.startSec() - tol) * 1_000_000L;
        long to = (scene.endSec() + tol) * 1_000_000L;
        for (PgLogEvent e : scene.around(TelemetryStream.PGLOG, PgLogEvent.class)) {
            if (e.kind() != PgLogEvent.Kind.AUTOVACUUM) {
                continue;
            }
            double elapsed = e.metrics().getOrDefault("elapsed_s", 0.0);
            long startUs = e.ts() - Math.round(elapsed * 1_000_000L);
            double f = e.metrics().getOrDefault("wal_fpi", 0.0);
            double b = e.metrics().getOrDefault("wal_bytes", 0.0);
            boolean burst = b >= scene.settings().vacuumWalBytes() || f >= 1_000;
            if (startUs <= to && e.ts() >= from && burst) {
                walBurst = true;
                fpi += f;
                walBytes += b;
                evidence.add(Evidence.measured("rig.pglog", e.ts(), "wal_fpi", f, "pages", "autovacuum of "
                        + e.table() + " over " + elapsed + " s ending at its log line: " + (long) f
                        + " full-page images, " + Math.round(b / 1_048_576.0) + " MB of WAL ("
                        + scene.within(TelemetryStream.PGLOG) + ")"));
            }
        }
        DbSample burst = null;
        DbSample firstProgress = null;
        DbSample lastProgress = null;
        for (DbSample d : scene.around(TelemetryStream.DB, DbSample.class)) {
            if (d.wal() != null && d.wal().fpi() > 0 && (burst == null || d.wal().fpi() > burst.wal().fpi())) {
                burst = d;
            }
            if (stormSized(d) != null) {
                firstProgress = firstProgress == null ? d : firstProgress;
                lastProgress = d;
            }
        }
        if (lastProgress != null) {
            DbSample.VacuumProgress a = stormSized(firstProgress);
            DbSample.VacuumProgress v = stormSized(lastProgress);
            evidence.add(Evidence.measured("rig.db", lastProgress.ts(), "vacuum_heap_blks_scanned",
                    v.heapBlksScanned(), "blocks", "vacuum of " + v.table() + " running (pid " + v.pid() + ", phase '"
                            + v.phase() + "'): heap blocks scanned " + a.heapBlksScanned() + " -> "
                            + v.heapBlksScanned() + " of " + v.heapBlksTotal() + " around the episode, "
                            + scene.within(TelemetryStream.DB)));
        }
        if (burst != null && !evidence.isEmpty()) {
            walBurst |= lastProgress != null && (burst.wal().fpi() >= 1_000
                    || burst.wal().bytes() >= scene.settings().vacuumWalBytes());
            fpi = Math.max(fpi, burst.wal().fpi());
            evidence.add(Evidence.measured("rig.db", burst.ts(), "wal_fpi", burst.wal().fpi(), "pages",
                    burst.wal().fpi() + " full-page images and " + Math.round(burst.wal().bytes() / 1_048_576.0)
                            + " MB of WAL in one sampler interval (" + burst.intervalMs() + " ms), "
                            + scene.within(TelemetryStream.DB)));
        }
    }

    /**
     * The largest vacuum of a sample's progress rows that can write a burst at all: its table has at least
     * {@value #STORM_PAGES} heap pages (a vacuum writes at most one full-page image per page it touches in a
     * checkpoint cycle); null when none. A vacuum of a 612-page table (5 MB) is not a storm, whatever else writes
     * WAL beside it (the rds calibration's wal-pool case: a side session's 60 MB/s of WAL and a small autovacuum).
     */
    private static DbSample.VacuumProgress stormSized(DbSample d) {
        DbSample.VacuumProgress best = null;
        for (DbSample.VacuumProgress v : d.vacuums()) {
            if (v.heapBlksTotal() >= STORM_PAGES && (best == null || v.heapBlksTotal() > best.heapBlksTotal())) {
                best = v;
            }
        }
        return best;
    }

    /** The fewest heap pages a vacuum's table has for its progress row to count: the 1,000 full-page images. */
    static final int STORM_PAGES = 1_000;

    /** True when a vacuum was seen around the episode. */
    boolean seen() {
        return !evidence.isEmpty();
    }

    /**
     * True when the vacuum seen wrote a burst of WAL over the episode: a logged completion (always a burst, see the
     * class comment), or a progress row with a sampler interval of at least 1,000 full-page images or
     * {@code attribution_vacuum_wal_mb} of WAL beside it.
     */
    boolean walBurst() {
        return walBurst;
    }

    /** True when neither the log nor the sampler covered the episode: a vacuum could not have been seen. */
    boolean blind() {
        return !logCovered && !samplerCovered;
    }
}
