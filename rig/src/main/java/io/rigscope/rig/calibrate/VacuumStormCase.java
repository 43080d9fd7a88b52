package io.rigscope.rig.calibrate;

import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.localenv.postgres.LoopVolume;
import io.rigscope.model.wire.PgLogEvent;
import io.rigscope.rig.series.SeriesPlan;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code vacuum-storm}: an autovacuum's burst of full-page images. The cluster has data checksums (so the first
 * hint-bit or visibility change to a page after a checkpoint writes the whole page to WAL),
 * {@code synchronous_commit=on}, {@code autovacuum_vacuum_cost_delay=0} and a 1 s naptime. Before the series,
 * {@link #ROWS} rows are loaded into {@code usage_events} with its autovacuum off, then a CHECKPOINT. {@link #AFTER}
 * into the repeat, autovacuum is switched back on for the table: a worker vacuums it within a second or two,
 * touching every page once, and the SUT's committers wait behind that WAL ({@code LWLock:WALWrite},
 * {@code IO:WALWrite}/{@code IO:WALSync}). Expected {@code vacuum_storm}.
 *
 * <p>The cluster lives on a {@link LoopVolume} of its own, capped like EBS gp3's baseline from the load's start
 * (the seeding runs uncapped). On this machine's own disk (1.5 GB/s with {@code O_DSYNC}) the same autovacuum
 * froze no second on a quiet host, three tries out of three (docs/calibrate.md); on the capped volume the
 * vacuum's dirty pages and the checkpoints its WAL triggers ({@code max_wal_size} at its default) fill the
 * volume's queue and the committers' WAL flushes wait behind them, which is what the fingerprint was measured
 * on. Measured here (docs/attribution.md, the {@code vacuum_storm} lever): the commits freeze while the kernel
 * writes back the pass's dirty pages in one burst (a checkpoint's fsync, or the pages' age), seconds of the capped
 * volume with one backend in {@code IO:WALSync} and the rest on {@code LWLock:WALWrite}. The disk canary writes on the host's disk beside the volume's image, so a stall of the host still shows
 * as the canary's and the volume's cap does not.
 */
final class VacuumStormCase implements CalibrationCase {

    static final Duration LOAD = Duration.ofSeconds(60);
    static final Duration AFTER = Duration.ofSeconds(8);
    static final long ROWS = 4_000_000;
    static final long ROWS_PER_CHUNK = 200_000;
    /**
     * Characters of padding in each loaded row's {@code properties}: ~13 rows a page instead of ~70, so the table
     * has ~300k pages (one full-page image each) for 4M rows (2M rows made a 1.8-s vacuum that froze nothing on a
     * quiet host). Measured: 3M unpadded rows made 43k pages and an
     * autovacuum of 2.35 s writing 42,875 FPIs, 354 MB, which froze no second here.
     */
    static final int PAD_CHARS = 500;
    /** The cluster's volume during the repeat: EBS gp3's baseline, the kind of volume the fingerprint was measured on. */
    static final LoopVolume.Spec VOLUME = LoopVolume.Spec.gp3Baseline();
    /** The volume's size (sparse): the padded table (~2.5 GB), its WAL up to max_wal_size 8 GB, and room. */
    static final long VOLUME_BYTES = 24L << 30;

    @Override
    public String name() {
        return "vacuum-storm";
    }

    @Override
    public String expected() {
        return "vacuum_storm";
    }

    @Override
    public String recipe() {
        return String.format(Locale.ROOT, "initdb --data-checksums on a volume of its own, synchronous_commit=on, "
                + "autovacuum cost_delay 0, naptime 1s; %,d rows (%d-char properties) loaded into usage_events with "
                + "its autovacuum off, CHECKPOINT; the volume capped at %s, 200 req/s x 10 events for %d s, "
                + "autovacuum on for the table %d s in", ROWS, PAD_CHARS, VOLUME, LOAD.toSeconds(), AFTER.toSeconds());
    }

    @Override
    public PrivatePostgres.Options cluster(PrivatePostgres.Options base) {
        PrivatePostgres.Options options = base.withDataChecksums().with("synchronous_commit", "on")
                .with("autovacuum_vacuum_cost_delay", "0").with("autovacuum_naptime", "'1s'");
        return LoopVolume.unavailable().isPresent() ? options : options.withOwnVolume(VOLUME_BYTES);
    }

    @Override
    public SeriesPlan plan(String series, URI target, String apiKey) {
        // No read probe: its index scans would set hint bits on the loaded pages before the vacuum does.
        // Reconciled through the idempotency-key index: a scan by received_at would hint every loaded page first.
        return CasePlans.sustained(series, target, apiKey, 10, 200, LOAD, 128, 0,
                CasePlans.reconciliationByKey(series, io.rigscope.sut.schema.Provisioning.DEMO_TENANT));
    }

