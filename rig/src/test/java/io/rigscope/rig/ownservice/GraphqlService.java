package io.rigscope.rig.ownservice;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.rigscope.pg.PgUrl;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * A second system under test, written apart from the reference SUT so that rigscope is tested against a service
 * it did not shape: a small ledger API in the GraphQL style on Reactor Netty and R2DBC PostgreSQL. It knows one
 * table of its own, {@code ledger_entries}, and creates it on start when absent.
 *
 * <pre>
 * java -cp ... io.rigscope.rig.ownservice.GraphqlService --port 0 --pg postgresql://postgres@127.0.0.1:5432/postgres \
 *      --token secret --atomic true
 * listening on http://127.0.0.1:41234
 * </pre>
 *
 * <p>Options: {@code --port} (0: any free one; default 0), {@code --pg} (a URL {@link PgUrl} parses; required),
 * {@code --token} (when given, every request needs {@code Authorization: Bearer <token>}, else 401), {@code --atomic}
 * ({@code true}, the default: one transaction and one multi-row INSERT per request; {@code false}: each field on its
 * own), {@code --pool} (connections, default 16). A value {@code env:NAME} is read from the environment variable NAME,
 * so that a password or token need not show on the command line. It binds 127.0.0.1 and prints
 * {@code listening on http://127.0.0.1:PORT} on stdout once the schema exists, the pool is warm and the port bound.
 * SIGTERM closes the server, then the pool.
 *
 * <p>Routes: {@code POST /graphql} with {@code {"query": "..."}} ({@link GraphqlDocument} says which documents),
 * {@code GET /health} (no token). As GraphQL over HTTP answers with {@code application/json}, {@code /graphql}
 * answers 200 to every request it could read, failures in {@code errors}: a document that does not parse or
 * validate (no {@code data} then), a constraint violation, a database that cannot be reached. A body that is not
 * JSON, or has no string {@code query}, is 400; a missing or wrong token 401; a body over 1 MiB 413.
 */
public final class GraphqlService {

    /** The line it prints once ready, before the URL. */
    public static final String LISTENING = "listening on ";

    /** The largest body accepted, by its Content-Length. */
    static final long MAX_BODY_BYTES = 1L << 20;

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    /**
     * The command line, parsed.
     *
     * @param port 0 for any free port
     * @param token the bearer token required, or null for none
     * @param poolSize most connections open at once
     */
    record Options(int port, PgUrl pg, String token, boolean atomic, int poolSize) {
        Options {
            Objects.requireNonNull(pg, "pg");
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("--port " + port + " is out of range");
            }
            if (poolSize < 1) {
                throw new IllegalArgumentException("--pool must be at least 1, got " + poolSize);
            }
            if (token != null && token.isBlank()) {
                throw new IllegalArgumentException("--token is blank");
            }
        }

        static Options parse(String[] args) {
            int port = 0;
            PgUrl pg = null;
            String token = null;
            boolean atomic = true;
            int pool = 16;
            for (int i = 0; i < args.length; i++) {
                String flag = args[i];
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException(flag + " needs a value");
                }
                String value = resolve(flag, args[++i]);
                switch (flag) {
                    case "--port" -> port = integer(flag, value);
                    case "--pg" -> pg = PgUrl.parse(flag, value);
                    case "--token" -> token = value;
                    case "--atomic" -> atomic = switch (value) {
                        case "true" -> true;
                        case "false" -> false;
                        default -> throw new IllegalArgumentException("--atomic '" + value + "' is not true or false");
                    };
                    case "--pool" -> pool = integer(flag, value);
                    default -> throw new IllegalArgumentException("unknown option " + flag);
                }
            }
            if (pg == null) {
                throw new IllegalArgumentException("--pg is required");
            }
            return new Options(port, pg, token, atomic, pool);
        }

        private static String resolve(String flag, String value) {
            if (!value.startsWith("env:")) {
                return value;
            }
            String name = value.substring("env:".length());
            String found = System.getenv(name);
            if (found == null) {
                throw new IllegalArgumentException(flag + " names the environment variable " + name + ", which is not set");
            }
            return found;
        }

        private static int integer(String flag, String value) {
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " '" + value + "' is not a whole number");
            }
        }
    }

    private final ObjectMapper json = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    private final Ledger ledger;
    private final byte[] expectedAuthorization;

    private GraphqlService(Ledger ledger, String token) {
        this.ledger = ledger;
        this.expectedAuthorization = token == null ? null : ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    public static void main(String[] args) throws InterruptedException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("ledger: " + e.getMessage());
            System.err.println("usage: GraphqlService --pg postgresql://user@host:port/db [--port 0] [--token T] "
                    + "[--atomic true|false] [--pool 16]");
            System.exit(2);
            return;
        }
        ConnectionPool pool = new ConnectionPool(ConnectionPoolConfiguration
                .builder(options.pg().connectionFactory("rigscope-ledger"))
                .initialSize(Math.min(2, options.poolSize()))
                .maxSize(options.poolSize())
                .maxAcquireTime(Duration.ofSeconds(10))
                .build());
        DisposableServer server;
        try {
            Ledger.createSchema(pool).block(START_TIMEOUT);
            pool.warmup().block(START_TIMEOUT);
            GraphqlService service = new GraphqlService(new Ledger(pool, options.atomic()), options.token());
            server = HttpServer.create()
                    .host("127.0.0.1")
                    .port(options.port())
                    .route(r -> r
                            .post("/graphql", service::graphql)
                            .get("/health", (req, res) -> service.reply(res, 200, Map.of("status", "ok"))))
                    .bindNow(START_TIMEOUT);
        } catch (RuntimeException e) {
            System.err.println("ledger: cannot start on " + options.pg() + ": " + e.getMessage());
            pool.dispose();
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.disposeNow(STOP_TIMEOUT);
            pool.disposeLater().block(STOP_TIMEOUT);
        }, "ledger-stop"));
        System.out.println("ledger: atomic=" + options.atomic() + " pool=" + options.poolSize() + " token="
                + (options.token() == null ? "none" : "required") + " database=" + options.pg());
        System.out.println(LISTENING + "http://127.0.0.1:" + server.port());
        System.out.flush();
        server.onDispose().block();
    }

    private Mono<Void> graphql(HttpServerRequest req, HttpServerResponse res) {
        if (!authorized(req.requestHeaders().get(HttpHeaderNames.AUTHORIZATION))) {
            res.header(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer");
            return reply(res, 401, GraphqlAnswer.refused(GraphqlAnswer.Error.of(
                    "missing or wrong token: send Authorization: Bearer <token>")).toJson());
        }
        if (tooLarge(req.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH))) {
            return reply(res, 413, GraphqlAnswer.refused(GraphqlAnswer.Error.of(
                    "the body is larger than " + MAX_BODY_BYTES + " bytes")).toJson());
        }
        return req.receive().aggregate().asByteArray().defaultIfEmpty(new byte[0])
                .flatMap(body -> answer(res, body));
    }

    private Mono<Void> answer(HttpServerResponse res, byte[] body) {
        String query;
        try {
            JsonNode request = json.readTree(body);
            if (request == null || request.isMissingNode()) {
                return reply(res, 400, GraphqlAnswer.refused(GraphqlAnswer.Error.of(
                        "the body is empty; expected {\"query\": \"...\"}")).toJson());
            }
            JsonNode q = request.get("query");
            if (q == null || !q.isTextual()) {
                return reply(res, 400, GraphqlAnswer.refused(GraphqlAnswer.Error.of(
                        "the body is not a GraphQL request: expected {\"query\": \"...\"}")).toJson());
            }
            query = q.textValue();
        } catch (JsonProcessingException e) {
            return reply(res, 400, GraphqlAnswer.refused(GraphqlAnswer.Error.of(
                    "the body is not JSON: " + e.getOriginalMessage())).toJson());
        } catch (IOException e) {
            return reply(res, 400, GraphqlAnswer.refused(GraphqlAnswer.Error.of(
                    "the body cannot be read: " + e.getMessage())).toJson());
        }
        GraphqlDocument document;
        try {
            document = GraphqlDocument.parse(query);
        } catch (GraphqlDocument.GraphqlSyntaxException e) {
            return reply(res, 200, GraphqlAnswer.refused(GraphqlAnswer.Error.at(
                    e.getMessage(), e.line(), e.column())).toJson());
        }
        return ledger.run(document).flatMap(a -> reply(res, 200, a.toJson()));
    }

    private boolean authorized(String header) {
        if (expectedAuthorization == null) {
            return true;
        }
        return header != null && MessageDigest.isEqual(expectedAuthorization, header.getBytes(StandardCharsets.UTF_8));
    }

    private static boolean tooLarge(String contentLength) {
        try {
            return contentLength != null && Long.parseLong(contentLength.strip()) > MAX_BODY_BYTES;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private Mono<Void> reply(HttpServerResponse res, int status, Object body) {
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            status = 500;
            bytes = "{\"errors\":[{\"message\":\"cannot write the answer\"}]}".getBytes(StandardCharsets.UTF_8);
        }
        return res.status(HttpResponseStatus.valueOf(status))
                .header(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .sendByteArray(Mono.just(bytes))
                .then();
    }
}
