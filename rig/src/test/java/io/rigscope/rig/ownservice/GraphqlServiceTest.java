package io.rigscope.rig.ownservice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rigscope.localenv.testing.Postgres;
import io.rigscope.pg.PgUrl;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ledger service, each mode in a JVM of its own on a database of its own in one private cluster, spoken to as
 * any client would: over HTTP, checking what it answers against what the database holds.
 */
@Tag("it")
class GraphqlServiceTest {

    @RegisterExtension
    static final Postgres pg = new Postgres();

    private static final String TOKEN = "ledger-test-token";
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final ObjectMapper JSON_OF_YAML = new YAMLMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();

    private static GraphqlServiceProcess atomic;
    private static GraphqlServiceProcess perOperation;

    @BeforeAll
    static void startBothModes() {
        pg.psql("postgres", "CREATE DATABASE atomic_ledger");
        pg.psql("postgres", "CREATE DATABASE per_operation_ledger");
        atomic = GraphqlServiceProcess.start(GraphqlServiceProcess.Spec.of(url("atomic_ledger"), TOKEN));
        perOperation = GraphqlServiceProcess.start(GraphqlServiceProcess.Spec.of(url("per_operation_ledger"), TOKEN)
                .withAtomic(false));
    }

    @AfterAll
    static void stopBoth() {
        if (atomic != null) {
            atomic.close();
        }
        if (perOperation != null) {
            perOperation.close();
        }
    }

    @Test
    void aThreeAliasMutationStoresThreeRowsAndAnswersEachUnderItsAlias() throws Exception {
        JsonNode answer = graphql(atomic, "mutation { "
                + "e0: addEntry(account: \"three\", amount: 5, ref: \"three-0\") { id } "
                + "e1: addEntry(account: \"three\", amount: 6, ref: \"three-1\") { id account } "
                + "e2: addEntry(account: \"three\", amount: 7, ref: \"three-2\") { id } }");
        assertThat(answer.has("errors")).as(answer.toString()).isFalse();
        JsonNode data = answer.get("data");
        assertThat(data.get("e0").get("id").asText()).matches("\\d+");
        assertThat(data.get("e1").get("account").asText()).isEqualTo("three");
        assertThat(data.get("e2").get("id").asLong()).isGreaterThan(data.get("e0").get("id").asLong());
        assertThat(rows("atomic_ledger", "three")).isEqualTo("3|18");
    }

    @Test
    void anAmountOverTheCheckStoresNothingOfItsRequestWhenAtomic() throws Exception {
        JsonNode answer = graphql(atomic, batchWithOneTooLarge("atomic-over"));
        assertThat(answer.get("data").get("e0").isNull()).as(answer.toString()).isTrue();
        assertThat(answer.get("data").get("e1").isNull()).isTrue();
        assertThat(answer.get("data").get("e2").isNull()).isTrue();
        assertThat(answer.get("errors")).hasSize(1);
        JsonNode error = answer.get("errors").get(0);
        assertThat(error.get("path").toString()).isEqualTo("[\"e1\"]");
        assertThat(error.get("message").asText()).contains("ledger_entries_amount_check");
        assertThat(error.get("extensions").get("sqlstate").asText()).isEqualTo("23514");
        assertThat(rows("atomic_ledger", "atomic-over")).isEqualTo("0|0");
    }

    @Test
    void anAmountOverTheCheckFailsOnlyItsOwnFieldPerOperation() throws Exception {
        JsonNode answer = graphql(perOperation, batchWithOneTooLarge("per-op-over"));
        assertThat(answer.get("data").get("e0").get("id").asText()).as(answer.toString()).matches("\\d+");
        assertThat(answer.get("data").get("e1").isNull()).isTrue();
        assertThat(answer.get("data").get("e2").get("id").asText()).matches("\\d+");
        assertThat(answer.get("errors")).hasSize(1);
        assertThat(answer.get("errors").get(0).get("path").toString()).isEqualTo("[\"e1\"]");
        assertThat(rows("per_operation_ledger", "per-op-over")).isEqualTo("2|12");
    }

    @Test
    void aRefUsedTwiceInOneRequestIsAViolationNamedWhereItRepeats() throws Exception {
        JsonNode answer = graphql(atomic, "mutation { "
                + "a: addEntry(account: \"twice\", amount: 1, ref: \"twice-ref\") { id } "
                + "b: addEntry(account: \"twice\", amount: 2, ref: \"twice-ref\") { id } }");
        assertThat(answer.get("errors").get(0).get("path").toString()).as(answer.toString()).isEqualTo("[\"b\"]");
        assertThat(answer.get("errors").get(0).get("extensions").get("sqlstate").asText()).isEqualTo("23505");
        assertThat(rows("atomic_ledger", "twice")).isEqualTo("0|0");
    }

