package io.rigscope.rig.ownservice;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.spi.R2dbcException;
import io.rigscope.pg.PgUrl;
import io.rigscope.sut.db.Sql;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A third system under test, a plain REST API on the JDK's {@code HttpServer} over a real PostgreSQL: {@code POST
 * /v1/orders} with {@code {"orders": [{"ref", "customer", "qty"}, ...]}} stores the array in one multi-row INSERT
 * into {@code orders} (ref unique, {@code CHECK (qty <= 1000)}) and answers 201; an array the CHECK refuses stores
 * nothing and answers 500 (the error the database gave). It misbehaves on purpose, as services do under load: every
 * {@code --slow-every}-th request waits {@code --slow-ms} before it stores, so that a client with a shorter timeout
 * gives up on a request whose rows are stored all the same.
 *
 * <pre>
 * java -cp ... io.rigscope.rig.ownservice.OrdersRestService --pg env:ORDERS_PG --slow-every 20 --slow-ms 800
 * orders: listening on http://127.0.0.1:41234
 * </pre>
 *
 * <p>Blocking handlers on a pool of 16 threads (never an event loop). SIGTERM stops the server, then the pool.
 */
public final class OrdersRestService {

    /** The line it prints once ready, before its URL. */
    public static final String LISTENING = "orders: listening on ";

    static final String SCHEMA = """
            CREATE TABLE IF NOT EXISTS orders (
                ref text PRIMARY KEY,
                customer text NOT NULL,
                qty integer NOT NULL CHECK (qty <= 1000),
                created_at timestamptz NOT NULL DEFAULT now())""";

    private static final String INSERT = """
            INSERT INTO orders (ref, customer, qty)
            SELECT * FROM unnest($1::text[], $2::text[], $3::int4[])""";

    private static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(30);

    private final ConnectionPool pool;
    private final long slowEvery;
    private final long slowMs;
    private final AtomicLong requests = new AtomicLong();
    private final ObjectMapper json = new ObjectMapper();

    private OrdersRestService(ConnectionPool pool, long slowEvery, long slowMs) {
        this.pool = pool;
        this.slowEvery = slowEvery;
        this.slowMs = slowMs;
    }

    public static void main(String[] args) throws IOException {
        String pg = null;
        long slowEvery = 0;
        long slowMs = 0;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--pg" -> pg = args[i + 1].startsWith("env:") ? System.getenv(args[i + 1].substring(4)) : args[i + 1];
                case "--slow-every" -> slowEvery = Long.parseLong(args[i + 1]);
                case "--slow-ms" -> slowMs = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (pg == null) {
            throw new IllegalArgumentException("--pg is required");
        }
        ConnectionPool pool = new ConnectionPool(ConnectionPoolConfiguration
                .builder(PgUrl.parse("--pg", pg).connectionFactory("orders-rest")).initialSize(2).maxSize(16).build());
        Sql.blockUpdate(pool, STATEMENT_TIMEOUT, SCHEMA);
        OrdersRestService service = new OrdersRestService(pool, slowEvery, slowMs);
        ExecutorService handlers = Executors.newFixedThreadPool(16);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
        server.createContext("/v1/orders", service::orders);
        server.createContext("/health", ex -> answer(ex, 200, "{\"ok\":true}"));
        server.setExecutor(handlers);
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(1);
            handlers.shutdownNow();
            pool.dispose();
        }));
        System.out.println(LISTENING + "http://127.0.0.1:" + server.getAddress().getPort());
        System.out.flush();
    }

    private void orders(HttpExchange ex) throws IOException {
        if (!"POST".equals(ex.getRequestMethod())) {
            answer(ex, 405, "{\"error\":\"POST only\"}");
            return;
        }
        JsonNode orders;
        try (InputStream in = ex.getRequestBody()) {
            orders = json.readTree(in).path("orders");
        } catch (IOException e) {
            answer(ex, 400, "{\"error\":\"the body is not JSON\"}");
            return;
        }
        if (!orders.isArray() || orders.isEmpty()) {
            answer(ex, 400, "{\"error\":\"orders must be a non-empty array\"}");
            return;
        }
        int n = orders.size();
        String[] refs = new String[n];
        String[] customers = new String[n];
        Integer[] qtys = new Integer[n];
        for (int i = 0; i < n; i++) {
            JsonNode o = orders.get(i);
            refs[i] = o.path("ref").asText();
            customers[i] = o.path("customer").asText();
            qtys[i] = o.path("qty").asInt();
        }
        if (slowEvery > 0 && requests.incrementAndGet() % slowEvery == 0) {
            try {
                Thread.sleep(slowMs); // the client may give up meanwhile; the rows are stored all the same
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        try {
            long stored = Sql.blockUpdate(pool, STATEMENT_TIMEOUT, INSERT, refs, customers, qtys);
            answer(ex, 201, "{\"stored\":" + stored + "}");
        } catch (R2dbcException e) {
            answer(ex, 500, json.writeValueAsString(java.util.Map.of("error", String.valueOf(e.getMessage()))));
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() instanceof R2dbcException r ? r : e;
            answer(ex, 500, json.writeValueAsString(java.util.Map.of("error", String.valueOf(cause.getMessage()))));
        }
    }

    private static void answer(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        try {
            ex.sendResponseHeaders(status, bytes.length);
            ex.getResponseBody().write(bytes);
        } catch (IOException clientGone) {
            // the client timed out and closed: what was stored stays stored
        } finally {
            ex.close();
        }
    }
}
