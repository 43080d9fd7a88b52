package io.rigscope.sut.ingest;

import io.r2dbc.spi.Connection;
import io.rigscope.sut.db.Sql;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Writes a batch of events into {@code usage_events} on a connection the caller holds (inside its
 * transaction). A repeated idempotency key is not written again ({@code ON CONFLICT DO NOTHING}); the
 * count returned is the rows the database actually inserted.
 *
 * <p>Lossy mode ({@code lossyOneIn > 0}) exists only to prove reconciliation catches a lying service: every
 * {@code lossyOneIn}-th event this writer sees (counted across all requests, deterministically: the 1000th,
 * 2000th, ...) is silently not written, and it is counted as written all the same.
 *
 * <p>Thread-safe; non-blocking.
 */
public final class EventWriter {

    /** How a batch becomes SQL. */
    public enum InsertMode {
        /** One INSERT per event (N statements per batch). */
        PER_EVENT,
        /** One INSERT ... SELECT FROM unnest(arrays) per batch. */
        MULTI_ROW;

        /** Parses {@code per-event} or {@code multi-row}. */
        public static InsertMode parse(String text) {
            return switch (text == null ? "" : text.strip().toLowerCase(Locale.ROOT)) {
                case "per-event" -> PER_EVENT;
                case "multi-row" -> MULTI_ROW;
                default -> throw new IllegalArgumentException("--insert '" + text + "' is not one of: per-event, multi-row");
            };
        }
    }

    static final String INSERT_ONE = """
            INSERT INTO usage_events (tenant_id, customer_id, meter, quantity, event_time, idempotency_key, properties)
            VALUES ($1, $2, $3, $4, $5::timestamptz, $6, $7::jsonb)
            ON CONFLICT (tenant_id, idempotency_key) DO NOTHING""";

    static final String INSERT_MANY = """
            INSERT INTO usage_events (tenant_id, customer_id, meter, quantity, event_time, idempotency_key, properties)
            SELECT $1, u.customer_id, u.meter, u.quantity, u.event_time::timestamptz, u.idempotency_key, u.properties::jsonb
            FROM unnest($2::text[], $3::text[], $4::int8[], $5::text[], $6::text[], $7::text[])
                 AS u (customer_id, meter, quantity, event_time, idempotency_key, properties)
            ON CONFLICT (tenant_id, idempotency_key) DO NOTHING""";

    /**
     * What a write did.
     *
     * @param inserted rows the database inserted
     * @param skipped events lossy mode dropped on purpose (0 unless lossy)
     */
    public record Written(long inserted, long skipped) {
        /** What the service answers: inserted plus what lossy mode pretends it wrote. */
        public long claimed() {
            return inserted + skipped;
        }
    }

    private final InsertMode mode;
    private final int lossyOneIn;
    private final AtomicLong seen = new AtomicLong();

    /**
     * @param lossyOneIn 0 for an honest writer; N to drop every N-th event silently
     */
    public EventWriter(InsertMode mode, int lossyOneIn) {
        if (lossyOneIn < 0) {
            throw new IllegalArgumentException("lossy one-in must be >= 0, got " + lossyOneIn);
        }
        this.mode = mode;
        this.lossyOneIn = lossyOneIn;
    }

    public Mono<Written> write(Connection c, long tenantId, List<UsageEvent> events) {
        List<UsageEvent> kept = events;
        long skipped = 0;
        if (lossyOneIn > 0) {
            kept = new ArrayList<>(events.size());
            for (UsageEvent e : events) {
                if (seen.incrementAndGet() % lossyOneIn == 0) {
                    skipped++;
                } else {
                    kept.add(e);
                }
            }
        }
        long skippedFinal = skipped;
        if (kept.isEmpty()) {
            return Mono.just(new Written(0, skippedFinal));
        }
        Mono<Long> inserted = mode == InsertMode.MULTI_ROW ? writeMany(c, tenantId, kept) : writeEach(c, tenantId, kept);
        return inserted.map(n -> new Written(n, skippedFinal));
    }

    private static Mono<Long> writeEach(Connection c, long tenantId, List<UsageEvent> events) {
        return Flux.fromIterable(events)
                .concatMap(e -> Sql.update(c, INSERT_ONE, tenantId, e.customerId(), e.meter(), e.quantity(),
                        e.timestamp().toString(), e.idempotencyKey(), e.propertiesJson()))
                .reduce(0L, Long::sum);
    }

    private static Mono<Long> writeMany(Connection c, long tenantId, List<UsageEvent> events) {
        int n = events.size();
        String[] customers = new String[n];
        String[] meters = new String[n];
        Long[] quantities = new Long[n];
        String[] times = new String[n];
        String[] keys = new String[n];
        String[] props = new String[n];
        for (int i = 0; i < n; i++) {
            UsageEvent e = events.get(i);
            customers[i] = e.customerId();
            meters[i] = e.meter();
            quantities[i] = e.quantity();
            times[i] = e.timestamp().toString();
            keys[i] = e.idempotencyKey();
            props[i] = e.propertiesJson();
        }
        return Sql.update(c, INSERT_MANY, tenantId, customers, meters, quantities, times, keys, props);
    }
}
