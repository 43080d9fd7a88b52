package io.rigscope.rig.bringup;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.DatabaseGain;
import io.rigscope.model.wire.Environment;
import io.rigscope.model.wire.Marker;
import io.rigscope.pg.PgUrl;
import io.rigscope.rig.denominator.Denominator;
import io.rigscope.rig.environment.EnvironmentFacts;
import io.rigscope.rig.reconciliation.Reconciliation;
import io.rigscope.sut.RunningSut;
import io.rigscope.sut.SutContract;
import io.rigscope.sut.schema.Migrations;
import io.rigscope.sut.schema.Provisioning;
import io.rigscope.sut.testing.SutOnPostgres;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("it")
class BenchMethodTest {

    @RegisterExtension
    static final SutOnPostgres pg = new SutOnPostgres();
    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private BringUpChecks checks(PgUrl db, RunningSut sut) {
        return new BringUpChecks(new BringUpChecks.Spec(db, Migrations.APP_ROLE, null, sut.baseUri(),
                Provisioning.DEMO_API_KEY, 50, BringUpChecks.DEFAULT_COUNT_SQL));
    }

    @Test
    void bringUpPassesOnAMigratedSchemaAndAnHonestSut() {
        try (RunningSut sut = pg.start()) {
            List<BringUpChecks.CheckResult> results = checks(pg.owner(), sut).run();
            assertThat(results).extracting(BringUpChecks.CheckResult::check).containsExactly("schema", "app-role", "write-through");
            assertThat(BringUpChecks.CheckResult.allPassed(results)).as(results.toString()).isTrue();
        }
    }

    @Test
    void bringUpRefusesAnUnmigratedSchema() {
        pg.psql("CREATE DATABASE unmigrated");
        PgUrl bare = PgUrl.parse("--pg", pg.libpqUrl("unmigrated", "postgres"));
        try (RunningSut sut = pg.start()) {
            List<BringUpChecks.CheckResult> results = checks(bare, sut).run();
            assertThat(BringUpChecks.CheckResult.allPassed(results)).isFalse();
            assertThat(results.get(0).ok()).isFalse();
            assertThat(results.get(0).detail()).contains("not migrated");
            assertThat(results.get(1).ok()).as("the app role has no grants on missing tables").isFalse();
        }
    }

    @Test
    void bringUpNamesAGrantTheAppRoleLacks() {
        pg.psql("REVOKE INSERT ON usage_events FROM rigscope_app");
        try (RunningSut sut = pg.start()) {
            BringUpChecks.CheckResult role = checks(pg.owner(), sut).run().get(1);
            assertThat(role.ok()).isFalse();
            assertThat(role.detail()).contains("lacks INSERT on usage_events");
        } finally {
            pg.psql("GRANT INSERT ON usage_events TO rigscope_app");
        }
    }

    @Test
    void bringUpCatchesA2xxThatWroteNoRow() {
        try (RunningSut sut = pg.start(c -> c.withLossyOneIn(1))) {
            BringUpChecks.CheckResult write = checks(pg.owner(), sut).run().get(2);
            assertThat(write.ok()).isFalse();
            assertThat(write.detail()).contains("that wrote no row").contains("written=50");
        }
    }

    @Test
    void reconciliationCountsWhatAnHonestSutStoredAndWhatALossyOneDid() throws Exception {
        var reconciliation = new Reconciliation(pg.owner(), SutContract.RECONCILIATION_SQL);
        try (RunningSut honest = pg.start()) {
            var repeat = postRepeat(honest, 3);
            DatabaseGain gain = reconciliation.count("s1", 1, "rig", 1_700_000_000_000_000L, "sustained",
                    repeat.window());
            assertThat(gain.rowsWritten()).isEqualTo(repeat.claimedEvents()).isEqualTo(3000);
            assertThat(gain.qtySumGained()).isEqualTo(repeat.qtySent());
        }
        Thread.sleep(5);
        try (RunningSut lossy = pg.start(c -> c.withLossyOneIn(1000))) {
            var repeat = postRepeat(lossy, 3);
            DatabaseGain gain = reconciliation.count("s1", 2, "rig", 1_700_000_000_000_000L, "sustained",
                    repeat.window());
            // 3,000 answered 201, 3 of them never written
            assertThat(repeat.claimedEvents()).isEqualTo(3000);
            assertThat(gain.rowsWritten()).isEqualTo(2997);
            assertThat(gain.qtySumGained()).isLessThan(repeat.qtySent());
            Marker marker = gain.toMarker();
            assertThat(marker.body()).isEqualTo(new io.rigscope.model.wire.Reconciliation(2997L,
                    gain.qtySumGained()));
            var codec = new WireCodec();
            Decoded back = codec.decode(marker.topic(), "s1", codec.encode(marker, WireCodec.Format.JSON), "test");
            assertThat(back).isInstanceOf(Decoded.Ok.class);
            assertThat(DatabaseGain.of((Marker) ((Decoded.Ok) back).record())).isEqualTo(gain);
        }
    }

