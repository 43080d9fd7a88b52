package io.rigscope.rig.bringup;

import io.rigscope.generator.body.BodyRenderer;
import io.rigscope.generator.body.RequestBody;
import io.rigscope.generator.plan.Scenario;
import io.rigscope.model.wire.DatabaseGain;
import io.rigscope.pg.PgUrl;
import io.rigscope.rig.reconciliation.Reconciliation;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bring-up's {@code write-through} for a service rigscope did not write: one request of the series' ingest
 * scenario, rendered as the load will render it, sent with its headers, judged by its check (or its status), and
 * then found in the database by the series' own {@code reconciliation_sql} over the request's window. A service
 * that answers success and stores nothing, or a reconciliation SQL that does not see what the service stores,
 * fails here, before any load.
 *
 * <p>Blocking; not for event loops.
 */
public final class ServiceWriteThrough {

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
    public BringUpChecks.CheckResult run() {
        if (ingest.body() == null) {
            return BringUpChecks.CheckResult.fail("write-through", "the ingest scenario has no body: nothing to write");
        }
        List<String> refused = new ArrayList<>();
        for (int attempt = 1; ; attempt++) {
            Attempt a = attempt();
            if (a.refusal() == null) {
                if (refused.isEmpty() || !a.result().ok()) {
                    return a.result();
                }
                return BringUpChecks.CheckResult.pass("write-through", a.result().detail() + " (request " + attempt + " of "
                        + ATTEMPTS + "; before it: " + once(refused) + ")");
            }
            refused.add(a.refusal());
            if (attempt == ATTEMPTS) {
                return BringUpChecks.CheckResult.fail("write-through", ATTEMPTS + " requests, each failing its check: "
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
    private record Attempt(BringUpChecks.CheckResult result, String refusal) {
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
        return new Attempt(BringUpChecks.CheckResult.fail("write-through", detail), null);
    }

    private static Attempt passed(String detail) {
        return new Attempt(BringUpChecks.CheckResult.pass("write-through", detail), null);
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
