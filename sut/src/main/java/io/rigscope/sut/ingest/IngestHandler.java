package io.rigscope.sut.ingest;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.rigscope.sut.Reply;
import io.rigscope.sut.auth.ApiKeys;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * {@code POST /v1/usage-events}: authenticates, validates the body, and writes the batch in one transaction
 * (the key touch, when due, in the same transaction). Answers 201 {@code {"written":N}} with the rows
 * inserted (duplicates by idempotency key are not counted), 400 naming the bad field, 401 on a bad key, 503
 * when the database fails.
 *
 * <p>Thread-safe; non-blocking.
 */
public final class IngestHandler {

    private final ConnectionFactory pool;
    private final ApiKeys keys;
    private final BatchParser parser;
    private final EventWriter writer;

    public IngestHandler(ConnectionFactory pool, ApiKeys keys, BatchParser parser, EventWriter writer) {
        this.pool = pool;
        this.keys = keys;
        this.parser = parser;
        this.writer = writer;
    }

    /**
     * @param authorization the {@code Authorization} header, or null
     * @param body the request body
     */
    public Mono<Reply> handle(String authorization, byte[] body) {
        return keys.authenticate(authorization).flatMap(caller -> {
            if (caller.isEmpty()) {
                return Mono.just(Reply.unauthorized());
            }
            BatchParser.Parsed parsed = parser.parse(body);
            if (parsed instanceof BatchParser.Invalid bad) {
                return Mono.just(Reply.error(400, bad.message()));
            }
            var events = ((BatchParser.Ok) parsed).events();
            return Mono.usingWhen(pool.create(),
                            c -> inTransaction(c, keys.touchIfDue(c, caller.get())
                                    .then(writer.write(c, caller.get().tenantId(), events))),
                            Connection::close)
                    .map(w -> new Reply(201, Map.of("written", w.claimed()), w.claimed()));
        });
    }

    private static <T> Mono<T> inTransaction(Connection c, Mono<T> work) {
        return Mono.from(c.beginTransaction())
                .then(work)
                .flatMap(v -> Mono.from(c.commitTransaction()).thenReturn(v))
                .onErrorResume(e -> Mono.from(c.rollbackTransaction()).onErrorResume(r -> Mono.empty())
                        .then(Mono.error(e)));
    }
}
