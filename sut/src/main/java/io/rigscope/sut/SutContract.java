package io.rigscope.sut;

import io.rigscope.sut.schema.Provisioning;
import java.util.List;
import java.util.Map;

/**
 * What a series needs to know about the reference SUT, and nothing a rig needs to know about any other
 * service: the tenant and API key it provisions, the SQL that counts what it stored in a repeat's window, the
 * tables worth watching, and the SQL the rig's bring-up checks and pgbench denominator run against it. {@code rigscope run} uses these when it starts the reference SUT and the series file
 * leaves them out; {@code rigscope demo}'s built-in series files spell them out. A series against another
 * service names its own (examples/series.yaml) or is honestly UNRECONCILED.
 */
public final class SutContract {

    /** The tenant {@code --migrate} provisions. */
    public static final String TENANT = Provisioning.DEMO_TENANT;

    /** The bearer token {@code --migrate} provisions (not a secret: use your own outside a private cluster). */
    public static final String API_KEY = Provisioning.DEMO_API_KEY;

    /**
     * Rows and Σ quantity stored in a repeat's window, by {@code received_at} (the inserting transaction's start)
     * in {@code [:window_start, :window_end)}: the two columns reconciliation reads.
     */
    public static final String RECONCILIATION_SQL = """
            SELECT count(*) AS rows_written, coalesce(sum(quantity), 0) AS qty_sum_gained
            FROM usage_events
            WHERE received_at >= :window_start AND received_at < :window_end""";

    /** The table every ingested event lands in. */
    public static final String EVENTS_TABLE = "usage_events";

    /** Rows whose idempotency key starts with {@code :key_prefix}: what the bring-up write-through check counts. */
    public static final String WRITE_THROUGH_COUNT_SQL =
            "SELECT count(*) AS rows FROM usage_events WHERE idempotency_key LIKE :key_prefix || '%'";

    /** (object, privilege) pairs the SUT's app role must hold; a column privilege names its column. */
    public static final List<Map.Entry<String, String>> APP_GRANTS = List.of(
            Map.entry("tenants", "SELECT"),
            Map.entry("customers", "SELECT"),
            Map.entry("meters", "SELECT"),
            Map.entry("api_keys.key_hash", "SELECT"),
            Map.entry("api_keys.last_used_at", "UPDATE"),
            Map.entry("usage_events", "SELECT"),
            Map.entry("usage_events", "INSERT"));

    /**
     * The pgbench script that inserts the SUT's row shape, {@code batch} rows a transaction, for a tenant id (no
     * {@code ::} casts: pgbench reads {@code :name} as a variable).
     */
    public static String denominatorScript(long tenantId, int batch, String nonce) {
        return """
                INSERT INTO usage_events (tenant_id, customer_id, meter, quantity, event_time, idempotency_key, properties)
                SELECT %d,
                       'cust-' || lpad(CAST(CAST(1 + floor(random() * 1000) AS int) AS text), 4, '0'),
                       (ARRAY['api_calls', 'compute_seconds', 'storage_gb_hours'])[CAST(1 + floor(random() * 3) AS int)],
                       1 + CAST(floor(random() * 100) AS bigint),
                       now() - random() * interval '1 minute',
                       'denominator-%s-' || gen_random_uuid(),
                       CAST('{"region": "eu-1", "plan": "pro"}' AS jsonb)
                FROM generate_series(1, %d)
                ON CONFLICT (tenant_id, idempotency_key) DO NOTHING;
                """.formatted(tenantId, nonce, batch);
    }

    /** The tables the DB sampler reports: the written table and the hot row's table. */
    public static final List<String> WATCHED_TABLES = List.of("usage_events", "api_keys");

    private SutContract() {
    }
}
