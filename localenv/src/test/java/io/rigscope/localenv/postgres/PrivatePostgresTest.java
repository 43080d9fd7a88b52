package io.rigscope.localenv.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

// its own clusters, not the shared Postgres fixture: it tests PrivatePostgres itself (start, settings, log, close)
class PrivatePostgresTest {

    @Test
    void startsAClusterWithTheCollectorLoggingAndThrowsItAway() throws Exception {
        var pg = PrivatePostgres.startTemporary(PrivatePostgres.Options.defaults().with("autovacuum_naptime", "1"));
        try {
            assertThat(pg.psql("postgres", "select 40 + 2")).isEqualTo("42");
            assertThat(pg.psql("postgres", "show log_checkpoints")).isEqualTo("on");
            assertThat(pg.psql("postgres", "show log_autovacuum_min_duration")).isEqualTo("0");
            assertThat(pg.psql("postgres", "show autovacuum_naptime")).isEqualTo("1s");
            pg.psql("postgres", "checkpoint");
            long deadline = System.currentTimeMillis() + 10_000;
            while (!Files.readString(pg.logFile()).contains("checkpoint complete")
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertThat(Files.readString(pg.logFile())).contains("checkpoint complete");
        } finally {
            pg.close();
        }
        assertThat(pg.dataDir()).doesNotExist();
    }

    @Test
    void theEmbeddedBinariesFromMavenCentralAreTheFallbackWithTheSameLogging() throws Exception {
        var pg = PrivatePostgres.startTemporary(PrivatePostgres.Options.defaults().withEmbedded());
        try {
            assertThat(pg.isEmbedded()).isTrue();
            assertThat(pg.psql("postgres", "select 40 + 2")).isEqualTo("42");
            assertThat(pg.psql("postgres", "show log_checkpoints")).isEqualTo("on");
            assertThat(pg.psql("postgres", "show log_autovacuum_min_duration")).isEqualTo("0");
            pg.psql("postgres", "checkpoint");
            long deadline = System.currentTimeMillis() + 10_000;
            while (!(Files.exists(pg.logFile()) && Files.readString(pg.logFile()).contains("checkpoint complete"))
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertThat(Files.readString(pg.logFile())).contains("checkpoint complete");
            assertThat(pg.libpqUrl("postgres", "postgres")).contains(":" + pg.port() + "/");
        } finally {
            pg.close();
        }
        assertThat(pg.dataDir()).doesNotExist();
    }
}
