package io.rigscope.rig.calibrate;

import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.rig.series.SeriesPlan;
import io.rigscope.sut.auth.ApiKeys;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * {@code hot-row}: the SUT updates the API key's row in every request's transaction
 * ({@code --api-key-touch every-request}), so every insert queues on one row lock, held from the UPDATE through
 * the INSERT to the commit. With {@code synchronous_commit=on} the commit's WAL flush is inside the lock too, as on
 * a durable production server: single-event requests at 1,500 req/s are above the wall (closed loop here: ~3,200
 * tx/s at 2-8 clients falling to ~1,500 at 64). At 1,000 req/s with {@code synchronous_commit=off} the SUT kept up
 * (p50 0.6 ms, one freeze-second in 20 s): no wall. Expected {@code lock_contention}: most active sessions on
 * {@code Lock:transactionid}.
 */
final class HotRowCase implements CalibrationCase {

    static final Duration LOAD = Duration.ofSeconds(20);
    static final double RATE = 1500;

    @Override
    public String name() {
        return "hot-row";
    }

    @Override
    public String expected() {
        return "lock_contention";
    }

    @Override
    public ApiKeys.Touch touch() {
        return ApiKeys.Touch.EVERY_REQUEST;
    }

    @Override
    public String recipe() {
        return String.format(Locale.ROOT, "SUT touches api_keys.last_used_at in every request, synchronous_commit=on; "
                + "%.0f req/s x 1 event for %d s (cap 64)", RATE, LOAD.toSeconds());
    }

    @Override
    public PrivatePostgres.Options cluster(PrivatePostgres.Options base) {
        return base.with("synchronous_commit", "on");
    }

    @Override
    public SeriesPlan plan(String series, URI target, String apiKey) {
        return CasePlans.sustained(series, target, apiKey, 1, RATE, LOAD, 64, 5);
    }

    @Override
    public Provocation provoke(CaseContext ctx, Duration repeat) {
        return Provocation.passive("every request updates api_keys row of the demo key (the SUT's own transaction)");
    }

    @Override
    public String telemetry(WireTelemetry t) {
        return String.format(Locale.ROOT, "rig.waits Lock:transactionid %.0f%% of active sessions (max %.0f "
                        + "sessions in one sample, %d of %d samples), LWLock:LockManager %.0f%%; top %s; %s",
                100 * t.share("Lock:transactionid"), t.maxSessions("Lock:transactionid"),
                t.samplesWith("Lock:transactionid"), t.waitSamples(), 100 * t.share("LWLock:LockManager"),
                t.topWaits(4), t.platform());
    }
}
