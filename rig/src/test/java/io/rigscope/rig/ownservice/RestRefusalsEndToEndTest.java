package io.rigscope.rig.ownservice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.localenv.testing.Postgres;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.cli.RigscopeRun;
import io.rigscope.localenv.childjvm.ChildJvm;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refusal series against a REST service rigscope did not write ({@link OrdersRestService}: the JDK's HttpServer
 * over a private cluster), driven by {@code rigscope run --config}: arrays the table's CHECK refuses answer 500, some
 * requests are stored after their client gave up, and the denominator's insert meets the same CHECK unless it draws
 * values the ingest check accepted. The series keeps its verdict and its report whatever a step does.
 */
@Tag("it")
class RestRefusalsEndToEndTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();
    @RegisterExtension
    static final Postgres pg = new Postgres();

    @Test
    void aRefusalSeriesKeepsItsVerdictAndExplainsRowsStoredForRequestsThatTimedOut(@TempDir Path dir)
            throws Exception {
        pg.psql("postgres", "CREATE DATABASE orders_explained");
        try (ChildJvm orders = start("orders_explained")) {
            Path config = series(dir, "orders_explained", orders, 1, "");
            Path report = dir.resolve("report.json");
            RigscopeRun r = RigscopeRun.rigscope("run", "--config", config.toString(), "--series",
                    "rest-refusals-" + UUID.randomUUID(), "--bootstrap", kafka.bootstrap(), "--report-json",
                    report.toString());
            String out = r.out() + r.err();
            assertThat(r.exit()).as(out).isEqualTo(ExitCodes.GATES_FAILED);
            // the denominator drew the mean quantity the ingest check accepted: the CHECK did not abort pgbench
            assertThat(out).contains("== denominator quantity").contains("database alone");
            JsonNode json = new ObjectMapper().readTree(report.toFile());
            boolean explained = false;
            long failed = 0;
            for (JsonNode rep : json.get("repeats")) {
                failed += rep.get("failed").asLong();
                JsonNode rows = rep.get("gates").get("reconciliation_rows");
                if (rows.get("value").asLong() > rows.get("limit").asLong()) {
                    assertThat(rows.get("reason").asText()).as(rep.toString())
                            .contains("timed out").contains("events that may have been stored");
                    explained = true;
                }
            }
            assertThat(failed).as("requests answered 500 are counted failed").isGreaterThan(0);
            assertThat(explained).as(out).isTrue();
            assertThat(out).contains("events that may have been stored");
        }
    }

    @Test
    void aDenominatorThatFailsIsOneLineWithThePostgresCauseAndTheSeriesStillHasItsVerdictAndReport(
            @TempDir Path dir) throws Exception {
        pg.psql("postgres", "CREATE DATABASE orders_denominator");
        try (ChildJvm orders = start("orders_denominator")) {
            Path config = series(dir, "orders_denominator", orders, 1, "  quantity: {min: 1001, max: 1010}");
            Path report = dir.resolve("report.json");
            Path md = dir.resolve("report.md");
            RigscopeRun r = RigscopeRun.rigscope("run", "--config", config.toString(), "--series",
                    "rest-denominator-" + UUID.randomUUID(), "--bootstrap", kafka.bootstrap(), "--report-json",
                    report.toString(), "--report-md", md.toString());
            String out = r.out() + r.err();
            assertThat(r.exit()).as(out).isEqualTo(ExitCodes.GATES_FAILED);
            // one console line (the Markdown report printed after it repeats it in its table)
            List<String> failedLines = out.lines().filter(l -> l.startsWith("   denominator FAILED")).toList();
            assertThat(failedLines).as(out).hasSize(1);
            assertThat(failedLines.get(0)).contains("orders_qty_check");
            assertThat(out).doesNotContain("pgbench failed (exit");
            assertThat(report).exists();
            assertThat(md).exists();
            JsonNode json = new ObjectMapper().readTree(report.toFile());
            assertThat(json.get("repeats")).isNotEmpty();
            // the report says which step failed and why, as the console did
            assertThat(json.path("failed_steps").path("denominator").asText()).contains("orders_qty_check");
            assertThat(Files.readString(md)).contains("## Steps that failed");
        }
    }

    @Test
    void aBringUpRefusedFiveTimesOverIsOneLineWithItsCountAndTheRowsTheRefusedRequestsStored(@TempDir Path dir)
            throws Exception {
        pg.psql("postgres", "CREATE DATABASE orders_strict");
        try (ChildJvm orders = start("orders_strict")) {
            Path config = series(dir, "orders_strict", orders, 1, "");
            // a check stricter than the service: it answers 201 to every array it stores; amounts the table's CHECK
            // always takes, so each of the five bring-up requests is stored and refused by the check alike (with
            // amounts up to 1010 about four runs in ten had an array the CHECK refused among them: a 500, not a 201)
            Files.writeString(config, Files.readString(config).replace("status: [201]", "status: [200]")
                    .replace("quantity: {min: 1, max: 1010}", "quantity: {min: 1, max: 1000}"));
            RigscopeRun r = RigscopeRun.rigscope("run", "--config", config.toString(), "--series",
                    "rest-strict-" + UUID.randomUUID(), "--bootstrap", kafka.bootstrap());
            String out = r.out() + r.err();
            assertThat(r.exit()).as(out).isNotEqualTo(ExitCodes.OK);
            assertThat(out).contains("bring-up checks failed: no load offered")
                    .contains("yet the service stored 10 row(s) of it").contains("(5 times)");
            assertThat(out.split("which fails its check", -1)).as(out).hasSize(2);
        }
    }

    private static ChildJvm start(String database) {
        return ChildJvm.start(new ChildJvm.Spec("the orders service", GraphqlServiceProcess.JAVA_OPTS,
                OrdersRestService.class.getName(),
                List.of("--pg", "env:ORDERS_PG", "--slow-every", "25", "--slow-ms", "1200"),
                Map.of("ORDERS_PG", pg.libpqUrl(database, "postgres")), OrdersRestService.LISTENING,
                Duration.ofSeconds(60), ChildJvm.newLogFile("rigscope-orders-", "the orders service")));
    }

    private static Path series(Path dir, String database, ChildJvm orders, int repeats, String denominatorQuantity)
            throws IOException {
        String yaml;
        try (InputStream in = RestRefusalsEndToEndTest.class.getResourceAsStream("/ownservice/rest-refusals.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        yaml = yaml.replace("${PG_URL}", pg.libpqUrl(database, "postgres"))
                .replace("${TARGET_URL}", orders.baseUri().toString())
                .replace("${PGDATA}", pg.cluster().dataDir().toString())
                .replace("${PGLOG}", pg.cluster().logFile().toString())
                .replace("${REPEATS}", Integer.toString(repeats))
                .replace("${DENOMINATOR_QUANTITY}", denominatorQuantity);
        Path file = dir.resolve("rest-refusals.yaml");
        Files.writeString(file, yaml);
        return file;
    }
}
