package io.rigscope.pg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.r2dbc.spi.Connection;
import io.rigscope.localenv.testing.Postgres;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Real connections to a private cluster (no TLS configured on it) through URLs with query parameters. */
@Tag("it")
class PgConnectionTest {

    @RegisterExtension
    static final Postgres pg = new Postgres();

    private static String one(PgUrl url, String sql) {
        return Flux.usingWhen(url.connectionFactory("rigscope-test").create(),
                        (Connection c) -> Flux.from(c.createStatement(sql).execute())
                                .flatMap(r -> r.map((row, meta) -> String.valueOf(row.get(0)))),
                        Connection::close)
                .blockLast(Duration.ofSeconds(20));
    }

    @Test
    void theUrlsApplicationNameAndOptionsReachTheServer() {
        PgUrl url = PgUrl.parse("--pg", pg.libpqUrl("postgres", "postgres")
                + "?sslmode=disable&application_name=x&options=-c%20statement_timeout%3D4321");
        assertThat(one(url, "select application_name from pg_stat_activity where pid = pg_backend_pid()"))
                .isEqualTo("x");
        assertThat(one(url, "select setting from pg_settings where name = 'statement_timeout'")).isEqualTo("4321");
        assertThat(one(url, "select ssl::text from pg_stat_ssl where pid = pg_backend_pid()")).isEqualTo("false");
    }

    @Test
    void withoutParametersTheCallersApplicationNameApplies() {
        PgUrl url = PgUrl.parse("--pg", pg.libpqUrl("postgres", "postgres"));
        assertThat(one(url, "select application_name from pg_stat_activity where pid = pg_backend_pid()"))
                .isEqualTo("rigscope-test");
    }

    @Test
    void sslmodeRequireRefusesAServerWithoutTlsAndPreferFallsBack() {
        PgUrl url = PgUrl.parse("--pg", pg.libpqUrl("postgres", "postgres") + "?sslmode=require&connect_timeout=5");
        assertThatThrownBy(() -> Mono.from(url.connectionFactory("t").create()).block(Duration.ofSeconds(20)))
                .hasMessageContaining("SSL");
        PgUrl prefer = PgUrl.parse("--pg", pg.libpqUrl("postgres", "postgres") + "?sslmode=prefer");
        assertThat(one(prefer, "select ssl::text from pg_stat_ssl where pid = pg_backend_pid()")).isEqualTo("false");
    }
}
