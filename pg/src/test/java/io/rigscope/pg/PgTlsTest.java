package io.rigscope.pg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.r2dbc.spi.Connection;
import io.rigscope.localenv.testing.Postgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A private cluster with {@code ssl=on} and a certificate signed by a throw-away CA (made here with openssl; its name
 * is {@code localhost} only), reached through {@link PgUrl}'s {@code sslmode}: verify-full checks the chain and the
 * host name, a CA that did not sign the certificate is refused, require encrypts without checking. Unlike libpq,
 * r2dbc-postgresql's verify-ca checks the host name too (measured here; docs/operations.md says so).
 */
@Tag("it")
class PgTlsTest {

    @RegisterExtension
    static final Postgres pg = new Postgres();
    @TempDir
    static Path certs;

    @BeforeAll
    static void turnOnTls() throws Exception {
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
                "-subj", "/CN=rigscope test CA");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "other-ca.key", "-out", "other-ca.crt",
                "-days", "2", "-subj", "/CN=some other CA");
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj",
                "/CN=localhost");
        Files.writeString(certs.resolve("san.ext"), "subjectAltName=DNS:localhost\n");
        openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                "server.crt", "-days", "2", "-extfile", "san.ext");
        Path data = pg.cluster().dataDir();
        Files.copy(certs.resolve("server.crt"), data.resolve("server.crt"));
        Files.copy(certs.resolve("server.key"), data.resolve("server.key"));
        Files.setPosixFilePermissions(data.resolve("server.key"), PosixFilePermissions.fromString("rw-------"));
        if ("root".equals(System.getProperty("user.name"))) {
            run(data, "chown", "postgres:postgres", "server.crt", "server.key");
        }
        pg.psql("postgres", "ALTER SYSTEM SET ssl = on");
        pg.psql("postgres", "SELECT pg_reload_conf()");
        for (int i = 0; i < 50 && !"on".equals(pg.psql("postgres", "SHOW ssl").strip()); i++) {
            Thread.sleep(100);
        }
        assertThat(pg.psql("postgres", "SHOW ssl").strip()).isEqualTo("on");
    }

    private static void openssl(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        run(certs, command.toArray(String[]::new));
    }

    private static void run(Path dir, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
    }

    private static PgUrl url(String host, String query) {
        return PgUrl.parse("--pg", "postgresql://postgres@" + host + ":" + pg.cluster().port() + "/postgres?" + query);
    }

    private static String ssl(PgUrl url) {
        return Flux.usingWhen(url.connectionFactory("rigscope-tls-test").create(),
                        (Connection c) -> Flux.from(c.createStatement(
                                        "select ssl::text || ' ' || version from pg_stat_ssl where pid = pg_backend_pid()")
                                .execute()).flatMap(r -> r.map((row, meta) -> String.valueOf(row.get(0)))),
                        Connection::close)
                .blockLast(Duration.ofSeconds(20));
    }

    @Test
    void verifyFullConnectsOverTlsWhenTheCaSignedTheCertificateForTheHostName() {
        assertThat(ssl(url("localhost", "sslmode=verify-full&sslrootcert=" + certs.resolve("ca.crt"))))
                .startsWith("true TLSv1.");
    }

    @Test
    void verifyFullAndVerifyCaRefuseAHostNameTheCertificateDoesNotName() {
        for (String mode : List.of("verify-full", "verify-ca")) {
            PgUrl byAddress = url("127.0.0.1", "sslmode=" + mode + "&connect_timeout=5&sslrootcert="
                    + certs.resolve("ca.crt"));
            assertThatThrownBy(() -> Mono.from(byAddress.connectionFactory("t").create()).block(Duration.ofSeconds(20)))
                    .as(mode).hasStackTraceContaining("No subject alternative names matching IP address 127.0.0.1");
        }
        assertThat(ssl(url("localhost", "sslmode=verify-ca&sslrootcert=" + certs.resolve("ca.crt"))))
                .startsWith("true ");
    }

    @Test
    void verifyFullRefusesACertificateAnotherCaSigned() {
        PgUrl other = url("localhost", "sslmode=verify-full&connect_timeout=5&sslrootcert="
                + certs.resolve("other-ca.crt"));
        assertThatThrownBy(() -> Mono.from(other.connectionFactory("t").create()).block(Duration.ofSeconds(20)))
                .hasStackTraceContaining("PKIX path");
    }

    @Test
    void requireEncryptsWithoutCheckingTheCertificate() {
        assertThat(ssl(url("127.0.0.1", "sslmode=require"))).startsWith("true ");
    }
}
