package io.rigscope.collectors;

import io.r2dbc.spi.Connection;
import io.rigscope.collectors.PostgresMajorsTest.LiveDatabase;
import io.rigscope.pg.PgUrl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;
import reactor.core.publisher.Flux;

/**
 * The database collectors' live checks ({@link PostgresMajorsTest}) on the official {@code postgres:16} and
 * {@code postgres:17} images, where a Docker engine answers (skipped where none does, as on the machines this
 * project is built on; {@link PostgresMajorsTest} runs the same checks there on every major's embedded binaries).
 * The server's log is the container's stderr, appended to a file the log collector tails.
 */
@Testcontainers(disabledWithoutDocker = true)
@Tag("it")
class PostgresContainersTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"postgres:16", "postgres:17"})
    void theDatabaseCollectorsReadTheOfficialImage(String image, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("postgresql.log");
        Files.createFile(log);
        try (GenericContainer<?> pg = new GenericContainer<>(DockerImageName.parse(image))
                .withEnv("POSTGRES_PASSWORD", "rigscope")
                .withExposedPorts(5432)
                .withCommand("postgres", "-c", "log_checkpoints=on", "-c", "log_autovacuum_min_duration=0",
                        "-c", "autovacuum_naptime=1", "-c", "autovacuum_vacuum_cost_delay=0")
                .withLogConsumer(frame -> append(log, frame.getUtf8String()))
                .waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*\\s", 2)
                        .withStartupTimeout(Duration.ofMinutes(2)))) {
            pg.start();
            String base = "postgresql://%s@" + pg.getHost() + ":" + pg.getMappedPort(5432) + "/postgres";
            PgUrl owner = PgUrl.parse("test", String.format(base, "postgres:rigscope"));
            LiveDatabase db = new LiveDatabase(sql -> run(owner, sql), log);
            db.run("create role monitor login password 'monitor'; grant pg_monitor to monitor;"
                    + " create table api_keys(id int primary key, last_used_at timestamptz);"
                    + " insert into api_keys values (1, now()); create table churn(id int, pad text)");
            int major = Integer.parseInt(image.substring(image.indexOf(':') + 1));
            PostgresMajorsTest.checkCollectors(db, PgUrl.parse("test", String.format(base, "monitor:monitor")),
                    major);
        }
    }

    private static void run(PgUrl url, String sql) {
        Flux.usingWhen(url.connectionFactory("rigscope-test").create(),
                        (Connection c) -> Flux.from(c.createStatement(sql).execute())
                                .flatMap(r -> r.getRowsUpdated()),
                        Connection::close)
                .blockLast(Duration.ofSeconds(60));
    }

    private static synchronized void append(Path log, String text) {
        try {
            Files.writeString(log, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
