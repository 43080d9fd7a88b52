package io.rigscope.sut.db;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Readable;
import io.r2dbc.spi.Result;
import io.r2dbc.spi.Statement;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Small helpers for running statements over R2DBC: a connection opened and closed around the work, binds
 * by position ({@code $1, $2, ...}), every result drained.
 *
 * <p>The {@code block...} methods are for tools and tests on ordinary threads, never for event loops; each
 * takes a timeout.
 */
public final class Sql {

    private Sql() {
    }

    /** Runs {@code work} on a connection of {@code factory}, closing it afterwards whatever happens. */
    public static <T> Flux<T> withConnection(ConnectionFactory factory, Function<Connection, Flux<T>> work) {
        return Flux.usingWhen(factory.create(), work, Connection::close);
    }

    /** A statement with its positional arguments bound (a null argument must not be passed). */
    public static Statement bind(Connection c, String sql, Object... args) {
        Statement st = c.createStatement(sql);
        for (int i = 0; i < args.length; i++) {
            st.bind(i, args[i]);
        }
        return st;
    }

    /** Executes and sums the rows updated over every result (also drains multi-statement scripts). */
    public static Mono<Long> update(Connection c, String sql, Object... args) {
        Statement st = args.length == 0 ? c.createStatement(sql) : bind(c, sql, args);
        return Flux.from(st.execute()).flatMap(Result::getRowsUpdated).reduce(0L, Long::sum);
    }

    /** Executes and maps every row. */
    public static <T> Flux<T> query(Connection c, String sql, Function<Readable, T> mapper, Object... args) {
        Statement st = args.length == 0 ? c.createStatement(sql) : bind(c, sql, args);
        return Flux.from(st.execute()).flatMap(r -> r.map(mapper::apply));
    }

    /** Blocking: every row of a query on a fresh connection. */
    public static <T> List<T> blockList(ConnectionFactory factory, Duration timeout, String sql,
                                        Function<Readable, T> mapper, Object... args) {
        return withConnection(factory, c -> query(c, sql, mapper, args)).collectList().block(timeout);
    }

    /** Blocking: runs a statement (or a script, when no arguments) on a fresh connection; rows updated. */
    public static long blockUpdate(ConnectionFactory factory, Duration timeout, String sql, Object... args) {
        Long n = withConnection(factory, c -> update(c, sql, args).flux()).blockLast(timeout);
        return n == null ? 0 : n;
    }

    /** A number column as a long (count, sum over bigint arrives as numeric); null reads as 0. */
    public static long longOf(Readable row, String column) {
        Object v = row.get(column);
        return v == null ? 0L : ((Number) v).longValue();
    }
}
