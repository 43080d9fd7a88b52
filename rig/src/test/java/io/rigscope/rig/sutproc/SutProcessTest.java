package io.rigscope.rig.sutproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.localenv.testing.Postgres;
import io.rigscope.pg.PgUrl;
import io.rigscope.localenv.childjvm.ChildJvmTest;
import io.rigscope.sut.SutContract;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The reference SUT as a child JVM on a real private cluster: it comes up, answers, and is gone after close. */
@Tag("it")
class SutProcessTest {

    @RegisterExtension
    static final Postgres pg = new Postgres();

    private static SutProcess.Spec spec(PgUrl owner, Duration timeout) {
        return new SutProcess.Spec(owner, "rigscope_app", null, "per-minute", "multi-row", SutContract.TENANT,
                SutContract.API_KEY, timeout, SutProcess.newLogFile());
    }

    @Test
    void theSutRunsInItsOwnJvmAnswersAndIsStoppedOnClose() throws Exception {
        PgUrl owner = PgUrl.parse("test", pg.libpqUrl("postgres", "postgres") + "?application_name=child-sut");
        ProcessHandle child;
        Path log;
        try (SutProcess sut = SutProcess.start(spec(owner, Duration.ofSeconds(90)))) {
            assertThat(sut.pid()).isNotEqualTo(ProcessHandle.current().pid());
            child = ProcessHandle.of(sut.pid()).orElseThrow();
            log = sut.logFile();
            var res = HttpClient.newHttpClient().send(HttpRequest.newBuilder(sut.baseUri().resolve("/v1/customers?limit=1"))
                    .header("Authorization", "Bearer " + SutContract.API_KEY).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(res.statusCode()).isEqualTo(200);
            // the URL's query parameters reached the child's pool
            assertThat(pg.psql("postgres", "select count(*) > 0 from pg_stat_activity where application_name = 'child-sut'"))
                    .isEqualTo("t");
            assertThat(ChildJvmTest.commandLine(sut.pid())).contains("io.rigscope.rig.Main")
                    .noneMatch(arg -> arg.contains("postgresql://"));
        }
        assertThat(child.isAlive()).isFalse();
        assertThat(Files.readString(log)).contains("sut: listening on http://127.0.0.1:");
    }

    @Test
    void aSutThatCannotReachItsDatabaseFailsNamingItsLog() {
        PgUrl nowhere = PgUrl.parse("test", "postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=2");
        assertThatThrownBy(() -> SutProcess.start(spec(nowhere, Duration.ofSeconds(90))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exited with code")
                .hasMessageContaining("rigscope-sut-");
    }

    @Test
    void aSutThatDoesNotComeUpInTimeIsKilledAndSaidSo() {
        PgUrl owner = PgUrl.parse("test", pg.libpqUrl("postgres", "postgres"));
        long before = ProcessHandle.current().children().count();
        assertThatThrownBy(() -> SutProcess.start(spec(owner, Duration.ofMillis(300))))
                .hasMessageContaining("did not come up within 0 s; killed it");
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).count()).isLessThanOrEqualTo(before);
    }
}
