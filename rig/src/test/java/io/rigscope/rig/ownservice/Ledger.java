package io.rigscope.rig.ownservice;

import io.r2dbc.postgresql.api.ErrorDetails;
import io.r2dbc.postgresql.api.PostgresqlException;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Readable;
import io.r2dbc.spi.Result;
import io.r2dbc.spi.Statement;
import io.rigscope.rig.ownservice.GraphqlDocument.AddEntry;
import io.rigscope.rig.ownservice.GraphqlDocument.Selection;
import io.rigscope.rig.ownservice.GraphqlDocument.Total;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The ledger service's storage: its one table, {@code ledger_entries}, and how a parsed document runs against it.
 *
 * <p>Atomic: every {@code addEntry} of a request goes into one multi-row INSERT in one transaction; a violation
 * stores nothing, answers null for every field and names the violation, with the path of the field whose row
 * broke it when the database's detail shows which. Per operation: each field is its own INSERT, committed on its
 * own, serially in document order (GraphQL executes mutation fields serially); a failing field answers null with
 * an error of its own and the others are stored.
 *
 * <p>Thread-safe; non-blocking (every method returns a cold {@code Mono} and never fails: a database error is an
 * error in the answer).
 */
final class Ledger {

    static final String SCHEMA = """
            CREATE TABLE IF NOT EXISTS ledger_entries (
                id bigserial PRIMARY KEY,
                account text NOT NULL,
                amount integer NOT NULL CHECK (amount <= 1000),
                ref text NOT NULL UNIQUE,
                created_at timestamptz NOT NULL DEFAULT now())""";

    static final String INSERT_MANY = """
            INSERT INTO ledger_entries (account, amount, ref)
            SELECT u.account, u.amount, u.ref
            FROM unnest($1::text[], $2::int4[], $3::text[]) WITH ORDINALITY AS u (account, amount, ref, n)
            ORDER BY u.n
            RETURNING id, account, amount, ref""";

    static final String INSERT_ONE = """
            INSERT INTO ledger_entries (account, amount, ref) VALUES ($1, $2, $3)
            RETURNING id, account, amount, ref""";

    static final String TOTAL = """
            SELECT count(*) AS count, coalesce(sum(amount), 0) AS sum FROM ledger_entries WHERE account = $1""";

    private static final String CHECK_VIOLATION = "23514";
    private static final String UNIQUE_VIOLATION = "23505";

    private final ConnectionFactory pool;
    private final boolean atomic;

