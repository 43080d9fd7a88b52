package io.rigscope.sut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.sut.auth.ApiKeys;
import io.rigscope.pg.PgUrl;
import io.rigscope.sut.db.Sql;
import io.rigscope.sut.ingest.EventWriter.InsertMode;
import io.rigscope.sut.schema.Migrations;
import io.rigscope.sut.schema.Provisioning;
import io.rigscope.sut.testing.SutOnPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("it")
class SutTest {

    @RegisterExtension
    static final SutOnPostgres pg = new SutOnPostgres();
    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private PgUrl owner;

    @BeforeAll
    void owner() {
        owner = pg.owner();   // migrated and provisioned by the fixture
    }

    @Test
    void aPostWritesItsEventsAndAnswersTheCountWritten() throws Exception {
        try (RunningSut sut = Sut.start(SutConfig.defaults(owner))) {
            String customer = uniqueCustomer();
            var res = post(sut, Provisioning.DEMO_API_KEY, batch(customer, "api_calls", 5, 7));
            assertThat(res.statusCode()).isEqualTo(201);
            assertThat(json.readTree(res.body()).get("written").asLong()).isEqualTo(5);
            assertThat(pg.psql("select count(*), sum(quantity) from usage_events where customer_id = '"
                    + customer + "'")).isEqualTo("5|35");
            assertThat(sut.stats().eventsWritten()).isEqualTo(5);
        }
    }