    @Override
    public void prepare(CaseContext ctx) {
        ctx.sql("ALTER TABLE usage_events SET (autovacuum_enabled = off)");
        long startNs = System.nanoTime();
        for (long from = 0; from < ROWS; from += ROWS_PER_CHUNK) {
            long to = Math.min(ROWS, from + ROWS_PER_CHUNK);
            ctx.sql(String.format(Locale.ROOT, """
                    SET synchronous_commit = off;
                    INSERT INTO usage_events (tenant_id, customer_id, meter, quantity, event_time, received_at,
                                              idempotency_key, properties)
                    SELECT t.id, 'cust-' || (1 + i %% 1000), 'api_calls', 1 + i %% 100,
                           now() - (i %% 2592000) * interval '1 s', now() - interval '1 day', 'cal-seed-' || i,
                           jsonb_build_object('pad', repeat('p', %d))
                    FROM generate_series(%d, %d) i, (SELECT id FROM tenants WHERE name = '%s') t""",
                    PAD_CHARS, from + 1, to, ctx.tenant().replace("'", "''")));
            double sec = (System.nanoTime() - startNs) / 1e9;
            ctx.console().printf(Locale.ROOT, "seed: %,d / %,d rows (%.0f %%)  %,.0f rows/s  %.0f s%n", to, ROWS,
                    100.0 * to / ROWS, to / sec, sec);
        }
        long ckptNs = System.nanoTime();
        ctx.sql("CHECKPOINT");
        ctx.console().printf(Locale.ROOT, "seed: CHECKPOINT in %.1f s; table %s%n", (System.nanoTime() - ckptNs) / 1e9,
                ctx.sql("SELECT pg_size_pretty(pg_table_size('usage_events'))"));
    }

    @Override
    public Provocation provoke(CaseContext ctx, Duration repeat) {
        // The cluster's volume as slow as a gp3 volume as created, from the load's start: uncapped, this machine's
        // disk writes a vacuum's gigabytes back before a commit notices (see LoopVolume and docs/calibrate.md).
        Optional<LoopVolume> volume = ctx.cluster().volume();
        volume.ifPresent(v -> v.cap(VOLUME));
        String cannot = LoopVolume.unavailable().orElse("the cluster has no volume of its own");
        ctx.console().println("provoke: " + volume.map(LoopVolume::describe)
                .orElse("cluster IO not capped: " + cannot));
        String[] at = {null};
        Background enable = Background.start("vacuum-on", () -> {
            Thread.sleep(AFTER.toMillis());
            ctx.sql("ALTER TABLE usage_events RESET (autovacuum_enabled)");
            at[0] = WireTelemetry.clock(java.time.Instant.now().toEpochMilli() * 1000);
            ctx.console().printf("provoke: autovacuum switched on for usage_events at %s UTC%n", at[0]);
        });
        return new OnBackground(enable, Duration.ofSeconds(30)) {
            @Override
            protected void ended() {
                volume.ifPresent(LoopVolume::uncap);
            }

            @Override
            public String note() {
                String capped = volume.isEmpty() ? "; cluster IO not capped (" + cannot + ")"
                        : "; the cluster's volume capped at " + VOLUME + " during the repeat";
                return (at[0] == null ? "autovacuum was never switched on" : "autovacuum switched on for "
                        + "usage_events at " + at[0] + " UTC (" + String.format(Locale.ROOT, "%,d", ROWS)
                        + " rows loaded before)") + capped;
            }
        };
    }

    @Override
    public String telemetry(WireTelemetry t) {
        List<PgLogEvent> done = t.autovacuums("usage_events");
        String log = done.isEmpty() ? "rig.pglog: no autovacuum of usage_events completed" : done.stream()
                .map(e -> "rig.pglog autovacuum of usage_events done at " + WireTelemetry.clock(e.ts()) + ": "
                        + metrics(e.metrics()))
                .collect(Collectors.joining("; "));
        return String.format(Locale.ROOT, "%s; rig.db vacuum in progress in %d samples, WAL %.0f MB with %,d FPIs "
                        + "during the load; rig.waits LWLock:WALWrite in %d of %d samples (max %.0f), IO:WALWrite %d, "
                        + "IO:WALSync %d, LWLock:WALInsert %d; %s",
                log, t.vacuumProgressSamples("usage_events"), t.walBytes() / 1e6, t.walFpi(),
                t.samplesWith("LWLock:WALWrite"), t.waitSamples(), t.maxSessions("LWLock:WALWrite"),
                t.samplesWith("IO:WALWrite"), t.samplesWith("IO:WALSync"), t.samplesWith("LWLock:WALInsert"),
                t.platform());
    }

    private static String metrics(Map<String, Double> m) {
        return String.format(Locale.ROOT, "elapsed %.2f s, %,.0f pages scanned, WAL %,.0f records, %,.0f FPIs, "
                        + "%.0f MB", m.getOrDefault("elapsed_s", -1.0), m.getOrDefault("pages_scanned", -1.0),
                m.getOrDefault("wal_records", -1.0), m.getOrDefault("wal_fpi", -1.0),
                m.getOrDefault("wal_bytes", 0.0) / 1e6);
    }
}
