package io.rigscope.rig.ownservice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.localenv.testing.Postgres;
import io.rigscope.pg.PgUrl;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.cli.RigscopeRun;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole protocol against a service rigscope did not write: the ledger service ({@link GraphqlService}, a
 * GraphQL-shaped API in a JVM of its own on a private cluster), driven by {@code rigscope run --config} with the
 * series file's scenarios (a templated GraphQL batch with {@code ${index}} aliases, a read probe), response checks,
 * the user's reconciliation SQL, the denominator on the user's row, and the collectors on the database's data
 * directory and log; real broker, real Postgres.
 */
@Tag("it")
class OwnServiceEndToEndTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();
    @RegisterExtension
    static final Postgres pg = new Postgres();

    /** The token the series files read as {@code ${env:LEDGER_TOKEN}} (surefire sets it: rig/pom.xml). */
    private static final String TOKEN = "ledger-test-token";

    @Test
    void aGraphqlServiceIsBenchmarkedReconciledAgainstItsOwnSqlAndPasses(@TempDir Path dir) throws Exception {
        pg.psql("postgres", "CREATE DATABASE ledger_ok");
        try (GraphqlServiceProcess ledger = GraphqlServiceProcess.start(GraphqlServiceProcess.Spec.of(url("ledger_ok"),
                TOKEN))) {
            Path config = series(dir, "graphql-series.yaml", "ledger_ok", ledger);
            Path report = dir.resolve("report.json");
            Path wire = dir.resolve("wire.jsonl");
            RigscopeRun r = RigscopeRun.rigscope("run", "--config", config.toString(), "--series",
                    "own-ok-" + UUID.randomUUID(), "--bootstrap", kafka.bootstrap(), "--report-json",
                    report.toString(), "--out", wire.toString());
            assertThat(r.out()).contains("series: target " + ledger.baseUri())
                    .contains("series: scenario ingest: POST " + ledger.baseUri() + "/graphql")
                    .contains("bring-up: ok   write-through: posted 10 event(s)")
                    .contains("database alone")
                    .doesNotContain("sut: starting the reference SUT");
            assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
            JsonNode json = new ObjectMapper().readTree(report.toFile());
            JsonNode repeats = json.get("repeats");
            assertThat(repeats).isNotEmpty();
            long claimedInSustained = 0;
            for (JsonNode rep : repeats) {
                if (rep.get("kind").asText().equals("sustained")) {
                    assertThat(rep.get("events_claimed").asLong()).isGreaterThan(0);
                    claimedInSustained += rep.get("events_claimed").asLong();
                    assertThat(rep.get("gates").get("reconciliation_rows").get("pass").asBoolean()).isTrue();
                }
            }
            assertThat(claimedInSustained).isGreaterThan(1000);
            // the token came from the environment and never reached a wire record
            assertThat(Files.readString(wire)).doesNotContain(TOKEN).contains("\"Authorization\":\"***\"");
        }
    }

    @Test
    void answers200WithErrorsFailTheirCheckAndClaimNothingSoClaimsStillEqualTheRowsStored(@TempDir Path dir)
            throws Exception {
        pg.psql("postgres", "CREATE DATABASE ledger_constraint");
        try (GraphqlServiceProcess ledger = GraphqlServiceProcess.start(GraphqlServiceProcess.Spec.of(
                url("ledger_constraint"), TOKEN))) {
            Path config = series(dir, "graphql-series-constraint.yaml", "ledger_constraint", ledger);
            Path report = dir.resolve("report.json");
            RigscopeRun r = RigscopeRun.rigscope("run", "--config", config.toString(), "--series",
                    "own-constraint-" + UUID.randomUUID(), "--bootstrap", kafka.bootstrap(), "--report-json",
                    report.toString());
            assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.GATES_FAILED);
            JsonNode json = new ObjectMapper().readTree(report.toFile());
            long claimed = 0;
            for (JsonNode rep : json.get("repeats")) {
                if (rep.get("kind").asText().equals("ceiling")) {
                    continue;
                }
                if (rep.get("kind").asText().equals("sustained")) {
                    JsonNode failed = rep.get("gates").get("failed");
                    assertThat(failed.get("pass").asBoolean()).as(rep.toString()).isFalse();
                    assertThat(failed.get("value").asLong()).isGreaterThan(0);
                }
                JsonNode rows = rep.get("gates").get("reconciliation_rows");
                assertThat(rows.get("value").asLong()).as(rep.toString()).isEqualTo(rows.get("limit").asLong());
                claimed += rep.get("events_claimed").asLong();
            }
            // requests passed their check too: the events they claimed are the rows each repeat's window gained
            assertThat(claimed).isGreaterThan(0);
            assertThat(pg.psql("ledger_constraint", "SELECT count(*) FROM ledger_entries WHERE amount > 1000").strip())
                    .isEqualTo("0");
        }
    }

    private static Path series(Path dir, String resource, String database, GraphqlServiceProcess ledger)
            throws IOException {
        String yaml;
        try (InputStream in = OwnServiceEndToEndTest.class.getResourceAsStream("/ownservice/" + resource)) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        yaml = yaml.replace("${PG_URL}", pg.libpqUrl(database, "postgres"))
                .replace("${TARGET_URL}", ledger.baseUri().toString())
                .replace("${PGDATA}", pg.cluster().dataDir().toString())
                .replace("${PGLOG}", pg.cluster().logFile().toString());
        Path file = dir.resolve(resource);
        Files.writeString(file, yaml);
        return file;
    }

    private static PgUrl url(String database) {
        return PgUrl.parse("test", pg.libpqUrl(database, "postgres"));
    }
}
