package io.rigscope.rig.calibrate;

import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.rig.series.SeriesPlan;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code wal-pool}: WAL segment creation in the commit path. The cluster is made with 1 GB segments
 * ({@code initdb --wal-segsize=1024}: 256 MB stalls were too short to freeze a second on a quiet host),
 * {@code wal_recycle=off} and {@code wal_init_zero=on} (every new segment is
 * written full of zeros and fsynced by the backend that needs it), a large {@code max_wal_size} (no checkpoint
 * preallocates or removes segments during the run) and {@code synchronous_commit=on}. A side session writes steady
 * WAL with transactional 1 MB {@code pg_logical_emit_message} calls at {@link #WAL_MB_PER_SEC} MB/s, so a new
 * segment is due every few seconds; whichever backend crosses into it stalls on {@code IO:WALInitWrite} then
 * {@code IO:WALInitSync}, and every committer behind it on {@code LWLock:WALWrite}. Expected {@code wal_pool}.
 */
final class WalPoolCase implements CalibrationCase {

    static final Duration LOAD = Duration.ofSeconds(40);
    static final int SEGMENT_MB = 1024;
    static final int WAL_MB_PER_SEC = 60;
    private static final Pattern EMITTED = Pattern.compile("emitted (\\d+) messages in ([\\d.]+) s");

    @Override
    public String name() {
        return "wal-pool";
    }

    @Override
    public String expected() {
        return "wal_pool";
    }

    @Override
    public String recipe() {
        return "initdb --wal-segsize=" + SEGMENT_MB + ", wal_recycle=off, wal_init_zero=on, max_wal_size=32GB, "
                + "synchronous_commit=on; 100 req/s x 10 events for " + LOAD.toSeconds() + " s while a side session "
                + "emits " + WAL_MB_PER_SEC + " MB/s of WAL (1 MB pg_logical_emit_message, committed)";
    }

    @Override
    public PrivatePostgres.Options cluster(PrivatePostgres.Options base) {
        return base.withWalSegmentMb(SEGMENT_MB).with("wal_recycle", "off").with("wal_init_zero", "on")
                .with("max_wal_size", "'32GB'").with("min_wal_size", "'2GB'").with("synchronous_commit", "on");
    }

    @Override
    public SeriesPlan plan(String series, URI target, String apiKey) {
        return CasePlans.sustained(series, target, apiKey, 10, 100, LOAD, 64, 5);
    }

    @Override
    public Provocation provoke(CaseContext ctx, Duration repeat) {
        long emitSec = Math.max(1, repeat.toSeconds() - 4);
        double gapMs = 1000.0 / WAL_MB_PER_SEC;
        // Server-side loop: one 1 MB transactional message a gap, each committed (and so flushed), for emitSec.
        String sql = String.format(Locale.ROOT, """
                DO $$
                DECLARE
                  started timestamptz := clock_timestamp();
                  deadline timestamptz := clock_timestamp() + interval '%d s';
                  due timestamptz := clock_timestamp();
                  n int := 0;
                BEGIN
                  WHILE clock_timestamp() < deadline LOOP
                    PERFORM pg_logical_emit_message(true, 'rigscope-calibrate', repeat('x', 1000000));
                    COMMIT;
                    n := n + 1;
                    due := due + interval '%.3f ms';
                    PERFORM pg_sleep(greatest(0, extract(epoch from due - clock_timestamp())));
                  END LOOP;
                  RAISE NOTICE 'emitted %% messages in %% s', n,
                    round(extract(epoch from clock_timestamp() - started)::numeric, 1);
                END $$""", emitSec, gapMs);
        StringBuilder out = new StringBuilder();
        Background emitter = Background.start("wal-emitter", () -> {
            Thread.sleep(2000);
            ctx.console().printf("provoke: emitting %d MB/s of WAL for %d s (segments of %d MB)%n", WAL_MB_PER_SEC,
                    emitSec, SEGMENT_MB);
            String text = ctx.sql(sql);
            synchronized (out) {
                out.append(text);
            }
        });
        return new OnBackground(emitter, Duration.ofSeconds(60)) {
            @Override
            public String note() {
                String text;
                synchronized (out) {
                    text = out.toString();
                }
                Matcher m = EMITTED.matcher(text);
                return m.find() ? String.format(Locale.ROOT, "side session emitted %s MB of WAL in %s s",
                        m.group(1), m.group(2)) : "emitter said: " + text.strip();
            }
        };
    }

    @Override
    public String telemetry(WireTelemetry t) {
        int[] files = t.walFiles();
        return String.format(Locale.ROOT, "rig.waits IO:WALInitWrite in %d of %d samples (max %.0f), "
                        + "IO:WALInitSync in %d, LWLock:WALWrite in %d (max %.0f sessions); rig.db walDir.files %s "
                        + "(%d rises), WAL %.0f MB; %s",
                t.samplesWith("IO:WALInitWrite"), t.waitSamples(), t.maxSessions("IO:WALInitWrite"),
                t.samplesWith("IO:WALInitSync"), t.samplesWith("LWLock:WALWrite"), t.maxSessions("LWLock:WALWrite"),
                files.length == 0 ? "no record" : files[0] + " -> " + files[1] + " (max " + files[2] + ")",
                t.walFileRises(), t.walBytes() / 1e6, t.platform());
    }
}
