package io.rigscope.sut.read;

import io.r2dbc.spi.ConnectionFactory;
import io.rigscope.sut.Reply;
import io.rigscope.sut.auth.ApiKeys;
import io.rigscope.sut.db.Sql;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The read endpoints, each scoped to the caller's tenant:
 * <ul>
 *   <li>{@code GET /v1/usage-events/aggregate?customer_id=C}: COUNT and SUM(quantity) per meter over all of
 *       the customer's events: {@code {"customer_id":"C","meters":[{"meter":"api_calls","count":3,"quantity_sum":60}]}}</li>
 *   <li>{@code GET /v1/customers[?limit=N]}: customers by external id (limit 1..1000, default 100)</li>
 *   <li>{@code GET /v1/invoices[?customer_id=C][&period=YYYY-MM]}: per customer and meter in the month
 *       (UTC, default the current one) events, quantity, unit price and amount in micros, with a total per
 *       customer; at most 1,000 lines. Without {@code customer_id} it scans the tenant's month.</li>
 * </ul>
 *
 * <p>Thread-safe; non-blocking.
 */
public final class ReadHandlers {

    private final ConnectionFactory pool;
    private final ApiKeys keys;

    public ReadHandlers(ConnectionFactory pool, ApiKeys keys) {
        this.pool = pool;
        this.keys = keys;
    }

    public Mono<Reply> aggregate(String authorization, Map<String, String> query) {
        return authed(authorization, tenantId -> {
            String customer = query.get("customer_id");
            if (customer == null || customer.isBlank()) {
                return Mono.just(Reply.error(400, "customer_id is missing; use /v1/usage-events/aggregate?customer_id=..."));
            }
            return Sql.withConnection(pool, c -> Sql.query(c, """
                            SELECT meter, count(*) AS events, coalesce(sum(quantity), 0) AS quantity_sum
                            FROM usage_events WHERE tenant_id = $1 AND customer_id = $2
                            GROUP BY meter ORDER BY meter""",
                            r -> ordered("meter", r.get("meter", String.class),
                                    "count", Sql.longOf(r, "events"), "quantity_sum", Sql.longOf(r, "quantity_sum")),
                            tenantId, customer))
                    .collectList()
                    .map(rows -> Reply.ok(ordered("customer_id", customer, "meters", rows)));
        });
    }

    public Mono<Reply> customers(String authorization, Map<String, String> query) {
        return authed(authorization, tenantId -> {
            int limit;
            try {
                limit = Integer.parseInt(query.getOrDefault("limit", "100"));
            } catch (NumberFormatException e) {
                return Mono.just(Reply.error(400, "limit must be an integer 1..1000, got '" + query.get("limit") + "'"));
            }
            if (limit < 1 || limit > 1000) {
                return Mono.just(Reply.error(400, "limit must be 1..1000, got " + limit));
            }
            return Sql.withConnection(pool, c -> Sql.query(c,
                            "SELECT external_id, name FROM customers WHERE tenant_id = $1 ORDER BY external_id LIMIT $2",
                            r -> ordered("id", r.get("external_id", String.class),
                                    "name", r.get("name", String.class)),
                            tenantId, limit))
                    .collectList()
                    .map(rows -> Reply.ok(ordered("customers", rows)));
        });
    }

    public Mono<Reply> invoices(String authorization, Map<String, String> query) {
        return authed(authorization, tenantId -> {
            YearMonth period;
            try {
                period = query.containsKey("period") ? YearMonth.parse(query.get("period"))
                        : YearMonth.now(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                return Mono.just(Reply.error(400, "period must be YYYY-MM, got '" + query.get("period") + "'"));
            }
            LocalDate first = period.atDay(1);
            OffsetDateTime from = first.atStartOfDay().atOffset(ZoneOffset.UTC);
            OffsetDateTime to = first.plusMonths(1).atStartOfDay().atOffset(ZoneOffset.UTC);
            String customer = query.get("customer_id");
            String sql = """
                    SELECT e.customer_id, e.meter, count(*) AS events, sum(e.quantity) AS quantity,
                           coalesce(m.unit_price_micros, 0) AS unit_price_micros,
                           sum(e.quantity) * coalesce(m.unit_price_micros, 0) AS amount_micros
                    FROM usage_events e
                    LEFT JOIN meters m ON m.tenant_id = e.tenant_id AND m.name = e.meter
                    WHERE e.tenant_id = $1 AND e.event_time >= $2 AND e.event_time < $3
                    """ + (customer == null ? "" : "AND e.customer_id = $4\n") + """
                    GROUP BY e.customer_id, e.meter, m.unit_price_micros
                    ORDER BY e.customer_id, e.meter
                    LIMIT 1000""";
            Object[] args = customer == null ? new Object[] {tenantId, from, to} : new Object[] {tenantId, from, to, customer};
            return Sql.withConnection(pool, c -> Sql.query(c, sql, r -> new Line(r.get("customer_id", String.class),
                            r.get("meter", String.class), Sql.longOf(r, "events"), Sql.longOf(r, "quantity"),
                            Sql.longOf(r, "unit_price_micros"), Sql.longOf(r, "amount_micros")), args))
                    .collectList()
                    .map(lines -> Reply.ok(ordered("period", period.toString(), "invoices", invoices(lines))));
        });
    }

    private record Line(String customer, String meter, long events, long quantity, long unitPriceMicros,
                        long amountMicros) {
    }

    private static List<Map<String, Object>> invoices(List<Line> lines) {
        Map<String, List<Line>> byCustomer = new LinkedHashMap<>();
        lines.forEach(l -> byCustomer.computeIfAbsent(l.customer(), k -> new ArrayList<>()).add(l));
        List<Map<String, Object>> out = new ArrayList<>();
        byCustomer.forEach((customer, ls) -> out.add(ordered(
                "customer_id", customer,
                "lines", ls.stream().map(l -> ordered("meter", l.meter(), "events", l.events(),
                        "quantity", l.quantity(), "unit_price_micros", l.unitPriceMicros(),
                        "amount_micros", l.amountMicros())).toList(),
                "total_micros", ls.stream().mapToLong(Line::amountMicros).sum())));
        return out;
    }

    private Mono<Reply> authed(String authorization, Function<Long, Mono<Reply>> work) {
        return keys.authenticate(authorization)
                .flatMap(caller -> caller.isEmpty() ? Mono.just(Reply.unauthorized()) : work.apply(caller.get().tenantId()));
    }

    private static Map<String, Object> ordered(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
