package io.rigscope.collectors.waits;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.localenv.testing.Postgres;
import io.rigscope.model.wire.Waits;
import io.rigscope.pg.PgUrl;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("it")
class WaitsCollectorTest {

    @RegisterExtension
    static final Postgres pg = new Postgres();

    @BeforeAll
    static void createMonitorRoleAndHotRow() {
        pg.psql("postgres", "create role monitor login; grant pg_monitor to monitor;"
                + " create table api_keys(id int primary key, last_used_at timestamptz); insert into api_keys values (1, now())");
    }

    @Test
    void twoSessionsContendingForOneRowShowAsLockTransactionid() throws Exception {
        var collector = new WaitsCollector(new WaitsCollector.Config(PgUrl.parse("test", pg.libpqUrl("postgres", "monitor")), null),
                CollectorContext.of("s1"));
        var holder = CompletableFuture.runAsync(() -> pg.psql("postgres",
                "begin; update api_keys set last_used_at = now() where id = 1; select pg_sleep(4); commit;"));
        Thread.sleep(300);
        var waiter = CompletableFuture.runAsync(() -> pg.psql("postgres",
                "update api_keys set last_used_at = now() where id = 1"));

        Waits contended = collector.records().ofType(Waits.class)
                .filter(w -> w.load().containsKey("Lock:transactionid"))
                .next().block(Duration.ofSeconds(10));

        assertThat(contended.load().get("Lock:transactionid")).isEqualTo(1.0);
        assertThat(contended.load()).containsKey("Timeout:PgSleep");
        assertThat(contended.periodSec()).isEqualTo(1);
        assertThat(contended.load().keySet()).noneMatch(k -> k.startsWith("Client:"));
        holder.get(10, java.util.concurrent.TimeUnit.SECONDS);
        waiter.get(10, java.util.concurrent.TimeUnit.SECONDS);
    }

    @Test
    void theCollectorsOwnSessionsAreLeftOut() {
        var collector = new WaitsCollector(new WaitsCollector.Config(PgUrl.parse("test", pg.libpqUrl("postgres", "postgres")), null),
                CollectorContext.of("s1"));
        Waits idle = collector.records().ofType(Waits.class).next().block(Duration.ofSeconds(10));
        assertThat(idle.load()).isEmpty();
        assertThat(idle.totalActive()).isZero();
    }
}