    /**
     * @param pool where connections come from (a bounded pool: each request holds one connection at a time)
     * @param atomic one transaction per request when true, one per field when false
     */
    Ledger(ConnectionFactory pool, boolean atomic) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.atomic = atomic;
    }

    /** Creates the table unless it exists. */
    static Mono<Void> createSchema(ConnectionFactory factory) {
        return Mono.usingWhen(factory.create(),
                c -> Flux.from(c.createStatement(SCHEMA).execute()).flatMap(Result::getRowsUpdated).then(),
                Connection::close);
    }

    /** Runs a document. */
    Mono<GraphqlAnswer> run(GraphqlDocument document) {
        if (document instanceof GraphqlDocument.Mutation m) {
            return atomic ? addAtomically(m.entries()) : addEach(m.entries());
        }
        return totals(((GraphqlDocument.Query) document).totals());
    }

    /** A stored row as RETURNING gives it. */
    private record Stored(long id, String account, int amount, String ref) {
        static Stored of(Readable row) {
            return new Stored(row.get("id", Long.class), row.get("account", String.class),
                    row.get("amount", Integer.class), row.get("ref", String.class));
        }

        Map<String, Object> select(List<Selection> selection) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Selection s : selection) {
                out.put(s.responseKey(), switch (s.name()) {
                    case "id" -> Long.toString(id);   // GraphQL's ID serializes as a String
                    case "account" -> account;
                    case "amount" -> amount;
                    case "ref" -> ref;
                    default -> throw new IllegalStateException("no entry field " + s.name());
                });
            }
            return out;
        }
    }

    private Mono<GraphqlAnswer> addAtomically(List<AddEntry> entries) {
        int n = entries.size();
        String[] accounts = new String[n];
        Integer[] amounts = new Integer[n];
        String[] refs = new String[n];
        for (int i = 0; i < n; i++) {
            accounts[i] = entries.get(i).account();
            amounts[i] = entries.get(i).amount();
            refs[i] = entries.get(i).ref();
        }
        Mono<List<Stored>> stored = Mono.usingWhen(pool.create(),
                c -> Mono.from(c.beginTransaction())
                        .thenMany(Flux.from(bind(c, INSERT_MANY, accounts, amounts, refs).execute())
                                .flatMap(r -> r.map(Stored::of)))
                        .collectList()
                        .flatMap(rows -> Mono.from(c.commitTransaction()).thenReturn(rows))
                        .onErrorResume(e -> Mono.from(c.rollbackTransaction())
                                .onErrorResume(rollbackFailed -> Mono.empty())
                                .then(Mono.error(e))),
                Connection::close);
        return stored.map(rows -> {
            Map<String, Stored> byRef = new HashMap<>();
            rows.forEach(r -> byRef.put(r.ref(), r));
            Map<String, Object> data = new LinkedHashMap<>();
            List<GraphqlAnswer.Error> errors = new ArrayList<>();
            for (AddEntry e : entries) {
                Stored row = byRef.get(e.ref());
                data.put(e.responseKey(), row == null ? null : row.select(e.selection()));
                if (row == null) {
                    errors.add(new GraphqlAnswer.Error("the database returned no row for this entry",
                            List.of(e.responseKey()), 0, 0, Map.of()));
                }
            }
            return new GraphqlAnswer(data, errors);
        }).onErrorResume(e -> {
            Map<String, Object> data = new LinkedHashMap<>();
            entries.forEach(entry -> data.put(entry.responseKey(), null));
            Throwable cause = Exceptions.unwrap(e);
            String culprit = culprit(cause, entries);
            return Mono.just(new GraphqlAnswer(data, List.of(error(cause,
                    culprit == null ? List.of() : List.of(culprit), " (nothing of this request was stored)"))));
        });
    }

    private Mono<GraphqlAnswer> addEach(List<AddEntry> entries) {
        record Outcome(AddEntry entry, Stored row, Throwable failure) {
        }
        Mono<List<Outcome>> outcomes = Flux.usingWhen(pool.create(),
                c -> Flux.fromIterable(entries).concatMap(e ->
                        Flux.from(bind(c, INSERT_ONE, e.account(), e.amount(), e.ref()).execute())
                                .flatMap(r -> r.map(Stored::of))
                                .next()
                                .map(row -> new Outcome(e, row, null))
                                .onErrorResume(x -> Mono.just(new Outcome(e, null, Exceptions.unwrap(x))))),
                Connection::close).collectList();
        return outcomes.map(list -> {
            Map<String, Object> data = new LinkedHashMap<>();
            List<GraphqlAnswer.Error> errors = new ArrayList<>();
            for (Outcome o : list) {
                data.put(o.entry().responseKey(), o.row() == null ? null : o.row().select(o.entry().selection()));
                if (o.row() == null) {
                    errors.add(o.failure() == null
                            ? new GraphqlAnswer.Error("the database returned no row for this entry",
                                    List.of(o.entry().responseKey()), 0, 0, Map.of())
                            : error(o.failure(), List.of(o.entry().responseKey()), ""));
                }
            }
            return new GraphqlAnswer(data, errors);
        }).onErrorResume(e -> allFailed(entries.stream().map(AddEntry::responseKey).toList(), e));
    }

    private Mono<GraphqlAnswer> totals(List<Total> totals) {
        record Outcome(Total total, Map<String, Object> value, Throwable failure) {
        }
        Mono<List<Outcome>> outcomes = Flux.usingWhen(pool.create(),
                c -> Flux.fromIterable(totals).concatMap(t ->
                        Flux.from(bind(c, TOTAL, t.account()).execute())
                                .flatMap(r -> r.map(row -> select(t.selection(), row.get("count", Long.class),
                                        row.get("sum", Long.class))))
                                .next()
                                .map(v -> new Outcome(t, v, null))
                                .onErrorResume(x -> Mono.just(new Outcome(t, null, Exceptions.unwrap(x))))),
                Connection::close).collectList();
        return outcomes.map(list -> {
            Map<String, Object> data = new LinkedHashMap<>();
            List<GraphqlAnswer.Error> errors = new ArrayList<>();
            for (Outcome o : list) {
                data.put(o.total().responseKey(), o.value());
                if (o.failure() != null) {
                    errors.add(error(o.failure(), List.of(o.total().responseKey()), ""));
                }
            }
            return new GraphqlAnswer(data, errors);
        }).onErrorResume(e -> allFailed(totals.stream().map(Total::responseKey).toList(), e));
    }

    private static Map<String, Object> select(List<Selection> selection, long count, long sum) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Selection s : selection) {
            out.put(s.responseKey(), s.name().equals("count") ? count : sum);
        }
        return out;
    }

    /** No connection (or it broke between fields): every field null, each with the error. */
    private static Mono<GraphqlAnswer> allFailed(List<String> keys, Throwable e) {
        Throwable cause = Exceptions.unwrap(e);
        Map<String, Object> data = new LinkedHashMap<>();
        List<GraphqlAnswer.Error> errors = new ArrayList<>();
        for (String key : keys) {
            data.put(key, null);
            errors.add(error(cause, List.of(key), ""));
        }
        return Mono.just(new GraphqlAnswer(data, errors));
    }

    private static GraphqlAnswer.Error error(Throwable e, List<Object> path, String suffix) {
        if (e instanceof PostgresqlException pg) {
            ErrorDetails d = pg.getErrorDetails();
            Map<String, Object> ext = new LinkedHashMap<>();
            ext.put("sqlstate", d.getCode());
            d.getConstraintName().ifPresent(c -> ext.put("constraint", c));
            d.getDetail().ifPresent(detail -> ext.put("detail", detail));
            return new GraphqlAnswer.Error(d.getMessage() + suffix, path, 0, 0, ext);
        }
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
        return new GraphqlAnswer.Error("database: " + m + suffix, path, 0, 0, Map.of());
    }

    /**
     * Which field's row broke a constraint of a multi-row INSERT, from what the database says about it: a CHECK
     * violation's "Failing row contains (id, account, amount, ref, created_at)" (Postgres shortens a value past 64
     * bytes there, so a row with a long account or ref may go unnamed), a unique violation's "Key (ref)=(...)
     * already exists" (the second of two entries with that ref, or the one entry whose ref was stored before).
     *
     * @return the field's response key, or null when the detail does not show it
     */
    static String culprit(Throwable e, List<AddEntry> entries) {
        if (!(e instanceof PostgresqlException pg)) {
            return null;
        }
        ErrorDetails d = pg.getErrorDetails();
        String detail = d.getDetail().orElse("");
        if (CHECK_VIOLATION.equals(d.getCode())) {
            for (AddEntry entry : entries) {
                if (detail.contains(", " + entry.account() + ", " + entry.amount() + ", " + entry.ref() + ", ")) {
                    return entry.responseKey();
                }
            }
            return null;
        }
        String prefix = "Key (ref)=(";
        String suffix = ") already exists.";
        if (UNIQUE_VIOLATION.equals(d.getCode()) && detail.startsWith(prefix) && detail.endsWith(suffix)) {
            String ref = detail.substring(prefix.length(), detail.length() - suffix.length());
            List<AddEntry> same = entries.stream().filter(entry -> entry.ref().equals(ref)).toList();
            return same.isEmpty() ? null : same.get(Math.min(1, same.size() - 1)).responseKey();
        }
        return null;
    }

    private static Statement bind(Connection c, String sql, Object... args) {
        Statement st = c.createStatement(sql);
        for (int i = 0; i < args.length; i++) {
            st.bind(i, args[i]);
        }
        return st;
    }
}
