package io.rigscope.rig.calibrate;

import io.rigscope.rig.series.SeriesPlan;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * {@code pool}: the service's connection pool is too small for the load. The SUT runs with a pool of
 * {@link #POOL} connections and is offered {@link #RATE} requests/s of {@link #BATCH} events, more than two
 * connections can carry one transaction at a time each: requests queue for a connection inside the service, which its
 * {@code Server-Timing} says ({@code pool}), while the database shows at most two sessions, mostly waiting on the
 * client. Expected cause {@code connection_pool}.
 */
final class PoolCase implements CalibrationCase {

    static final int POOL = 2;
    static final double RATE = 900;
    static final int BATCH = 50;
    static final Duration LOAD = Duration.ofSeconds(20);

    @Override
    public String name() {
        return "pool";
    }

    @Override
    public String expected() {
        return "connection_pool";
    }

    @Override
    public String recipe() {
        return String.format(Locale.ROOT, "SUT with a pool of %d connections; %.0f req/s x %d events for %d s (cap 512)",
                POOL, RATE, BATCH, LOAD.toSeconds());
    }

    @Override
    public int sutPoolSize() {
        return POOL;
    }

    @Override
    public SeriesPlan plan(String series, URI target, String apiKey) {
        return CasePlans.sustained(series, target, apiKey, BATCH, RATE, LOAD, 512, 5);
    }

    @Override
    public Provocation provoke(CaseContext ctx, Duration repeat) {
        return Provocation.passive("the SUT's pool of " + POOL + " connections (its own configuration)");
    }

    @Override
    public String telemetry(WireTelemetry t) {
        return String.format(Locale.ROOT, "rig.waits max %.1f sessions on Client:ClientRead, top %s; %s",
                t.maxSessions("Client:ClientRead"), t.topWaits(4), t.platform());
    }
}
