package io.rigscope.sut;

import io.rigscope.sut.schema.Provisioning;
import java.util.List;

/**
 * What a series needs to know about the reference SUT, and nothing a rig needs to know about any other
 * service: the tenant and API key it provisions, the SQL that counts what it stored in a repeat's window, the
 * tables worth watching. {@code rigscope run} uses these when it starts the reference SUT and the series file
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

    /** The tables the DB sampler reports: the written table and the hot row's table. */
    public static final List<String> WATCHED_TABLES = List.of("usage_events", "api_keys");

    private SutContract() {
    }
}