    @Test
    void everyAnswerTellsItsPoolDatabaseAndAppTimeInServerTiming() throws Exception {
        try (RunningSut sut = Sut.start(SutConfig.defaults(owner).withPoolSize(1))) {
            var res = post(sut, Provisioning.DEMO_API_KEY, batch(uniqueCustomer(), "api_calls", 5, 7));
            String header = res.headers().firstValue("Server-Timing").orElseThrow();
            assertThat(header).matches("pool;dur=\\d+\\.\\d{3}, db;dur=\\d+\\.\\d{3}, app;dur=\\d+\\.\\d{3}");
            assertThat(durMs(header, "db")).as("an insert in a transaction holds its connection").isPositive();
            var health = http.send(HttpRequest.newBuilder(sut.baseUri().resolve("/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            String h = health.headers().firstValue("Server-Timing").orElseThrow();
            assertThat(durMs(h, "db")).as("/health touches no connection").isZero();
            assertThat(durMs(h, "pool")).isZero();
        }
    }

    private static double durMs(String header, String name) {
        var m = java.util.regex.Pattern.compile("(?:^|, )" + name + ";dur=([0-9.]+)").matcher(header);
        assertThat(m.find()).as(name + " in " + header).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void aRepeatedIdempotencyKeyIsNotWrittenTwiceNorCounted() throws Exception {
        try (RunningSut sut = Sut.start(SutConfig.defaults(owner))) {
            String customer = uniqueCustomer();
            String body = batch(customer, "api_calls", 3, 1);
            assertThat(json.readTree(post(sut, Provisioning.DEMO_API_KEY, body).body()).get("written").asLong()).isEqualTo(3);
            var again = post(sut, Provisioning.DEMO_API_KEY, body);
            assertThat(again.statusCode()).isEqualTo(201);
            assertThat(json.readTree(again.body()).get("written").asLong()).isZero();
            String twiceInOne = "{\"events\":[" + event("dup-" + customer, customer, "api_calls", 1) + ","
                    + event("dup-" + customer, customer, "api_calls", 1) + "]}";
            assertThat(json.readTree(post(sut, Provisioning.DEMO_API_KEY, twiceInOne).body()).get("written").asLong())
                    .isEqualTo(1);
            assertThat(pg.psql("select count(*) from usage_events where customer_id = '" + customer + "'"))
                    .isEqualTo("4");
        }
    }

    @Test
    void perEventInsertWritesTheSameRowsAndHonoursIdempotencyToo() throws Exception {
        try (RunningSut sut = Sut.start(SutConfig.defaults(owner).withInsert(InsertMode.PER_EVENT))) {
            String customer = uniqueCustomer();
            String body = batch(customer, "compute_seconds", 4, 10);
            assertThat(json.readTree(post(sut, Provisioning.DEMO_API_KEY, body).body()).get("written").asLong()).isEqualTo(4);
            assertThat(json.readTree(post(sut, Provisioning.DEMO_API_KEY, body).body()).get("written").asLong()).isZero();
            assertThat(pg.psql("select count(*), sum(quantity) from usage_events where customer_id = '"
                    + customer + "'")).isEqualTo("4|40");
        }
    }

    @Test
    void aBadBodyIsRejectedWith400NamingTheField() throws Exception {
        try (RunningSut sut = Sut.start(SutConfig.defaults(owner))) {
            String customer = uniqueCustomer();
            String badQuantity = "{\"events\":[" + event("a-" + customer, customer, "api_calls", 1) + ","
                    + "{\"idempotency_key\":\"b\",\"customer_id\":\"c\",\"meter\":\"m\",\"quantity\":\"abc\","
                    + "\"timestamp\":\"2026-11-30T02:00:00Z\"}]}";
            var res = post(sut, Provisioning.DEMO_API_KEY, badQuantity);
            assertThat(res.statusCode()).isEqualTo(400);
            assertThat(json.readTree(res.body()).get("error").asText()).contains("events[1].quantity");
            var noTime = post(sut, Provisioning.DEMO_API_KEY,
                    "{\"events\":[{\"idempotency_key\":\"b\",\"customer_id\":\"c\",\"meter\":\"m\",\"quantity\":1}]}");
            assertThat(json.readTree(noTime.body()).get("error").asText()).contains("events[0].timestamp is missing");
            var localTime = post(sut, Provisioning.DEMO_API_KEY, "{\"events\":[{\"idempotency_key\":\"b\","
                    + "\"customer_id\":\"c\",\"meter\":\"m\",\"quantity\":1,\"timestamp\":\"2026-11-30T02:00:00\"}]}");
            assertThat(json.readTree(localTime.body()).get("error").asText()).contains("events[0].timestamp");
            assertThat(post(sut, Provisioning.DEMO_API_KEY, "not json").statusCode()).isEqualTo(400);
            assertThat(json.readTree(post(sut, Provisioning.DEMO_API_KEY, "{}").body()).get("error").asText())
                    .contains("events is missing");
            assertThat(pg.psql("select count(*) from usage_events where customer_id = '" + customer + "'"))
                    .as("a rejected batch writes nothing").isEqualTo("0");
            assertThat(sut.stats().rejected()).isEqualTo(5);
        }
    }

    @Test
    void anUnknownOrMissingKeyIsRejectedWith401() throws Exception {
        try (RunningSut sut = Sut.start(SutConfig.defaults(owner))) {
            String body = batch(uniqueCustomer(), "api_calls", 1, 1);
            assertThat(post(sut, "not-a-key", body).statusCode()).isEqualTo(401);
            var noHeader = http.send(HttpRequest.newBuilder(sut.baseUri().resolve("/v1/usage-events"))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(noHeader.statusCode()).isEqualTo(401);
            assertThat(get(sut, "not-a-key", "/v1/customers").statusCode()).isEqualTo(401);
        }
    }

    @Test
    void aggregateCountsAndSumsTheCustomersEventsPerMeter() throws Exception {
        try (RunningSut sut = Sut.start(SutConfig.defaults(owner))) {
            String customer = uniqueCustomer();
            post(sut, Provisioning.DEMO_API_KEY, batch(customer, "api_calls", 3, 20));
            post(sut, Provisioning.DEMO_API_KEY, batch(customer, "storage_gb_hours", 2, 5));
            post(sut, Provisioning.DEMO_API_KEY, batch(uniqueCustomer(), "api_calls", 9, 1));
            var res = get(sut, Provisioning.DEMO_API_KEY, "/v1/usage-events/aggregate?customer_id=" + customer);
            assertThat(res.statusCode()).isEqualTo(200);
            JsonNode meters = json.readTree(res.body()).get("meters");
            assertThat(meters).hasSize(2);
            assertThat(meters.get(0).get("meter").asText()).isEqualTo("api_calls");
            assertThat(meters.get(0).get("count").asLong()).isEqualTo(3);
            assertThat(meters.get(0).get("quantity_sum").asLong()).isEqualTo(60);
            assertThat(meters.get(1).get("meter").asText()).isEqualTo("storage_gb_hours");
            assertThat(meters.get(1).get("quantity_sum").asLong()).isEqualTo(10);
            assertThat(get(sut, Provisioning.DEMO_API_KEY, "/v1/usage-events/aggregate").statusCode()).isEqualTo(400);
        }
    }

    @Test
    void customersAndInvoicesAnswerFromTheTenantsData() throws Exception {
        try (RunningSut sut = Sut.start(SutConfig.defaults(owner))) {
            var customers = json.readTree(get(sut, Provisioning.DEMO_API_KEY, "/v1/customers?limit=3").body());
            assertThat(customers.get("customers")).hasSize(3);
            assertThat(customers.get("customers").get(0).get("id").asText()).isEqualTo("cust-0001");
            String customer = uniqueCustomer();
            post(sut, Provisioning.DEMO_API_KEY, batch(customer, "api_calls", 2, 50));
            String period = java.time.YearMonth.now(java.time.ZoneOffset.UTC).toString();
            var inv = json.readTree(get(sut, Provisioning.DEMO_API_KEY, "/v1/invoices?customer_id=" + customer
                    + "&period=" + period).body());
            JsonNode invoice = inv.get("invoices").get(0);
            assertThat(invoice.get("customer_id").asText()).isEqualTo(customer);
            assertThat(invoice.get("lines").get(0).get("quantity").asLong()).isEqualTo(100);
            assertThat(invoice.get("total_micros").asLong()).isEqualTo(100 * 100);
            assertThat(get(sut, Provisioning.DEMO_API_KEY, "/v1/invoices?period=nope").statusCode()).isEqualTo(400);
        }
    }

    @Test
    void everyRequestTouchUpdatesTheKeysLastUsedTimeInEachRequest() throws Exception {
        try (RunningSut sut = Sut.start(SutConfig.defaults(owner).withTouch(ApiKeys.Touch.EVERY_REQUEST))) {
            String hash = ApiKeys.hash(Provisioning.DEMO_API_KEY);
            pg.psql("update api_keys set last_used_at = null where key_hash = '" + hash + "'");
            post(sut, Provisioning.DEMO_API_KEY, batch(uniqueCustomer(), "api_calls", 1, 1));
            String first = pg.psql("select last_used_at from api_keys where key_hash = '" + hash + "'");
            assertThat(first).isNotEmpty();
            Thread.sleep(20);
            post(sut, Provisioning.DEMO_API_KEY, batch(uniqueCustomer(), "api_calls", 1, 1));
            assertThat(pg.psql("select last_used_at > '" + first + "' from api_keys where key_hash = '"
                    + hash + "'")).isEqualTo("t");
        }
    }

    @Test
    void perMinuteTouchUpdatesTheKeyOnceAndNotAgainWithinTheMinute() throws Exception {
        try (RunningSut sut = Sut.start(SutConfig.defaults(owner).withTouch(ApiKeys.Touch.PER_MINUTE))) {
            String hash = ApiKeys.hash(Provisioning.DEMO_API_KEY);
            pg.psql("update api_keys set last_used_at = null where key_hash = '" + hash + "'");
            post(sut, Provisioning.DEMO_API_KEY, batch(uniqueCustomer(), "api_calls", 1, 1));
            String first = pg.psql("select last_used_at from api_keys where key_hash = '" + hash + "'");
            assertThat(first).isNotEmpty();
            Thread.sleep(20);
            post(sut, Provisioning.DEMO_API_KEY, batch(uniqueCustomer(), "api_calls", 1, 1));
            assertThat(pg.psql("select last_used_at from api_keys where key_hash = '" + hash + "'"))
                    .isEqualTo(first);
        }
    }

    @Test
    void aBodyLargerThanTheLimitIsRejectedWith413() throws Exception {
        try (RunningSut sut = Sut.start(SutConfig.defaults(owner))) {
            byte[] big = new byte[(int) Sut.MAX_BODY_BYTES + 1];
            java.util.Arrays.fill(big, (byte) ' ');
            var res = http.send(HttpRequest.newBuilder(sut.baseUri().resolve("/v1/usage-events"))
                    .header("Authorization", "Bearer " + Provisioning.DEMO_API_KEY)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(big)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(res.statusCode()).isEqualTo(413);
        }
    }

    @Test
    void lossyModeDropsOneEventInAThousandWhileAnsweringThatAllWereWritten() throws Exception {
        try (RunningSut sut = Sut.start(SutConfig.defaults(owner).withLossyOneIn(1000))) {
            String customer = uniqueCustomer();
            long claimed = 0;
            for (int i = 0; i < 4; i++) {
                var res = post(sut, Provisioning.DEMO_API_KEY, batch(customer, "api_calls", 500, 2));
                claimed += json.readTree(res.body()).get("written").asLong();
            }
            assertThat(claimed).isEqualTo(2000);
            assertThat(pg.psql("select count(*) from usage_events where customer_id = '" + customer + "'"))
                    .isEqualTo("1998");
        }
    }

    @Test
    void migrationsAreRecordedOnceAndTheAppRoleCannotWriteReferenceTables() {
        var factory = owner.connectionFactory("test");
        var migrations = Migrations.shipped();
        assertThat(migrations.status(factory).clean()).isTrue();
        var again = migrations.apply(factory);
        assertThat(again.appliedVersions()).isEmpty();
        assertThat(again.alreadyPresent()).containsExactly(1, 2, 3);
        assertThat(pg.psql("select string_agg(version::text, ',' order by version) from schema_migrations"))
                .isEqualTo("1,2,3");
        var app = owner.as(Migrations.APP_ROLE, null).connectionFactory("test");
        assertThatThrownBy(() -> Sql.blockUpdate(app, Duration.ofSeconds(10), "INSERT INTO tenants (name) VALUES ('x')"))
                .hasMessageContaining("permission denied");
        assertThatThrownBy(() -> Sql.blockUpdate(app, Duration.ofSeconds(10), "DELETE FROM usage_events"))
                .hasMessageContaining("permission denied");
    }

    private String uniqueCustomer() {
        return "t-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String event(String key, String customer, String meter, long quantity) {
        return "{\"idempotency_key\":\"" + key + "\",\"customer_id\":\"" + customer + "\",\"meter\":\"" + meter
                + "\",\"quantity\":" + quantity + ",\"timestamp\":\"" + java.time.Instant.now()
                + "\",\"properties\":{\"region\":\"eu-1\"}}";
    }

    private static String batch(String customer, String meter, int n, long quantity) {
        List<String> events = new ArrayList<>();
        String nonce = UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < n; i++) {
            events.add(event(customer + "-" + meter + "-" + nonce + "-" + i, customer, meter, quantity));
        }
        return "{\"events\":[" + String.join(",", events) + "]}";
    }

    private HttpResponse<String> post(RunningSut sut, String key, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(sut.baseUri().resolve("/v1/usage-events"))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(RunningSut sut, String key, String pathAndQuery) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(sut.baseUri() + pathAndQuery))
                .header("Authorization", "Bearer " + key)
                .timeout(Duration.ofSeconds(30))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