    @Test
    void theTotalQueryAnswersTheCountAndSumOfOneAccount() throws Exception {
        graphql(perOperation, "mutation { "
                + "e0: addEntry(account: \"totalled\", amount: 40, ref: \"totalled-0\") { id } "
                + "e1: addEntry(account: \"totalled\", amount: 2, ref: \"totalled-1\") { id } }");
        JsonNode answer = graphql(perOperation, "query { total(account: \"totalled\") { count sum } "
                + "none: total(account: \"nobody\") { count sum } }");
        assertThat(answer.has("errors")).as(answer.toString()).isFalse();
        assertThat(answer.get("data").toString())
                .isEqualTo("{\"total\":{\"count\":2,\"sum\":42},\"none\":{\"count\":0,\"sum\":0}}");
    }

    @Test
    void aRequestWithoutTheRightTokenIs401WithAJsonError() throws Exception {
        String query = "{ total(account: \"a\") { count } }";
        for (String authorization : new String[] {null, "Bearer wrong", TOKEN}) {
            HttpResponse<String> res = post(atomic, body(query), authorization);
            assertThat(res.statusCode()).as(String.valueOf(authorization)).isEqualTo(401);
            assertThat(res.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(JSON.readTree(res.body()).get("errors").get(0).get("message").asText()).contains("token");
        }
    }

    @Test
    void aMalformedQueryIs200WithErrorsAndStoresNothing() throws Exception {
        HttpResponse<String> res = post(atomic, body("mutation { e0: addEntry(account: \"malformed\", amount: 5"),
                "Bearer " + TOKEN);
        assertThat(res.statusCode()).isEqualTo(200);
        JsonNode answer = JSON.readTree(res.body());
        assertThat(answer.has("data")).as(res.body()).isFalse();   // refused before it ran: GraphQL gives no data
        assertThat(answer.get("errors").get(0).get("message").asText()).contains("not closed");
        assertThat(answer.get("errors").get(0).get("locations").get(0).get("line").asInt()).isEqualTo(1);
        assertThat(rows("atomic_ledger", "malformed")).isEqualTo("0|0");
    }

    @Test
    void aBodyThatIsNotAJsonGraphqlRequestIs400() throws Exception {
        for (String body : new String[] {"mutation { }", "{\"query\": 5}", "", "{\"query\": \"{ }\"} trailing"}) {
            HttpResponse<String> res = post(atomic, body, "Bearer " + TOKEN);
            assertThat(res.statusCode()).as(body).isEqualTo(400);
            assertThat(JSON.readTree(res.body()).get("errors").get(0).get("message").asText()).as(body).isNotBlank();
        }
    }

    @Test
    void theServiceRunsInAJvmOfItsOwnOpenWithoutATokenAndIsGoneAfterClose() throws Exception {
        pg.psql("postgres", "CREATE DATABASE open_ledger");
        ProcessHandle child;
        GraphqlServiceProcess open = GraphqlServiceProcess.start(GraphqlServiceProcess.Spec.of(url("open_ledger"), null));
        try (open) {
            assertThat(open.pid()).isNotEqualTo(ProcessHandle.current().pid());
            child = ProcessHandle.of(open.pid()).orElseThrow();
            assertThat(child.info().arguments().map(a -> String.join(" ", a)).orElse(""))
                    .doesNotContain("postgresql://");
            HttpResponse<String> res = post(open, body("mutation { addEntry(account: \"open\", amount: 1, ref: \"o\") "
                    + "{ id } }"), null);
            assertThat(res.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(res.body()).has("errors")).as(res.body()).isFalse();
        }
        assertThat(child.isAlive()).isFalse();
        assertThat(Files.readString(open.logFile())).contains("listening on http://127.0.0.1:");
        assertThat(pg.psql("open_ledger", "SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                + "WHERE conrelid = 'ledger_entries'::regclass AND contype = 'c'")).isEqualTo("CHECK ((amount <= 1000))");
    }

    @Test
    void theSeriesFilesIngestBodyIsABatchTheServiceStoresWhole() throws Exception {
        JsonNode ingest = scenario(seriesFile("/ownservice/graphql-series.yaml"), "ingest");
        HttpResponse<String> res = send(ingest, eventsOf(ingest.get("body"), "file-ok", 7));
        assertPassesItsCheck(ingest, res);
        assertThat(rows("atomic_ledger", "file-ok")).isEqualTo(ingest.get("body").get("batch").asInt() + "|70");
    }

    @Test
    void theSeriesFilesProbeBodyIsAQueryTheServiceAnswers() throws Exception {
        JsonNode probe = scenario(seriesFile("/ownservice/graphql-series.yaml"), "probe");
        HttpResponse<String> res = send(probe, probe.get("body").get("envelope").asText());
        assertPassesItsCheck(probe, res);
        assertThat(JSON.readTree(res.body()).get("data").get("total").get("count").isNumber()).isTrue();
    }

    @Test
    void anAmountOverTheCheckInTheConstraintFileFailsItsRequestsCheck() throws Exception {
        JsonNode ingest = scenario(seriesFile("/ownservice/graphql-series-constraint.yaml"), "ingest");
        assertThat(ingest.get("body").get("quantity").get("max").asInt()).isGreaterThan(1000);
        HttpResponse<String> res = send(ingest, eventsOf(ingest.get("body"), "file-over", 1001));
        assertThat(res.statusCode()).isEqualTo(200);   // GraphQL: the status passes, the body check must not
        assertThat(res.body()).contains(ingest.get("check").get("body_not_contains").asText());
        assertThat(rows("atomic_ledger", "file-over")).isEqualTo("0|0");
    }

    /** A series file as the YAML reader gives it, the placeholders the test fills left as they are. */
    private static JsonNode seriesFile(String resource) throws Exception {
        try (var in = GraphqlServiceTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return JSON_OF_YAML.readTree(in);
        }
    }

    private static JsonNode scenario(JsonNode file, String name) {
        for (JsonNode s : file.get("scenarios")) {
            if (s.get("name").asText().equals(name)) {
                return s;
            }
        }
        throw new AssertionError("no scenario " + name + " in " + file);
    }

    /**
     * The envelope with {@code batch} events, its placeholders filled as a generator would: each event of one
     * account, of one amount, and with a fresh ref.
     */
    private static String eventsOf(JsonNode body, String account, int amount) {
        List<String> events = new ArrayList<>();
        for (int i = 0; i < body.get("batch").asInt(); i++) {
            events.add(body.get("event").asText().replace("${index}", Integer.toString(i))
                    .replace("${customer_id}", account).replace("${quantity}", Integer.toString(amount))
                    .replace("${uuid}", UUID.randomUUID().toString()));
        }
        return body.get("envelope").asText().replace("${events}", String.join(body.get("separator").asText(), events));
    }

    /** Sends a scenario's request to the atomic service, its headers as the file has them, the token filled in. */
    private static HttpResponse<String> send(JsonNode scenario, String body) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(atomic.baseUri().resolve(scenario.get("url").asText()))
                .timeout(REQUEST_TIMEOUT)
                .method(scenario.get("method").asText(), HttpRequest.BodyPublishers.ofString(body));
        scenario.get("headers").fields().forEachRemaining(h ->
                req.header(h.getKey(), h.getValue().asText().replace("${env:LEDGER_TOKEN}", TOKEN)));
        return HTTP.send(req.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertPassesItsCheck(JsonNode scenario, HttpResponse<String> res) {
        List<Integer> statuses = new ArrayList<>();
        scenario.get("check").get("status").forEach(n -> statuses.add(n.asInt()));
        assertThat(statuses).as(res.body()).contains(res.statusCode());
        assertThat(res.body()).doesNotContain(scenario.get("check").get("body_not_contains").asText());
    }

    private static String batchWithOneTooLarge(String account) {
        return "mutation { "
                + "e0: addEntry(account: \"" + account + "\", amount: 5, ref: \"" + account + "-0\") { id } "
                + "e1: addEntry(account: \"" + account + "\", amount: 5000, ref: \"" + account + "-1\") { id } "
                + "e2: addEntry(account: \"" + account + "\", amount: 7, ref: \"" + account + "-2\") { id } }";
    }

    private static PgUrl url(String database) {
        return PgUrl.parse("test", pg.libpqUrl(database, "postgres"));
    }

    /** {@code count|sum} of an account's rows, as psql prints them. */
    private static String rows(String database, String account) {
        return pg.psql(database, "SELECT count(*) || '|' || coalesce(sum(amount), 0) FROM ledger_entries "
                + "WHERE account = '" + account + "'");
    }

    private static String body(String query) throws Exception {
        return JSON.writeValueAsString(Map.of("query", query));
    }

    /** Posts a document with the token and returns the answer, which must be 200. */
    private static JsonNode graphql(GraphqlServiceProcess service, String query) throws Exception {
        HttpResponse<String> res = post(service, body(query), "Bearer " + TOKEN);
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        return JSON.readTree(res.body());
    }

    private static HttpResponse<String> post(GraphqlServiceProcess service, String body, String authorization)
            throws Exception {
        URI uri = service.baseUri().resolve("/graphql");
        HttpRequest.Builder req = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            req.header("Authorization", authorization);
        }
        return HTTP.send(req.build(), HttpResponse.BodyHandlers.ofString());
    }
}
