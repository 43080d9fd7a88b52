package io.rigscope.collectors.pg;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.R2dbcBadGrammarException;
import io.r2dbc.spi.R2dbcPermissionDeniedException;
import io.r2dbc.spi.Row;
import io.rigscope.pg.PgUrl;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One R2DBC connection per collector subscription, tagged with an {@code application_name} that starts with
 * {@code rigscope-collector} so that the wait collector can leave the collectors' own sessions out.
 * Immutable, thread-safe.
 */
public final class PgConnector {

    /** Every collector session's application_name starts with this. */
    public static final String APPLICATION_PREFIX = "rigscope-collector";

    private final ConnectionFactory factory;
    private final PgUrl url;

    /**
     * @param url the database; its query parameters (sslmode, options, ...) apply, except {@code application_name},
     *            which is always {@code rigscope-collector-<role>} (the wait collector leaves those sessions out)
     * @param role a word for the application name, e.g. {@code db}, {@code waits}
     */
    public PgConnector(PgUrl url, String role) {
        Objects.requireNonNull(url, "PostgreSQL URL");
        this.url = url.withParameter("application_name", APPLICATION_PREFIX + "-" + role);
        this.factory = new io.r2dbc.postgresql.PostgresqlConnectionFactory(this.url.configuration(APPLICATION_PREFIX)
                .statementTimeout(Duration.ofSeconds(10)).build());
    }

    /** The URL with any password replaced by {@code ***}. */
    public String url() {
        return url.redacted();
    }

    /** Runs {@code use} on a fresh connection and closes it when the returned Flux ends or is cancelled. */
    public <T> Flux<T> withConnection(Function<Connection, Flux<T>> use) {
        return Flux.usingWhen(Mono.from(factory.create()), use, c -> Mono.from(c.close()),
                (c, e) -> Mono.from(c.close()), c -> Mono.from(c.close()));
    }

    /** Rows of a query with positional binds ({@code $1}, ...). */
    public static <T> Flux<T> rows(Connection c, String sql, Function<Row, T> mapper, Object... binds) {
        return Flux.defer(() -> {
            var statement = c.createStatement(sql);
            for (int i = 0; i < binds.length; i++) {
                statement.bind(i, binds[i]);
            }
            return Flux.from(statement.execute()).flatMap(result -> result.map((row, meta) -> mapper.apply(row)));
        });
    }

    /**
     * The same Mono, or empty when the server refuses the query for lack of a grant or because the version
     * has no such view: that part of a reading is then absent rather than the reading failing.
     */
    public static <T> Mono<T> optional(Mono<T> part) {
        return part.onErrorResume(e -> e instanceof R2dbcPermissionDeniedException
                || e instanceof R2dbcBadGrammarException, e -> Mono.empty());
    }

    /** A long column, 0 for null. */
    public static long lng(Row row, int index) {
        Long v = row.get(index, Long.class);
        return v == null ? 0 : v;
    }

    /** A double column, 0 for null. */
    public static double dbl(Row row, int index) {
        Double v = row.get(index, Double.class);
        return v == null ? 0 : v;
    }
}
