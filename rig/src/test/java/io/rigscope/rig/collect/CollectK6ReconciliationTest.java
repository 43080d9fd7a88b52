package io.rigscope.rig.collect;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.localenv.testing.Postgres;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.cli.RigscopeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code collect k6 --pg URL --reconciliation-sql SQL}: when the followed k6 repeat ends, what a table written here
 * gained over the repeat's window is published as its RECONCILIATION, before the series' end, and the analyzer
 * reconciles the repeat with it.
 */
@Tag("it")
class CollectK6ReconciliationTest {

    @RegisterExtension
    static final Postgres pg = new Postgres();

    @TempDir
    Path dir;

    @Test
    void aFollowedK6RepeatIsCountedInTheDatabaseWhenItEndsAndReconciles() throws Exception {
        // three 200s ending 3, 2 and 1 s ago; each stored one row while it ran; one row outside the window
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        StringBuilder k6 = new StringBuilder();
        for (int i = 3; i >= 1; i--) {
            k6.append(point(now.minusSeconds(i), 12.5));
        }
        Path file = dir.resolve("out.json");
        Files.writeString(file, k6);
        pg.psql("postgres", "CREATE TABLE IF NOT EXISTS events (received_at timestamptz, quantity int)");
        pg.psql("postgres", "INSERT INTO events VALUES ('" + now.minusSeconds(3).minusMillis(5) + "', 4), ('"
                + now.minusSeconds(2).minusMillis(5) + "', 5), ('" + now.minusSeconds(1).minusMillis(5) + "', 6), ('"
                + now.minusSeconds(60) + "', 100)");
        Path wire = dir.resolve("k6.jsonl");
        String sql = "SELECT count(*) AS rows_written, 0 AS qty_sum_gained FROM events "
                + "WHERE received_at >= :window_start AND received_at < :window_end";

        RigscopeRun collected = rigscope("collect", "k6", "--follow", file.toString(), "--series", "ck6-recon",
                "--stop-after-idle", "1s", "--no-kafka", "--out", wire.toString(),
                "--pg", pg.libpqUrl("postgres", "postgres"), "--reconciliation-sql", sql);

        assertThat(collected.exit()).as(collected.err()).isZero();
        assertThat(collected.err()).contains("reconciliation: repeat 1, the database gained 3 rows, Σ quantity 0");
        Path report = dir.resolve("report.json");
        RigscopeRun analyzed = rigscope("analyze", "--series", "ck6-recon", "--input", wire.toString(), "--quiet",
                "--report-json", report.toString());
        assertThat(analyzed.exit()).as(analyzed.out()).isIn(ExitCodes.OK, ExitCodes.GATES_FAILED);
        JsonNode r = new ObjectMapper().readTree(report.toFile());
        assertThat(r.path("reconciliation").asText()).isEqualTo("reconciled");
        assertThat(r.path("repeats").get(0).path("events_claimed").asLong()).isEqualTo(3);
    }

    private static String point(Instant end, double ms) {
        return "{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"data\":{\"time\":\"" + end + "\",\"value\":" + ms
                + ",\"tags\":{\"status\":\"200\",\"expected_response\":\"true\"}}}\n";
    }
}
