package io.rigscope.rig.generate;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.generator.target.BenchServer;
import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Ledger;
import io.rigscope.rig.Main;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.cli.RigscopeRun;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kill of issue 26, end to end: a live {@code analyze} follows a series while {@code generate --rep 1 --rate 100
 * --duration 30s}, in a process of its own, is killed with SIGKILL a few seconds into its schedule. The analyzer
 * judges the repeat within the silence grace of the kill (not at its --timeout), failing, {@code ended_by:
 * generator_silent}; a replay of the topics and an {@code analyze --input} of them write the same report, byte for byte.
 * The generator ran with {@code --spool DIR}: {@code generate --recover DIR} then publishes exactly the samples its
 * journal held beyond the broker's last acknowledgement.
 */
@Timeout(240)
@Tag("it")
class GeneratorKilledMidRepeatTest {

    @RegisterExtension
    static final KafkaBroker broker = new KafkaBroker();

    @TempDir
    Path dir;

    @Test
    void aGeneratorStoppedBySigtermPublishesItsEndAndIsNeverSilent() throws Exception {
        String series = "terminated-" + System.nanoTime();
        Path live = dir.resolve("terminated.json");
        try (BenchServer server = new BenchServer(1)) {
            CompletableFuture<Integer> analyze = CompletableFuture.supplyAsync(() -> Main.run("analyze", "--series",
                    series, "--bootstrap", broker.bootstrap(), "--timeout", "90s", "--quiet", "--report-json",
                    live.toString()));
            List<String> child = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), "generate", "--bootstrap",
                    broker.bootstrap(), "--url", server.url(), "--rate", "100", "--duration", "30s", "--batch", "0",
                    "--method", "GET", "--series", series, "--rep", "1", "--last", "--no-spool"));
            Process generator = new ProcessBuilder(child).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("terminated.log").toFile()).start();
            try {
                Ledger first = new WireSource(KafkaClients.of(broker.bootstrap()), new WireCodec())
                        .records(new WireSource.Spec(EnumSet.of(Topic.LEDGER), series, true, true), f -> { })
                        .filter(r -> r instanceof Ledger).cast(Ledger.class).blockFirst(Duration.ofSeconds(60));
                assertThat(first).isNotNull();
                Thread.sleep(3_000);
            } finally {
                generator.destroy(); // SIGTERM
            }
            assertThat(generator.waitFor(90, TimeUnit.SECONDS)).isTrue();
            assertThat(generator.exitValue()).as(Files.readString(dir.resolve("terminated.log"))).isEqualTo(143);
            assertThat(Files.readString(dir.resolve("terminated.log")))
                    .contains("generate: stopping on a signal").contains("published SERIES_END");
            assertThat(analyze.get(60, TimeUnit.SECONDS)).isEqualTo(ExitCodes.GATES_FAILED);
            JsonNode rep = new ObjectMapper().readTree(live.toFile()).path("repeats").get(0);
            assertThat(rep.has("ended_by")).as(rep.toString()).isFalse();
            assertThat(rep.has("silence")).isFalse();
        }
    }

    private static long samplesOnTheWire(String series) {
        return new WireSource(KafkaClients.of(broker.bootstrap()), new WireCodec())
                .records(new WireSource.Spec(EnumSet.of(Topic.SAMPLES), series, true, false), f -> { })
                .filter(r -> r instanceof io.rigscope.model.wire.SampleBatch)
                .map(r -> (long) ((io.rigscope.model.wire.SampleBatch) r).samples().size())
                .reduce(0L, Long::sum).block(Duration.ofSeconds(60));
    }

    @Test
    void aGeneratorKilledMidRepeatEndsItsRepeatWithinTheGraceAndTheReplayReportsTheSame() throws Exception {
        String series = "killed-" + System.nanoTime();
        Path live = dir.resolve("live.json");
        try (BenchServer server = new BenchServer(1)) {
            CompletableFuture<Integer> analyze = CompletableFuture.supplyAsync(() -> Main.run("analyze", "--series",
                    series, "--bootstrap", broker.bootstrap(), "--timeout", "120s", "--quiet", "--report-json",
                    live.toString()));
            List<String> child = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), "generate", "--bootstrap",
                    broker.bootstrap(), "--url", server.url(), "--rate", "100", "--duration", "30s", "--batch", "0",
                    "--method", "GET", "--series", series, "--rep", "1", "--spool", dir.resolve("journal").toString()));
            Process generator = new ProcessBuilder(child).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("generate.log").toFile()).start();
            try {
                // its ledger is on the wire: the schedule runs; kill it a few seconds in
                Ledger first = new WireSource(KafkaClients.of(broker.bootstrap()), new WireCodec())
                        .records(new WireSource.Spec(EnumSet.of(Topic.LEDGER), series, true, true), f -> { })
                        .filter(r -> r instanceof Ledger).cast(Ledger.class).blockFirst(Duration.ofSeconds(60));
                assertThat(first).as(Files.readString(dir.resolve("generate.log"))).isNotNull();
                Thread.sleep(5_000);
            } finally {
                generator.destroyForcibly(); // SIGKILL on Linux: no end marker, no flush
            }
            long killedNs = System.nanoTime();
            assertThat(generator.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(generator.exitValue()).as("killed by SIGKILL").isEqualTo(137);

            int exit = analyze.get(100, TimeUnit.SECONDS);
            long judgedAfterMs = (System.nanoTime() - killedNs) / 1_000_000;
            assertThat(exit).isEqualTo(ExitCodes.GATES_FAILED);
            // judged once silent for 5 s, then ended once nothing arrived for attribution_grace_s (5 s): not at 120 s
            assertThat(judgedAfterMs).as("analyze ended after the kill").isLessThan(20_000);
            JsonNode rep = new ObjectMapper().readTree(live.toFile()).path("repeats").get(0);
            assertThat(rep.path("ended_by").asText()).isEqualTo("generator_silent");
            assertThat(rep.path("pass").asBoolean()).isFalse();
            assertThat(rep.path("silence").path("generator").asText()).isEqualTo("gen-1");
            assertThat(rep.path("silence").path("scheduled_s").asLong()).isEqualTo(30);
            assertThat(rep.path("silence").path("never_offered_s").asLong()).isBetween(15L, 28L);
            assertThat(rep.path("silence").path("ledger_covered_to_sec").path("gen-1").asLong())
                    .isEqualTo(rep.path("silence").path("last_ledger_sec").asLong());
            assertThat(rep.path("gates").path("generator_silent").path("reason").asText())
                    .startsWith("generator gen-1 silent since ").contains("s of the schedule never offered");

            Path replay = dir.resolve("replay.json");
            RigscopeRun replayed = rigscope("analyze", "--series", series, "--bootstrap", broker.bootstrap(),
                    "--replay", "--quiet", "--report-json", replay.toString());
            assertThat(replayed.exit()).as(replayed.err()).isEqualTo(ExitCodes.GATES_FAILED);
            assertThat(Files.readString(replay)).isEqualTo(Files.readString(live));

            RigscopeRun tail = rigscope("tail", "all", "--series", series, "--bootstrap", broker.bootstrap(),
                    "--from-beginning", "--json", "--no-follow");
            assertThat(tail.exit()).as(tail.err()).isEqualTo(ExitCodes.OK);
            Path wire = dir.resolve("series.jsonl");
            Files.writeString(wire, tail.out(), StandardCharsets.UTF_8);
            Path fromFile = dir.resolve("input.json");
            RigscopeRun input = rigscope("analyze", "--series", series, "--input", wire.toString(), "--quiet",
                    "--report-json", fromFile.toString());
            assertThat(input.exit()).as(input.err()).isEqualTo(ExitCodes.GATES_FAILED);
            assertThat(Files.readString(fromFile)).isEqualTo(Files.readString(live));

            // what the kill left in the journal: published by --recover, exactly the unacknowledged batches
            long before = samplesOnTheWire(series);
            RigscopeRun recovered = rigscope("generate", "--recover", dir.resolve("journal").toString(),
                    "--bootstrap", broker.bootstrap());
            assertThat(recovered.exit()).as(recovered.err()).isEqualTo(ExitCodes.OK);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("published now \\((\\d+) samples\\)")
                    .matcher(recovered.err());
            assertThat(m.find()).as(recovered.err()).isTrue();
            long published = Long.parseLong(m.group(1));
            assertThat(samplesOnTheWire(series)).isEqualTo(before + published);
            try (var left = Files.list(dir.resolve("journal"))) {
                assertThat(left).as("every journal recovered and deleted").isEmpty();
            }
        }
    }
}
