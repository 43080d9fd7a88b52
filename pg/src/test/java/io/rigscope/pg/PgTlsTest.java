package io.rigscope.pg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.r2dbc.spi.Connection;
import io.rigscope.localenv.postgres.PrivatePostgres;
import io.rigscope.localenv.testing.Postgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A private cluster with {@code ssl=on}, a self-signed certificate for 127.0.0.1, and TCP without TLS refused:
 * the URL's {@code sslmode=verify-full} and {@code sslrootcert} reach R2DBC (what the SUT, bring-up,
 * reconciliation and the collectors connect with) and libpq (psql, pgbench: the denominator) alike.
 */
class PgTlsTest {

    @RegisterExtension
    static final Postgres pg = new Postgres(PrivatePostgres.Options.defaults().withTls());

    private static String one(PgUrl url, String sql) {
        return Flux.usingWhen(url.connectionFactory("rigscope-test").create(),
                        (Connection c) -> Flux.from(c.createStatement(sql).execute())
                                .flatMap(r -> r.map((row, meta) -> String.valueOf(row.get(0)))),
                        Connection::close)
                .blockLast(Duration.ofSeconds(20));
    }

    private static String plain() {
        return "postgresql://postgres@127.0.0.1:" + pg.cluster().port() + "/postgres";
    }

    @Test
    void verifyFullConnectsOverTlsThroughR2dbc() {
        String url = pg.libpqUrl("postgres", "postgres");
        assertThat(url).contains("sslmode=verify-full").contains("sslrootcert=");
        assertThat(one(PgUrl.parse("--pg", url), "select ssl::text || ' ' || version from pg_stat_ssl"
                + " where pid = pg_backend_pid()")).startsWith("true TLSv1.");
    }

    @Test
    void withoutTlsTheServerRefusesAndAnotherCertificateIsNotTrusted(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> one(PgUrl.parse("--pg", plain() + "?sslmode=disable&connect_timeout=5"), "select 1"))
                .hasMessageContaining("no encryption");
        // a certificate of its own, not the server's: verify-full must refuse the server
        Path other = dir.resolve("other.crt");
        Process p = new ProcessBuilder("openssl", "req", "-x509", "-nodes", "-newkey", "rsa:2048", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-keyout", dir.resolve("other.key").toString(), "-out", other.toString())
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).isTrue();
        PgUrl untrusted = PgUrl.parse("--pg", plain() + "?sslmode=verify-full&sslrootcert=" + other
                + "&connect_timeout=5");
        assertThatThrownBy(() -> Mono.from(untrusted.connectionFactory("t").create()).block(Duration.ofSeconds(20)))
                .hasStackTraceContaining("PKIX path");
        // require without verification still works (encryption only)
        assertThat(one(PgUrl.parse("--pg", plain() + "?sslmode=require"), "select ssl::text from pg_stat_ssl"
                + " where pid = pg_backend_pid()")).isEqualTo("true");
    }

    @Test
    void libpqTakesTheSameUrl() throws Exception {
        Path psql = Path.of("/usr/lib/postgresql/" + pg.cluster().majorVersion() + "/bin/psql");
        Process p = new ProcessBuilder(psql.toString(), pg.libpqUrl("postgres", "postgres"), "-AtX", "-c",
                "select ssl from pg_stat_ssl where pid = pg_backend_pid()").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(List.of(p.exitValue(), out)).containsExactly(0, "t");
        assertThat(Files.readString(pg.cluster().tlsRootCert().orElseThrow())).contains("BEGIN CERTIFICATE");
    }
}
