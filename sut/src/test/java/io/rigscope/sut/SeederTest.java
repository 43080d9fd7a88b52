package io.rigscope.sut;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.localenv.testing.Postgres;
import io.rigscope.pg.PgUrl;
import io.rigscope.sut.seed.AutovacuumSettle;
import io.rigscope.sut.seed.Seeder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("it")
class SeederTest {

    @RegisterExtension
    static final Postgres pg = new Postgres(PrivatePostgres.Options.defaults().with("autovacuum_naptime", "1"));

    @Test
    void copiesTheAskedRowsInChunksReportsProgressAndWaitsForAutovacuumToSettle() {
        PgUrl owner = PgUrl.parse("--pg", pg.libpqUrl("postgres", "postgres"));
        Sut.start(SutConfig.defaults(owner).withMigrate(true)).close();
        List<Seeder.Progress> progress = new ArrayList<>();
        var spec = new Seeder.Spec(25_000, "demo", 1000, 10_000);
        var last = new Seeder(owner).load(spec, progress::add);
        assertThat(last.rowsCommitted()).isEqualTo(25_000);
        assertThat(progress).isNotEmpty();
        assertThat(progress.get(progress.size() - 1).rowsLoaded()).isEqualTo(25_000);
        assertThat(pg.psql("postgres", "select count(*), count(distinct idempotency_key), "
                + "bool_and(event_time < now()), min(quantity) >= 1 from usage_events"))
                .isEqualTo("25000|25000|t|t");
        var result = new AutovacuumSettle(owner, "usage_events").await(Duration.ofSeconds(90), p -> { });
        assertThat(result.settled()).isTrue();
        assertThat(pg.psql("postgres", "select last_autovacuum is not null or last_autoanalyze is not null "
                + "from pg_stat_user_tables where relname = 'usage_events'")).isEqualTo("t");
    }
}
