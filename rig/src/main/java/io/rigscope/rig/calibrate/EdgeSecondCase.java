package io.rigscope.rig.calibrate;

import io.rigscope.analyzer.decision.RepeatSummary;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.rig.series.SeriesPlan;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code edge-second}: one server-side stall straddling a 10-s bucket edge. A side session takes
 * {@code LOCK TABLE usage_events IN ACCESS EXCLUSIVE MODE} from {@code :x9.8} to {@code :y0.2} of the wall clock
 * (the server itself waits for the moment, so psql's start-up does not move it): every insert in those 400 ms
 * waits and ends just after :y0.2. Seconds are cut by a request's end, so this is exactly one freeze-second
 * (:y0), and one hot 10-s bucket is not a window (it takes two). Expected: {@code 1 freeze-second, no window},
 * found per second; the cause is not what this case checks.
 */
final class EdgeSecondCase implements CalibrationCase {

    static final Duration LOAD = Duration.ofSeconds(25);
    static final Duration NOT_BEFORE = Duration.ofSeconds(8);
    static final Duration HOLD = Duration.ofMillis(400);
    static final String EXPECTED = "1 freeze-second, no window";
    /** Freeze-seconds this close to the edge are the provocation's. */
    static final long NEARBY_SEC = 3;
    private static final Pattern TIMES = Pattern.compile("locked (\\S+) released (\\S+)");

    @Override
    public String name() {
        return "edge-second";
    }

    @Override
    public String expected() {
        return EXPECTED;
    }

    @Override
    public String recipe() {
        return "100 req/s x 10 events for " + LOAD.toSeconds() + " s; LOCK TABLE usage_events IN ACCESS EXCLUSIVE "
                + "MODE held " + HOLD.toMillis() + " ms across the first 10-s edge at least " + NOT_BEFORE.toSeconds()
                + " s in (:x9.8-:y0.2)";
    }

    @Override
    public SeriesPlan plan(String series, URI target, String apiKey) {
        return CasePlans.sustained(series, target, apiKey, 10, 100, LOAD, 64, 5);
    }

    @Override
    public Provocation provoke(CaseContext ctx, Duration repeat) {
        long edgeMs = ((System.currentTimeMillis() + NOT_BEFORE.toMillis()) / 10_000 + 1) * 10_000;
        long lockMs = edgeMs - HOLD.toMillis() / 2;
        String sql = String.format(Locale.ROOT, """
                DO $$
                DECLARE
                  lock_at timestamptz := to_timestamp(%d / 1000.0);
                  locked text;
                BEGIN
                  PERFORM pg_sleep(greatest(0, extract(epoch from lock_at - clock_timestamp())));
                  LOCK TABLE usage_events IN ACCESS EXCLUSIVE MODE;
                  locked := to_char(clock_timestamp() AT TIME ZONE 'UTC', 'HH24:MI:SS.MS');
                  PERFORM pg_sleep(greatest(0, extract(epoch from lock_at + interval '%d ms' - clock_timestamp())));
                  RAISE NOTICE 'locked %% released %%', locked,
                    to_char(clock_timestamp() AT TIME ZONE 'UTC', 'HH24:MI:SS.MS');
                END $$""", lockMs, HOLD.toMillis());
        StringBuilder out = new StringBuilder();
        ctx.console().printf("provoke: usage_events will be locked from %s to %s UTC (10-s edge at %s)%n",
                WireTelemetry.clock(lockMs * 1000), WireTelemetry.clock((lockMs + HOLD.toMillis()) * 1000),
                WireTelemetry.clock(edgeMs * 1000));
        Background locker = Background.start("edge-lock", () -> {
            String text = ctx.sql(sql);
            synchronized (out) {
                out.append(text);
            }
        });
        return new EdgeLock(locker, edgeMs / 1000) {
            @Override
            public String note() {
                String text;
                synchronized (out) {
                    text = out.toString();
                }
                Matcher m = TIMES.matcher(text);
                return m.find() ? "ACCESS EXCLUSIVE lock on usage_events held " + m.group(1) + "-" + m.group(2)
                        + " UTC (edge " + WireTelemetry.clock(edgeMs * 1000).substring(0, 8) + ")"
                        : "locker said: " + text.strip();
            }
        };
    }

    /** The lock in progress; it knows the edge it straddles. */
    private abstract static class EdgeLock extends OnBackground {
        final long edgeSec;

        EdgeLock(Background locker, long edgeSec) {
            super(locker, Duration.ofSeconds(30));
            this.edgeSec = edgeSec;
        }
    }

    @Override
    public String telemetry(WireTelemetry t) {
        return String.format(Locale.ROOT, "rig.waits Lock:relation in %d of %d samples (max %.0f sessions); %s",
                t.samplesWith("Lock:relation"), t.waitSamples(), t.maxSessions("Lock:relation"), t.platform());
    }

    /**
     * Judged per second, around the lock: exactly one freeze-second within {@link #NEARBY_SEC} s of the edge, and it
     * is the edge's own second (:y0, where every blocked request ended), and no window overlaps the edge. Freeze-
     * seconds elsewhere in the repeat (a busy host's noise) are listed, not judged: they are not what this case
     * provokes. The episode's cause is not judged either.
     */
    @Override
    public CaseResult judge(SeriesReport report, String telemetry, Provocation provoked) {
        if (!(provoked instanceof EdgeLock lock)) {
            return new CaseResult(name(), EXPECTED, "not provoked", "-", "", CaseResult.freezeSeconds(report),
                    CaseResult.windows(report), report.verdict().name(), telemetry, "not started", false);
        }
        long edge = lock.edgeSec;
        List<Long> all = report.repeats().stream().filter(r -> r.kind() == RepeatSummary.Kind.SUSTAINED)
                .flatMap(r -> r.freezeSeconds().stream()).toList();
        List<Long> near = all.stream().filter(s -> Math.abs(s - edge) <= NEARBY_SEC).toList();
        long windowsAcross = report.repeats().stream().filter(r -> r.kind() == RepeatSummary.Kind.SUSTAINED)
                .flatMap(r -> r.windows().stream()).filter(w -> w.startSec() <= edge && edge < w.endSec()).count();
        String found = near.size() + " freeze-second" + (near.size() == 1 ? "" : "s") + ", "
                + (windowsAcross == 0 ? "no window" : windowsAcross + " window" + (windowsAcross == 1 ? "" : "s"));
        var top = CaseResult.dominant(report);
        String evidence = "near the edge " + WireTelemetry.clock(edge * 1_000_000L).substring(0, 8) + ": "
                + (near.isEmpty() ? "no freeze-second" : "freeze-second(s) at " + clock(near)) + " UTC"
                + (all.size() > near.size() ? "; elsewhere (not provoked): " + clock(all.stream()
                        .filter(s -> !near.contains(s)).toList()) : "")
                + top.map(e -> "; dominant episode cause " + e.cause().code() + ": " + CaseResult.evidence(e))
                        .orElse("");
        boolean ok = near.size() == 1 && near.get(0) == edge && windowsAcross == 0;
        return new CaseResult(name(), EXPECTED, found, top.map(e -> e.confidence().code()).orElse("-"), evidence,
                CaseResult.freezeSeconds(report), CaseResult.windows(report), report.verdict().name(), telemetry,
                provoked.note(), ok);
    }

    private static String clock(List<Long> seconds) {
        return String.join(",", seconds.stream().map(s -> WireTelemetry.clock(s * 1_000_000L).substring(0, 8))
                .toList());
    }
}
