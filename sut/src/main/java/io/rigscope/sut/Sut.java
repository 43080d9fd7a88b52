package io.rigscope.sut;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.r2dbc.pool.ConnectionPool;
import io.rigscope.sut.auth.ApiKeys;
import io.rigscope.sut.db.Pools;
import io.rigscope.sut.ingest.BatchParser;
import io.rigscope.sut.ingest.EventWriter;
import io.rigscope.sut.ingest.IngestHandler;
import io.rigscope.sut.read.ReadHandlers;
import io.rigscope.sut.schema.Migrations;
import io.rigscope.sut.timing.RequestTiming;
import io.rigscope.sut.timing.TimedConnections;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The reference system under test: a usage-metering ingest API on Reactor Netty and R2DBC PostgreSQL.
 *
 * <pre>{@code
 * try (RunningSut sut = Sut.start(SutConfig.defaults(PgUrl.parse("--pg", url)).withMigrate(true))) {
 *     URI base = sut.baseUri();   // POST base + "/v1/usage-events" with Authorization: Bearer rigscope-demo-key
 * }
 * }</pre>
 *
 * <p>Routes: {@code POST /v1/usage-events}, {@code GET /v1/usage-events/aggregate?customer_id=},
 * {@code GET /v1/customers}, {@code GET /v1/invoices}, {@code GET /health} (no auth). See docs/sut.md.
 */
public final class Sut {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    /** The largest request body accepted (by its Content-Length); larger is 413. */
    public static final long MAX_BODY_BYTES = 16L << 20;

    private Sut() {
    }

    /**
     * Migrates when asked, opens the pool as the app role, and starts serving. Blocking; call it from an
     * ordinary thread.
     *
     * @throws IllegalStateException when a migration fails or the database cannot be reached
     */
    public static RunningSut start(SutConfig config) {
        if (config.migrate()) {
            var owner = config.pg().connectionFactory("rigscope-migrate");
            Migrations.shipped().apply(owner);
            if (config.appPassword() != null && config.appUser().equals(Migrations.APP_ROLE)) {
                Migrations.setAppPassword(owner, config.appPassword());
            }
            config.provisioning().apply(owner);
        }
        ConnectionPool pool = Pools.of(config.appPg(), "rigscope-sut", config.poolSize());
        try {
            pool.warmup().block(START_TIMEOUT);
        } catch (RuntimeException e) {
            pool.dispose();
            throw new IllegalStateException("the SUT cannot connect to " + config.appPg() + ": " + e.getMessage()
                    + (config.migrate() ? "" : " (run with --migrate to create the schema and the app role)"), e);
        }
        ObjectMapper json = JsonMapper.builder().build();
        // every request's pool wait and database time, told in its Server-Timing header
        var timed = new TimedConnections(pool);
        var keys = new ApiKeys(timed, config.touch(), System::currentTimeMillis);
        var ingest = new IngestHandler(timed, keys, new BatchParser(json),
                new EventWriter(config.insert(), config.lossyOneIn()));
        var reads = new ReadHandlers(timed, keys);
        var stats = new SutStats();
        var routes = new Routes(json, stats);
        DisposableServer server;
        try {
            server = HttpServer.create()
                    .host(config.bindHost())
                    .port(config.port())
                    .route(r -> r
                            .post("/v1/usage-events", (req, res) -> routes.answer(res, tooLarge(req)
                                    ? Mono.just(Reply.error(413, "the request body is larger than " + MAX_BODY_BYTES
                                            + " bytes; send at most " + BatchParser.MAX_EVENTS + " events per request"))
                                    : req.receive().aggregate().asByteArray().defaultIfEmpty(new byte[0])
                                            .flatMap(body -> ingest.handle(auth(req), body))))
                            .get("/v1/usage-events/aggregate", (req, res) -> routes.answer(res,
                                    reads.aggregate(auth(req), query(req))))
                            .get("/v1/customers", (req, res) -> routes.answer(res, reads.customers(auth(req), query(req))))
                            .get("/v1/invoices", (req, res) -> routes.answer(res, reads.invoices(auth(req), query(req))))
                            .get("/health", (req, res) -> routes.answer(res, Mono.just(Reply.ok(Map.of("status", "ok"))))))
                    .bindNow(START_TIMEOUT);
        } catch (RuntimeException e) {
            pool.dispose();
            throw new IllegalStateException("the SUT cannot listen on " + config.bindHost() + ":" + config.port()
                    + ": " + e.getMessage(), e);
        }
        return new RunningSut(config, server, pool, stats);
    }

    private static boolean tooLarge(HttpServerRequest req) {
        String length = req.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
        try {
            return length != null && Long.parseLong(length.strip()) > MAX_BODY_BYTES;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String auth(HttpServerRequest req) {
        return req.requestHeaders().get(HttpHeaderNames.AUTHORIZATION);
    }

    private static Map<String, String> query(HttpServerRequest req) {
        Map<String, String> out = new HashMap<>();
        new QueryStringDecoder(req.uri()).parameters().forEach((k, v) -> {
            if (!v.isEmpty()) {
                out.put(k, v.get(0));
            }
        });
        return out;
    }

    /** Writes replies as JSON and counts them. */
    private static final class Routes {
        private static final String SERVER_TIMING = "Server-Timing";
        private final ObjectMapper json;
        private final SutStats stats;

        Routes(ObjectMapper json, SutStats stats) {
            this.json = json;
            this.stats = stats;
        }

        /**
         * Answers with the reply and a {@code Server-Timing: pool;dur=..., db;dur=..., app;dur=...} header measured
         * from now (the request's head arrived) to the reply being ready.
         */
        Mono<Void> answer(HttpServerResponse res, Mono<Reply> reply) {
            RequestTiming timing = RequestTiming.startingNow();
            return reply
                    .contextWrite(ctx -> ctx.put(RequestTiming.class, timing))
                    .onErrorResume(e -> Mono.just(Reply.error(503, "database: " + firstLine(e))))
                    .flatMap(r -> {
                        byte[] body;
                        try {
                            body = json.writeValueAsBytes(r.body());
                        } catch (JsonProcessingException e) {
                            body = ("{\"error\":\"cannot write the reply\"}").getBytes(StandardCharsets.UTF_8);
                        }
                        stats.answered(r.status(), r.eventsWritten());
                        return res.status(HttpResponseStatus.valueOf(r.status()))
                                .header(HttpHeaderNames.CONTENT_TYPE, "application/json")
                                .header(SERVER_TIMING, timing.header())
                                .sendByteArray(Mono.just(body))
                                .then();
                    });
        }

        private static String firstLine(Throwable e) {
            String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            List<String> lines = m.lines().toList();
            return lines.isEmpty() ? m : lines.get(0);
        }
    }
}
