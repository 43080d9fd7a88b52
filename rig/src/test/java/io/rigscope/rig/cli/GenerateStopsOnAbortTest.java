package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Marker;
import io.rigscope.rig.Main;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.sut.RunningSut;
import io.rigscope.sut.testing.SutOnPostgres;
import io.rigscope.wire.WireSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * abortOnFail with the parts run apart, as on several hosts: {@code analyze --thresholds FILE} follows a series live
 * and publishes an ABORT verdict when the threshold fails; {@code generate --rep 1} of that series reads it and
 * stops its repeat there; the report says which threshold stopped it.
 */
@Tag("it")
class GenerateStopsOnAbortTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();
    @RegisterExtension
    static final SutOnPostgres db = new SutOnPostgres();

    @TempDir
    Path dir;

    @Test
    void generateStopsItsRepeatOnTheAnalyzersAbortVerdict() throws Exception {
        try (RunningSut sut = db.start()) {
            String series = "gen-abort-" + UUID.randomUUID();
            Path thresholds = dir.resolve("k6-options.json");
            Files.writeString(thresholds, "{\"thresholds\": {\"http_reqs\": [{\"threshold\": \"count<40\", "
                    + "\"abortOnFail\": true, \"delayAbortEval\": \"3s\"}], \"http_req_failed\": [\"rate<0.5\"]}}");
            Path report = dir.resolve("report.json");
            CompletableFuture<Integer> analyze = CompletableFuture.supplyAsync(() -> Main.run("analyze", "--series",
                    series, "--bootstrap", kafka.bootstrap(), "--thresholds", thresholds.toString(), "--timeout", "25s",
                    "--quiet", "--report-json", report.toString()));

            var err = new ByteArrayOutputStream();
            PrintStream old = System.err;
            int generated;
            long started = System.nanoTime();
            try {
                System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
                generated = Main.run("generate", "--series", series, "--rep", "1", "--url",
                        sut.baseUri().resolve("/v1/usage-events").toString(), "--api-key", "rigscope-demo-key",
                        "--rate", "50", "--duration", "30s", "--bootstrap", kafka.bootstrap());
            } finally {
                System.setErr(old);
            }
            long tookMs = (System.nanoTime() - started) / 1_000_000;

            assertThat(generated).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(ExitCodes.OK);
            assertThat(err.toString(StandardCharsets.UTF_8))
                    .contains("generate: repeat 1 stopped by the analyzer's abortOnFail: http_reqs: count<40 measured");
            assertThat(tookMs).as("a 30-s schedule stopped after about 3 s").isLessThan(25_000);
            Marker end = new WireSource(kafka.bootstrap(), new WireCodec())
                    .records(new WireSource.Spec(Set.of(Topic.MARKERS), series, true, false), f -> { })
                    .filter(r -> r instanceof Marker m && m.kind() == Marker.Kind.REPEAT_END)
                    .cast(Marker.class).blockFirst(Duration.ofSeconds(30));
            assertThat(end).isNotNull();
            assertThat(((io.rigscope.model.wire.RepeatEnd) end.body()).stop().threshold()).isEqualTo("http_reqs: count<40");

            assertThat(analyze.get(60, TimeUnit.SECONDS)).isEqualTo(ExitCodes.GATES_FAILED);
            JsonNode rep = new ObjectMapper().readTree(report.toFile()).path("repeats").get(0);
            assertThat(rep.path("aborted").path("threshold").asText()).isEqualTo("http_reqs: count<40");
            assertThat(rep.path("aborted").path("delay_ms").asLong()).isEqualTo(3_000);
            assertThat(rep.path("gates").path("http_reqs: count<40").path("pass").asBoolean()).isFalse();
            assertThat(rep.path("samples").asLong()).isLessThan(50L * 20);
        }
    }

    @Test
    void aThresholdsFileThatIsNotOneExitsTwoNamingIt() throws Exception {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"thresholds\": {\"http_req_duration\": [{\"threshold\": \"p(99)<500\", "
                + "\"abortOnFail\": true, \"delayAbortEval\": \"soon\"}]}}");
        var err = new ByteArrayOutputStream();
        PrintStream old = System.err;
        int exit;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = Main.run("analyze", "--series", "x", "--input", bad.toString(), "--thresholds", bad.toString());
        } finally {
            System.setErr(old);
        }
        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--thresholds " + bad
                + ": threshold 'p(99)<500' on http_req_duration: delayAbortEval 'soon' is not a duration");
    }
}