    @Test
    void theDenominatorMeasuresAPositiveRowRateWithPgbench() {
        var spec = new Denominator.Spec(pg.owner(), 20, Duration.ofSeconds(2), 2, Provisioning.DEMO_TENANT, null);
        List<String> progress = new ArrayList<>();
        Denominator.Result result = new Denominator(spec).run(progress::add);
        assertThat(result.rowsPerSec()).isPositive();
        assertThat(result.rowsPerSec()).isEqualTo(result.tps() * 20);
        assertThat(result.failedTransactions()).isZero();
        assertThat(result.line()).startsWith("database alone ").contains(" rows/s");
        assertThat(Long.parseLong(pg.psql("select count(*) from usage_events where idempotency_key like 'denominator-%'")))
                .isEqualTo(result.transactions() * 20);
    }

    @Test
    void environmentFactsCarryTheHostAndTheSettingsThatMatter() {
        EnvironmentFacts facts = EnvironmentFacts.collect(pg.owner(), Path.of("."), 0.192);
        assertThat(facts.cpuCount()).isPositive();
        assertThat(facts.pgVersion()).startsWith(String.valueOf(pg.cluster().majorVersion()));
        assertThat(facts.pgSettings()).containsKeys("shared_buffers", "max_wal_size", "min_wal_size",
                "autovacuum_vacuum_scale_factor", "autovacuum_analyze_scale_factor", "wal_compression");
        assertThat(facts.pgSettings().get("shared_buffers")).isNotEqualTo("n/a");
        Environment environment = facts.toEnvironment();
        assertThat(environment.costPerHour()).isEqualTo(0.192);
        assertThat(environment.hostname()).isEqualTo(facts.hostname());
        assertThat(environment.cpuCount()).isEqualTo(facts.cpuCount());
        assertThat(facts.toMarker("s1", "rig", 1_700_000_000_000_000L).kind()).isEqualTo(Marker.Kind.ENVIRONMENT);
    }

    @Test
    void environmentFactsCarryTheWatchedTablesRowsAndTheRigscopeVersionThatCompareHolds() {
        pg.psql("analyze usage_events");
        EnvironmentFacts facts = EnvironmentFacts.collect(pg.owner(), Path.of("."), null,
                java.util.List.of("usage_events", "no_such_table"));
        assertThat(facts.tableRows()).containsOnlyKeys("usage_events");
        assertThat(facts.tableRows().get("usage_events")).isNotNegative();
        assertThat(facts.rigscopeVersion()).isNotBlank();
        assertThat(facts.pgSettings()).containsKeys("wal_recycle", "wal_init_zero", "autovacuum_vacuum_insert_threshold",
                "backend_flush_after");
        assertThat(facts.toEnvironment().tableRows()).isEqualTo(facts.tableRows());
        assertThat(facts.toEnvironment().rigscopeVersion()).isEqualTo(facts.rigscopeVersion());
    }

    /** A repeat posted by hand: its window, the events the answers said were written, and the Σ quantity sent. */
    private record Repeat(Reconciliation.Window window, long claimedEvents, long qtySent) {
    }

    /** Posts {@code batches} batches of 1,000 events and returns the window and what the answers claimed. */
    private Repeat postRepeat(RunningSut sut, int batches) throws Exception {
        Instant start = Instant.now();
        long claimed = 0;
        long qty = 0;
        String customer = "r-" + UUID.randomUUID().toString().substring(0, 8);
        for (int b = 0; b < batches; b++) {
            StringBuilder body = new StringBuilder("{\"events\":[");
            long batchQty = 0;
            for (int i = 0; i < 1000; i++) {
                long q = 1 + (i % 7);
                batchQty += q;
                body.append(i == 0 ? "" : ",").append("{\"idempotency_key\":\"").append(customer).append('-').append(b)
                        .append('-').append(i).append("\",\"customer_id\":\"").append(customer)
                        .append("\",\"meter\":\"api_calls\",\"quantity\":").append(q)
                        .append(",\"timestamp\":\"").append(Instant.now()).append("\"}");
            }
            body.append("]}");
            var res = http.send(HttpRequest.newBuilder(sut.baseUri().resolve("/v1/usage-events"))
                    .header("Authorization", "Bearer " + Provisioning.DEMO_API_KEY)
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(res.statusCode()).isEqualTo(201);
            claimed += json.readTree(res.body()).get("written").asLong();
            qty += batchQty;
        }
        Instant end = Instant.now().plusMillis(1);
        return new Repeat(new Reconciliation.Window(start, end), claimed, qty);
    }
}
