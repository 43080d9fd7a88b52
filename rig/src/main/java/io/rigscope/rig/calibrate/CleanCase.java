package io.rigscope.rig.calibrate;

import io.rigscope.rig.series.SeriesPlan;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * {@code clean}: the control. The demo's load (100 req/s of 10 events, read probe at 5 req/s) for 20 s on the
 * demo's cluster ({@code synchronous_commit=off}) with nothing provoked: no freeze-second, no window, PASS.
 */
final class CleanCase implements CalibrationCase {

    static final Duration LOAD = Duration.ofSeconds(20);

    @Override
    public String name() {
        return "clean";
    }

    @Override
    public String expected() {
        return "none";
    }

    @Override
    public String recipe() {
        return "100 req/s x 10 events for " + LOAD.toSeconds() + " s, probe 5 req/s, synchronous_commit=off, "
                + "nothing provoked";
    }

    @Override
    public SeriesPlan plan(String series, URI target, String apiKey) {
        return CasePlans.sustained(series, target, apiKey, 10, 100, LOAD, 64, 5);
    }

    @Override
    public Provocation provoke(CaseContext ctx, Duration repeat) {
        return Provocation.passive("nothing");
    }

    @Override
    public String telemetry(WireTelemetry t) {
        return String.format(Locale.ROOT, "waits %s; worst loop lag %.1f ms; %s", t.topWaits(3),
                t.worstLoopLag().map(h -> h.loopLagMs()).orElse(0.0), t.platform());
    }
}
