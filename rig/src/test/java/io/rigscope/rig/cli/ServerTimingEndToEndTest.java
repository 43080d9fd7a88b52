package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.rig.Main;
import io.rigscope.sut.RunningSut;
import io.rigscope.sut.testing.SutOnPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A demo-quick-like series against the reference SUT on a real PostgreSQL and the embedded broker: every repeat of
 * the JSON report carries the service's own account of its time ({@code server_timing} with {@code db} and
 * {@code pool}), the wire file keeps it on the samples, and the replay reaches the same report byte for byte. The
 * series file names the service's process ({@code target.pid}: the SUT runs in this test's JVM, so it is this JVM's
 * pid), and the series watches it ({@code rig.process} records of that pid on the wire).
 */
@Tag("it")
class ServerTimingEndToEndTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();
    @RegisterExtension
    static final SutOnPostgres db = new SutOnPostgres();

    @Test
    void everyRepeatSaysWhereTheServiceSpentItsTimeTheFilesPidIsWatchedAndTheReplayAgrees(@TempDir Path dir) throws Exception {
        try (RunningSut sut = db.start()) {
            Path config = dir.resolve("series.yaml");
            long pid = ProcessHandle.current().pid();
            Files.writeString(config, "target: {url: '" + sut.baseUri() + "', api_key: rigscope-demo-key, pid: " + pid
                    + "}\n"
                    + "database: " + db.owner().libpq() + "\n"
                    + "load: {batch: 10, customers: 1000, max_in_flight: 64, timeout: 5s, probe_rate: 0}\n"
                    + "ladder: {rates: [50], repeats: 1, duration: 4s}\n"
                    + "sustained: {rate: 100, repeats: 1, duration: 6s, cooldown: 1s}\n"
                    + "thresholds:\n"
                    + "  http_req_failed: ['rate<0.5']\n");
            String series = "st-" + UUID.randomUUID();
            Path report = dir.resolve("report.json");
            Path wire = dir.resolve("wire.jsonl");

            Result r = run("run", "--config", config.toString(), "--allow", "--series", series, "--bootstrap", kafka.bootstrap(),
                    "--report-json", report.toString(), "--out", wire.toString());

            JsonNode json = new ObjectMapper().readTree(report.toFile());
            assertThat(json.path("repeats").size()).as(r.out()).isGreaterThanOrEqualTo(2);
            for (JsonNode rep : json.path("repeats")) {
                JsonNode st = rep.path("server_timing");
                assertThat(st.has("db")).as(rep.toString()).isTrue();
                assertThat(st.has("pool")).isTrue();
                assertThat(st.has("app")).isTrue();
                assertThat(st.path("db").path("p50_ms").asDouble()).as("an insert holds its connection").isPositive();
                assertThat(st.path("db").path("p99_ms").asDouble())
                        .isGreaterThanOrEqualTo(st.path("db").path("p50_ms").asDouble());
            }
            assertThat(Files.readAllLines(wire)).anyMatch(l -> l.contains("\"server_timing_us\":{\"pool\":"));
            assertThat(r.out()).contains("process: watching the service's process, pid " + pid + " (target.pid)");
            assertThat(Files.readAllLines(wire).stream().filter(l -> l.startsWith("{\"topic\":\"rig.process\""))
                    .toList()).as("rig.process records of the file's pid").isNotEmpty()
                    .allMatch(l -> l.contains("\"pid\":" + pid + ","));

            Path replayed = dir.resolve("replayed.json");
            run("analyze", "--series", series, "--input", wire.toString(), "--quiet", "--report-json",
                    replayed.toString());
            assertThat(Files.readString(replayed)).isEqualTo(Files.readString(report));
        }
    }

    private record Result(int exit, String out) {
    }

    private static Result run(String... args) {
        var out = new ByteArrayOutputStream();
        PrintStream old = System.out;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            int exit = Main.run(args);
            return new Result(exit, out.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(old);
        }
    }
}
