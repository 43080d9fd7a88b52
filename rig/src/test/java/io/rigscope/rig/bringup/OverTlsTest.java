package io.rigscope.rig.bringup;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.collectors.db.DbSampler;
import io.rigscope.collectors.waits.WaitsCollector;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.model.wire.DatabaseGain;
import io.rigscope.model.wire.DbSample;
import io.rigscope.model.wire.Waits;
import io.rigscope.rig.denominator.Denominator;
import io.rigscope.rig.reconciliation.Reconciliation;
import io.rigscope.sut.RunningSut;
import io.rigscope.sut.SutContract;
import io.rigscope.sut.schema.Migrations;
import io.rigscope.sut.schema.Provisioning;
import io.rigscope.sut.testing.SutOnPostgres;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every database client of a series over TLS with {@code sslmode=verify-full} against a private cluster with a
 * self-signed certificate that refuses TCP without TLS (so each step passing proves it used TLS): the SUT, the
 * bring-up checks, reconciliation, the pgbench denominator (libpq) and the DB sampler and wait collector.
 */
@Tag("it")
class OverTlsTest {

    @RegisterExtension
    static final SutOnPostgres pg = new SutOnPostgres(PrivatePostgres.Options.defaults().withTls());

    @Test
    void theSutBringUpAndReconciliationConnectWithVerifyFull() {
        assertThat(pg.owner().sslMode()).isEqualTo("verify-full");
        Instant start = Instant.now();
        try (RunningSut sut = pg.start()) {
            List<BringUpChecks.CheckResult> results = new BringUpChecks(new BringUpChecks.Spec(pg.owner(), Migrations.APP_ROLE, null,
                    sut.baseUri(), Provisioning.DEMO_API_KEY, 50, BringUpChecks.DEFAULT_COUNT_SQL)).run();
            assertThat(results).allSatisfy(f -> assertThat(f.ok()).as(f.toString()).isTrue());
        }
        DatabaseGain gain = new Reconciliation(pg.owner(), SutContract.RECONCILIATION_SQL).count("tls", 1, "rig",
                1_700_000_000_000_000L, "sustained", new Reconciliation.Window(start, Instant.now()));
        // the bring-up's write-through posted its events over TLS and reconciliation counted them over TLS
        assertThat(gain.rowsWritten()).isPositive();
    }

    @Test
    void theDenominatorRunsPgbenchOverTls() {
        var spec = new Denominator.Spec(pg.owner(), 10, Duration.ofSeconds(2), 2, Provisioning.DEMO_TENANT, null);
        List<String> progress = new ArrayList<>();
        Denominator.Result result = new Denominator(spec).run(progress::add);
        assertThat(result.rowsPerSec()).isPositive();
        assertThat(result.failedTransactions()).isZero();
    }

    @Test
    void theDatabaseCollectorsSampleOverTls() {
        DbSample sample = new DbSampler(new DbSampler.Config(pg.owner(), List.of("usage_events"),
                Duration.ofMillis(250)), CollectorContext.of("tls")).records().ofType(DbSample.class)
                .filter(s -> s.database() != null).next().block(Duration.ofSeconds(20));
        assertThat(sample.wal()).isNotNull();
        Waits waits = new WaitsCollector(new WaitsCollector.Config(pg.owner(), null), CollectorContext.of("tls"))
                .records().ofType(Waits.class).next().block(Duration.ofSeconds(20));
        assertThat(waits.periodSec()).isEqualTo(1);
    }
}
