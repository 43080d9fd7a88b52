package io.rigscope.rig.bringup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.r2dbc.spi.ConnectionFactory;
import io.rigscope.pg.PgUrl;
import io.rigscope.rig.reconciliation.Reconciliation;
import io.rigscope.sut.SutContract;
import io.rigscope.sut.db.Sql;
import io.rigscope.sut.schema.Migrations;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import io.rigscope.generator.body.BodyRenderer;
import io.rigscope.generator.body.RequestBody;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.model.wire.DatabaseGain;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The checks a series must pass before any load is offered. Each yields a {@link CheckResult}; a run refuses to
 * continue unless {@link CheckResult#allPassed} (see docs/protocol.md):
 * <ol>
 *   <li>{@code schema}: every migration this build ships is recorded in {@code schema_migrations}, none
 *       changed since (checksums match) and none unknown to this build.</li>
 *   <li>{@code app-role}: the app role exists, logs in, is neither a superuser nor the owner of
 *       the events table, and holds every grant the service needs ({@link #REQUIRED_GRANTS}).</li>
 *   <li>{@code write-through}: one batch of {@link Spec#batchEvents} events POSTed to the SUT is answered
 *       2xx with {@code written} equal to the batch, and the configured count SQL finds exactly that many
 *       rows. A 2xx that wrote no row (or fewer rows than it claimed) fails here.</li>
 * </ol>
 *
 * <p>Blocking; not for event loops.
 */
public final class BringUpChecks {

    /** The count SQL used unless configured: rows whose idempotency key starts with the check's prefix. */
    public static final String DEFAULT_COUNT_SQL = SutContract.WRITE_THROUGH_COUNT_SQL;

    /** Events in the write-through batch unless configured. */
    public static final int DEFAULT_BATCH_EVENTS = 100;

    /** (object, privilege) pairs the app role must hold; a column privilege names its column. */
    public static final List<Map.Entry<String, String>> REQUIRED_GRANTS = SutContract.APP_GRANTS;

    /**
     * What to check.
     *
     * @param owner the database as the schema owner (or any role that may read the catalogs)
     * @param appUser the role the SUT connects as
     * @param appPassword its password, or null
     * @param sutBase the SUT's base URL, e.g. {@code http://127.0.0.1:8080}
     * @param apiKey the bearer token to post with
     * @param batchEvents events in the write-through batch (1..10,000)
     * @param countSql SQL returning one row with the row count in its first column; may use {@code :key_prefix}
     */
    public record Spec(PgUrl owner, String appUser, String appPassword, URI sutBase, String apiKey, int batchEvents,
                       String countSql) {
        public Spec {
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(appUser, "appUser");
            Objects.requireNonNull(sutBase, "sutBase");
            Objects.requireNonNull(apiKey, "apiKey");
            Objects.requireNonNull(countSql, "countSql");
            if (batchEvents < 1 || batchEvents > 10_000) {
                throw new IllegalArgumentException("the bring-up batch must be 1..10000 events, got " + batchEvents);
            }
        }

        /** The reference SUT's checks: app role rigscope_app (no password), the demo key, 100 events, the default count SQL. */
        public static Spec defaults(PgUrl owner, URI sutBase) {
            return new Spec(owner, Migrations.APP_ROLE, null, sutBase, io.rigscope.sut.schema.Provisioning.DEMO_API_KEY,
                    DEFAULT_BATCH_EVENTS, DEFAULT_COUNT_SQL);
        }
    }

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Spec spec;
    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public BringUpChecks(Spec spec) {
        this.spec = spec;
    }

    /** Runs every check, in order, and returns one result per check. */
    public List<CheckResult> run() {
        ConnectionFactory owner = spec.owner().connectionFactory("rigscope-bringup");
        List<CheckResult> results = new ArrayList<>();
        results.add(schema(owner));
        results.add(appRole(owner));
        results.add(writeThrough(owner));
        return List.copyOf(results);
    }

    CheckResult schema(ConnectionFactory owner) {
        try {
            Migrations.Status s = Migrations.shipped().status(owner);
            if (!s.tableExists()) {
                return CheckResult.fail("schema", "not migrated: no schema_migrations table in " + spec.owner()
                        + "; run `rigscope sut --pg URL --migrate` first");
            }
            if (!s.clean()) {
                List<String> what = new ArrayList<>();
                if (!s.missing().isEmpty()) {
                    what.add("not applied: " + versions(s.missing()));
                }
                if (!s.changed().isEmpty()) {
                    what.add("changed since applied: " + versions(s.changed()));
                }
                if (!s.unknown().isEmpty()) {
                    what.add("unknown to this build: " + versions(s.unknown()));
                }
                return CheckResult.fail("schema", "not clean: " + String.join("; ", what));
            }
            return CheckResult.pass("schema", Migrations.shipped().all().size() + " migrations applied, checksums match");
        } catch (RuntimeException e) {
            return CheckResult.fail("schema", "cannot read the schema state: " + message(e));
        }
    }

    CheckResult appRole(ConnectionFactory owner) {
        String role = spec.appUser();
        try {
            List<Object[]> attrs = Sql.blockList(owner, TIMEOUT,
                    "SELECT rolsuper, rolcanlogin, (SELECT tableowner FROM pg_tables WHERE tablename = $2"
                            + " AND schemaname = current_schema() LIMIT 1) AS owner FROM pg_roles WHERE rolname = $1",
                    r -> new Object[] {r.get("rolsuper", Boolean.class), r.get("rolcanlogin", Boolean.class),
                        r.get("owner", String.class)}, role, SutContract.EVENTS_TABLE);
            if (attrs.isEmpty()) {
                return CheckResult.fail("app-role", "role " + role + " does not exist; run `rigscope sut --migrate`");
            }
            Object[] a = attrs.get(0);
            List<String> problems = new ArrayList<>();
            if (Boolean.TRUE.equals(a[0])) {
                problems.add(role + " is a superuser");
            }
            if (!Boolean.TRUE.equals(a[1])) {
                problems.add(role + " cannot log in");
            }
            if (role.equals(a[2])) {
                problems.add(role + " owns " + SutContract.EVENTS_TABLE + " (the app role must be separate from the owner)");
            }
            for (var grant : REQUIRED_GRANTS) {
                String object = grant.getKey();
                boolean held;
                if (object.contains(".")) {
                    String[] tc = object.split("\\.", 2);
                    held = Boolean.TRUE.equals(Sql.blockList(owner, TIMEOUT,
                            "SELECT has_column_privilege($1::name, to_regclass($2::text)::oid, $3::text, $4::text) AS ok",
                            r -> r.get("ok", Boolean.class), role, tc[0], tc[1], grant.getValue()).get(0));
                } else {
                    held = Boolean.TRUE.equals(Sql.blockList(owner, TIMEOUT,
                            "SELECT to_regclass($2::text) IS NOT NULL AND has_table_privilege($1::name, to_regclass($2::text)::oid, $3::text) AS ok",
                            r -> r.get("ok", Boolean.class), role, object, grant.getValue()).get(0));
                }
                if (!held) {
                    problems.add(role + " lacks " + grant.getValue() + " on " + object);
                }
            }
            if (problems.isEmpty()) {
                try {
                    Sql.blockList(spec.owner().as(role, spec.appPassword()).connectionFactory("rigscope-bringup"),
                            TIMEOUT, "SELECT count(*) AS n FROM meters", r -> Sql.longOf(r, "n"));
                } catch (RuntimeException e) {
                    problems.add(role + " cannot connect and read: " + message(e));
                }
            }
            return problems.isEmpty()
                    ? CheckResult.pass("app-role", role + " logs in, is not the owner, holds the " + REQUIRED_GRANTS.size()
                            + " grants it needs")
                    : CheckResult.fail("app-role", String.join("; ", problems));
        } catch (RuntimeException e) {
            return CheckResult.fail("app-role", "cannot check role " + role + ": " + message(e));
        }
    }

    CheckResult writeThrough(ConnectionFactory owner) {
        String prefix = "bringup-" + Long.toString(System.currentTimeMillis(), 36) + "-";
        ObjectNode body = json.createObjectNode();
        ArrayNode events = body.putArray("events");
        String now = Instant.now().toString();
        for (int i = 0; i < spec.batchEvents(); i++) {
            ObjectNode e = events.addObject();
            e.put("idempotency_key", prefix + i);
            e.put("customer_id", "bringup");
            e.put("meter", "api_calls");
            e.put("quantity", 1);
            e.put("timestamp", now);
            e.putObject("properties").put("check", "bring-up");
        }
        HttpResponse<String> res;
        try {
            res = http.send(HttpRequest.newBuilder(spec.sutBase().resolve("/v1/usage-events"))
                    .header("Authorization", "Bearer " + spec.apiKey())
                    .header("Content-Type", "application/json")
                    .timeout(TIMEOUT)
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return CheckResult.fail("write-through", "cannot POST to " + spec.sutBase() + ": " + message(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CheckResult.fail("write-through", "interrupted while posting the bring-up batch");
        }
        if (res.statusCode() / 100 != 2) {
            return CheckResult.fail("write-through", "POST /v1/usage-events answered " + res.statusCode() + ": "
                    + abbreviate(res.body()));
        }
        long claimed;
        try {
            JsonNode written = json.readTree(res.body()).get("written");
            claimed = written == null ? -1 : written.asLong(-1);
        } catch (IOException e) {
            claimed = -1;
        }
        long rows;
        try {
            Reconciliation.NamedSql sql = Reconciliation.NamedSql.parse(spec.countSql());
            List<Long> counts = Sql.blockList(owner, TIMEOUT, sql.sql(),
                    r -> ((Number) r.get(0)).longValue(), sql.args(Map.of("key_prefix", prefix)));
            rows = counts.isEmpty() ? 0 : counts.get(0);
        } catch (RuntimeException e) {
            return CheckResult.fail("write-through", "the count SQL failed: " + message(e));
        }
        int sent = spec.batchEvents();
        if (rows == 0) {
            return CheckResult.fail("write-through", "a " + res.statusCode() + " that wrote no row: posted " + sent
                    + " events, answered written=" + claimed + ", the database has 0 rows with keys " + prefix + "*");
        }
        if (rows != sent || claimed != sent) {
            return CheckResult.fail("write-through", "posted " + sent + " events, answered written=" + claimed
                    + ", the database has " + rows + " rows with keys " + prefix + "*");
        }
        return CheckResult.pass("write-through", "posted " + sent + " events, answered " + res.statusCode()
                + " written=" + claimed + ", found " + rows + " rows");
    }

    private static String versions(List<Integer> v) {
        return String.join(", ", v.stream().map(x -> String.format("V%03d", x)).toList());
    }

    private static String message(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
    }

    private static String abbreviate(String s) {
        return s == null ? "" : s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    /**
     * The outcome of one bring-up check.
     *
     * @param check the check's name ({@code schema}, {@code app-role}, {@code write-through})
     * @param ok true when the check passed
     * @param detail what was found; for a failure, what is wrong and how to fix it
     */
    public record CheckResult(String check, boolean ok, String detail) {

        public CheckResult {
            Objects.requireNonNull(check, "check");
            Objects.requireNonNull(detail, "detail");
        }

        public static CheckResult pass(String check, String detail) {
            return new CheckResult(check, true, detail);
        }

        public static CheckResult fail(String check, String detail) {
            return new CheckResult(check, false, detail);
        }

        /** True when every check passed (and there is at least one). */
        public static boolean allPassed(List<CheckResult> results) {
            return !results.isEmpty() && results.stream().allMatch(CheckResult::ok);
        }

        @Override
        public String toString() {
            return (ok ? "ok   " : "FAIL ") + check + ": " + detail;
        }
    }

    /**
     * The bring-up's {@code write-through} for a service rigscope did not write: one request of the series' ingest
     * scenario, rendered as the load will render it, sent with its headers, judged by its check (or its status), and
     * then found in the database by the series' own {@code reconciliation_sql} over the request's window. A service
     * that answers success and stores nothing, or a reconciliation SQL that does not see what the service stores,
     * fails here, before any load.
     *
     * <p>Blocking; not for event loops.
     */
    public static final class ServiceWriteThrough {

        private static final Duration TIMEOUT = Duration.ofSeconds(30);
        /** How long a row may take to become visible after the answer (a service that writes behind its answer). */
        private static final Duration SETTLE = Duration.ofSeconds(5);

        private final Scenario ingest;
        private final PgUrl database;
        private final String reconciliationSql;
        private final AtomicLong seriesCounter;
        private final Clock clock;

        /**
         * @param ingest the series' ingest scenario (its body says how many events one request carries)
         * @param database where the reconciliation SQL runs
         * @param reconciliationSql the series' SQL ({@code :window_start}, {@code :window_end})
         * @param seriesCounter the series' {@code ${seq}} counter, so the load's values follow the bring-up's
         */
        public ServiceWriteThrough(Scenario ingest, PgUrl database, String reconciliationSql, AtomicLong seriesCounter) {
            this.seriesCounter = Objects.requireNonNull(seriesCounter, "seriesCounter");
            this.ingest = Objects.requireNonNull(ingest, "ingest");
            this.database = Objects.requireNonNull(database, "database");
            this.reconciliationSql = Objects.requireNonNull(reconciliationSql, "reconciliationSql");
            this.clock = Clock.systemUTC();
        }

        /**
         * Sends one request and looks for its rows. A request whose answer fails its check is tried again with newly
         * drawn values, up to {@link #ATTEMPTS} requests (drawn values may be ones the service refuses, as a series
         * provoking refusals draws them on purpose); each refusal is named in the result.
         */
        public CheckResult run() {
            if (ingest.body() == null) {
                return CheckResult.fail("write-through", "the ingest scenario has no body: nothing to write");
            }
            List<String> refused = new ArrayList<>();
            for (int attempt = 1; ; attempt++) {
                Attempt a = attempt();
                if (a.refusal() == null) {
                    if (refused.isEmpty() || !a.result().ok()) {
                        return a.result();
                    }
                    return CheckResult.pass("write-through", a.result().detail() + " (request " + attempt + " of "
                            + ATTEMPTS + "; before it: " + once(refused) + ")");
                }
                refused.add(a.refusal());
                if (attempt == ATTEMPTS) {
                    return CheckResult.fail("write-through", ATTEMPTS + " requests, each failing its check: "
                            + once(refused));
                }
            }
        }

        /** Each distinct refusal once, in first-seen order, with its count when it repeated: {@code ... (5 times)}. */
        static String once(List<String> refusals) {
            java.util.Map<String, Integer> counts = new java.util.LinkedHashMap<>();
            refusals.forEach(r -> counts.merge(r, 1, Integer::sum));
            List<String> out = new ArrayList<>();
            counts.forEach((r, n) -> out.add(n == 1 ? r : r + " (" + n + " times)"));
            return String.join("; ", out);
        }

        /** Requests the bring-up may send when answers fail their check. */
        public static final int ATTEMPTS = 5;

        /** One request's result, or the reason its answer failed the check (then the result is null). */
        private record Attempt(CheckResult result, String refusal) {
        }

        private Attempt attempt() {
            RequestBody body = new BodyRenderer(ingest.body(), "bringup-" + Long.toString(System.currentTimeMillis(), 36)
                    + "-", seriesCounter).render(0);
            Instant start = clock.instant().minusMillis(1);
            HttpRequest.Builder request = HttpRequest.newBuilder(ingest.url()).timeout(TIMEOUT)
                    .method(ingest.method(), HttpRequest.BodyPublishers.ofByteArray(body.bytes()));
            ingest.sendHeaders().forEach((k, v) -> {
                if (!java.util.Set.of("content-length", "host", "connection", "expect", "upgrade")
                        .contains(k.toLowerCase(java.util.Locale.ROOT))) { // the JDK client sets these itself
                    request.header(k, v);
                }
            });
            HttpResponse<byte[]> res;
            try {
                res = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()
                        .send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (ConnectException e) {
                return failed("connection refused by " + ingest.url()
                        + ": is the service running there?");
            } catch (IOException e) {
                return failed("cannot " + ingest.method() + " " + ingest.url() + ": "
                        + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return failed("interrupted while sending the bring-up request");
            }
            String answered = ingest.method() + " " + ingest.url() + " answered " + res.statusCode();
            String failure = ingest.check() != null ? ingest.check().failure(res.statusCode(), res.body(), false)
                    : res.statusCode() / 100 == 2 ? null : "status " + res.statusCode() + " is not 2xx";
            Reconciliation reconciliation = new Reconciliation(database, reconciliationSql);
            if (failure != null) {
                return new Attempt(null, answered + ", which fails its check (" + failure + "): "
                        + abbreviate(new String(res.body(), StandardCharsets.UTF_8)) + storedAnyway(reconciliation, start));
            }
            Instant deadline = clock.instant().plus(SETTLE);
            DatabaseGain gain;
            while (true) {
                Instant end = clock.instant().plusMillis(1);
                try {
                    // counted here, never published: the bring-up is no repeat
                    gain = reconciliation.count("bring-up", 1, "rig", end.toEpochMilli() * 1000, "bring-up",
                            new Reconciliation.Window(start, end));
                } catch (RuntimeException e) {
                    return failed("the reconciliation_sql failed: " + e.getMessage());
                }
                if (gain.rowsWritten() >= body.batch() || clock.instant().isAfter(deadline)) {
                    break;
                }
                sleep();
            }
            String posted = "posted " + body.batch() + " event(s) (Σ quantity " + body.quantity() + "), " + answered;
            if (gain.rowsWritten() == 0) {
                return failed(posted + ", and reconciliation_sql found 0 rows in the request's "
                        + "window within " + SETTLE.toSeconds() + " s: the service stored nothing, or the SQL does not "
                        + "count what it stores");
            }
            if (gain.rowsWritten() != body.batch() || gain.qtySumGained() != body.quantity()) {
                return failed(posted + ", and reconciliation_sql found " + gain.rowsWritten()
                        + " rows, Σ quantity " + gain.qtySumGained() + " (something else writes to the table, or the SQL "
                        + "counts other rows)");
            }
            return passed(posted + ", reconciliation_sql found " + gain.rowsWritten()
                    + " rows, Σ quantity " + gain.qtySumGained());
        }

        /**
         * {@code , yet the service stored 10 row(s) of it} when the request's window gained rows although its answer
         * failed the check (a check stricter than the service: {@code status: [201]} against a service answering 200);
         * empty when it gained none or cannot be counted.
         */
        private String storedAnyway(Reconciliation reconciliation, Instant start) {
            try {
                Instant end = clock.instant().plusMillis(1);
                long rows = reconciliation.count("bring-up", 1, "rig", end.toEpochMilli() * 1000, "bring-up",
                        new Reconciliation.Window(start, end)).rowsWritten();
                return rows > 0 ? "; yet the service stored " + rows + " row(s) of it: the check refuses what the "
                        + "service keeps (is the check's status the one the service answers?)" : "";
            } catch (RuntimeException e) {
                return "";
            }
        }

        private static Attempt failed(String detail) {
            return new Attempt(CheckResult.fail("write-through", detail), null);
        }

        private static Attempt passed(String detail) {
            return new Attempt(CheckResult.pass("write-through", detail), null);
        }

        private static void sleep() {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static String abbreviate(String s) {
            String one = s.replaceAll("\\s+", " ");
            return one.length() > 200 ? one.substring(0, 200) + "..." : one;
        }
    }
}
