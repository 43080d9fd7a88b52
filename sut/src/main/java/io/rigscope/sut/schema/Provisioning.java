package io.rigscope.sut.schema;

import io.r2dbc.spi.ConnectionFactory;
import io.rigscope.sut.auth.ApiKeys;
import io.rigscope.sut.db.Sql;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The reference data a benchmark needs: one tenant, its API key, {@link #customerCount} customers
 * ({@code cust-0001}, ...) and the {@link #METERS}. Idempotent: what exists is left as it is.
 *
 * <p>Runs as the owner (the app role cannot write these tables). Blocking; not for event loops.
 *
 * @param tenant the tenant's name
 * @param apiKey the bearer token the load generator sends; stored only as its SHA-256
 * @param customerCount how many customers to create (at least 1)
 */
public record Provisioning(String tenant, String apiKey, int customerCount) {

    /** The default tenant of the demo and the tests. */
    public static final String DEMO_TENANT = "demo";
    /** The default bearer token of the demo and the tests. Not a secret: use your own outside a private cluster. */
    public static final String DEMO_API_KEY = "rigscope-demo-key";

    /**
     * A meter the provisioning creates.
     *
     * @param name the meter name events carry
     * @param unit what one unit is
     * @param unitPriceMicros price of one unit, millionths of the invoice currency
     */
    public record Meter(String name, String unit, long unitPriceMicros) {
    }

    /** The meters every provisioned tenant gets. */
    public static final List<Meter> METERS = List.of(
            new Meter("api_calls", "call", 100),
            new Meter("compute_seconds", "second", 2_000),
            new Meter("storage_gb_hours", "GB-hour", 150));

    public Provisioning {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(apiKey, "apiKey");
        if (apiKey.isBlank()) {
            throw new IllegalArgumentException("the API key is blank");
        }
        if (customerCount < 1) {
            throw new IllegalArgumentException("customer count must be at least 1, got " + customerCount);
        }
    }

    public static Provisioning demo() {
        return new Provisioning(DEMO_TENANT, DEMO_API_KEY, 1000);
    }

    /** The external id of customer {@code n} (1-based): {@code cust-0001}. */
    public static String customerId(int n) {
        return String.format("cust-%04d", n);
    }

    /** Creates what is missing; returns the tenant's id. */
    public long apply(ConnectionFactory owner) {
        Duration timeout = Duration.ofMinutes(2);
        Sql.blockUpdate(owner, timeout, "INSERT INTO tenants (name) VALUES ($1) ON CONFLICT (name) DO NOTHING", tenant);
        long tenantId = tenantId(owner, tenant);
        Sql.blockUpdate(owner, timeout, "INSERT INTO api_keys (tenant_id, key_hash) VALUES ($1, $2) "
                + "ON CONFLICT (key_hash) DO NOTHING", tenantId, ApiKeys.hash(apiKey));
        for (Meter m : METERS) {
            Sql.blockUpdate(owner, timeout, "INSERT INTO meters (tenant_id, name, unit, unit_price_micros) "
                    + "VALUES ($1, $2, $3, $4) ON CONFLICT (tenant_id, name) DO NOTHING",
                    tenantId, m.name(), m.unit(), m.unitPriceMicros());
        }
        Sql.blockUpdate(owner, timeout, "INSERT INTO customers (tenant_id, external_id, name) "
                + "SELECT $1, 'cust-' || CASE WHEN g < 10000 THEN lpad(g::text, 4, '0') ELSE g::text END, format('Customer %s', g) "
                + "FROM generate_series(1, $2) AS g ON CONFLICT (tenant_id, external_id) DO NOTHING",
                tenantId, customerCount);
        return tenantId;
    }

    /** The id of a tenant by name. */
    public static long tenantId(ConnectionFactory factory, String tenant) {
        List<Long> ids = Sql.blockList(factory, Duration.ofSeconds(30), "SELECT id FROM tenants WHERE name = $1",
                r -> Sql.longOf(r, "id"), tenant);
        if (ids.isEmpty()) {
            throw new IllegalStateException("no tenant named '" + tenant + "'; run with --migrate to provision it");
        }
        return ids.get(0);
    }
}
