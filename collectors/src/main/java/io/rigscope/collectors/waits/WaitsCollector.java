package io.rigscope.collectors.waits;

import io.rigscope.model.topic.Topic;
import static io.rigscope.collectors.pg.PgConnector.lng;
import static io.rigscope.collectors.pg.PgConnector.rows;

import io.rigscope.collectors.Backoff;
import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.Resilient;
import io.rigscope.collectors.pg.PgConnector;
import io.rigscope.pg.PgUrl;
import io.rigscope.model.wire.Waits;
import io.rigscope.model.wire.WireRecord;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The wait collector on {@code rig.waits}, Performance-Insights-shaped: samples pg_stat_activity every
 * {@code interval} and reports the active sessions of the connected database by
 * {@code wait_event_type:wait_event} in the server's exact case ({@code Lock:transactionid},
 * {@code IO:WALInitWrite}, {@code LWLock:WALWrite}); an active session with no wait event is {@code CPU}.
 *
 * <p>A session counts when {@code state = 'active'}, it is in the connected database, and it is not one of
 * the collectors' own sessions ({@code application_name} starting with {@code rigscope-collector}). Each
 * record is one sample, so {@code load} is a session count and {@code periodSec} the interval, like PI's
 * db.load.avg at one-second resolution. Needs pg_monitor (pg_read_all_stats) to see other roles' wait events.
 */
public final class WaitsCollector {

    static final String SQL = "select coalesce(wait_event_type || ':' || wait_event, 'CPU'), count(*)::bigint"
            + " from pg_stat_activity where state = 'active' and datname = current_database()"
            + " and pid <> pg_backend_pid() and coalesce(application_name, '') not like '"
            + PgConnector.APPLICATION_PREFIX + "%' group by 1";

    /**
     * @param pgUrl the database whose sessions to sample
     * @param interval time between samples (whole seconds, at least 1)
     */
    public record Config(PgUrl pgUrl, Duration interval) {
        public Config {
            Objects.requireNonNull(pgUrl, "PostgreSQL URL");
            interval = interval == null ? Duration.ofSeconds(1) : interval;
            if (interval.toSeconds() < 1) {
                throw new IllegalArgumentException("waits interval must be at least 1 s, was " + interval);
            }
        }
    }

    private final Config config;
    private final CollectorContext ctx;
    private final PgConnector connector;

    public WaitsCollector(Config config, CollectorContext ctx) {
        this.config = Objects.requireNonNull(config, "config");
        this.ctx = Objects.requireNonNull(ctx, "ctx");
        this.connector = new PgConnector(config.pgUrl(), "waits");
    }

    public String src() {
        return ctx.src("waits");
    }

    /** A cold, endless Flux of wait samples and gap markers. */
    public Flux<WireRecord> records() {
        return records(Schedulers.parallel(), Backoff.defaults());
    }

    Flux<WireRecord> records(Scheduler timer, Backoff backoff) {
        int periodSec = (int) config.interval().toSeconds();
        return Resilient.forever(ctx, src(), Topic.WAITS, () -> connector.withConnection(c ->
                Flux.interval(Duration.ZERO, config.interval(), timer).onBackpressureDrop()
                        .concatMap(tick -> {
                            long tsUs = ctx.nowUs();
                            return rows(c, SQL, r -> Map.entry(r.get(0, String.class), lng(r, 1)))
                                    .collectList()
                                    .map(list -> {
                                        Map<String, Double> load = new LinkedHashMap<>();
                                        list.forEach(e -> load.put(e.getKey(), e.getValue().doubleValue()));
                                        return (WireRecord) new Waits(ctx.run(), ctx.rep(), src(), tsUs, periodSec, load);
                                    });
                        })), backoff, timer);
    }
}
