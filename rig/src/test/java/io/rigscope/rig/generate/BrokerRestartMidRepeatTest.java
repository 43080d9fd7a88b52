package io.rigscope.rig.generate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.generator.target.BenchServer;
import io.rigscope.localenv.net.LoopbackPorts;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Ledger;
import io.rigscope.rig.Main;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.KafkaClients;
import io.rigscope.wire.kafka.TopicAdmin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker that stops taking writes mid-repeat never ends the repeat as a silent generator. A live {@code analyze}
 * follows {@code generate --rate 100 --duration 40s} (a process of its own, alive throughout) while the broker, an
 * embedded one in a JVM of its own, is first frozen for 8 s (SIGSTOP, then SIGCONT: the clients' connections stay
 * open and nothing is answered, as in a long pause or a stalled disk), then stopped (SIGTERM: its controlled
 * shutdown) and started again 3 s later on the same data directory and port. Both last longer than
 * {@code generator_silence_s} (5 s). Under the rule that counted a connected consumer as evidence the freeze ended
 * the repeat {@code generator_silent}; the repeat must be judged from the generator's end marker.
 */
@Timeout(300)
@Tag("it")
class BrokerRestartMidRepeatTest {

    @TempDir
    Path dir;

    @Test
    void aBrokerFrozenThenStoppedAndRestartedMidRepeatIsNeverAGeneratorFallingSilent() throws Exception {
        String series = "broker-restart-" + System.nanoTime();
        Path kafkaDir = dir.resolve("kafka");
        Path brokerLog = dir.resolve("broker.log");
        int port = LoopbackPorts.free();
        BrokerProcess broker = BrokerProcess.start(kafkaDir, port, brokerLog);
        try (BenchServer server = new BenchServer(1)) {
            String bootstrap = broker.bootstrap;
            try (TopicAdmin admin = new TopicAdmin(bootstrap)) {
                admin.ensureTopics();
            }
            Path live = dir.resolve("live.json");
            CompletableFuture<Integer> analyze = CompletableFuture.supplyAsync(() -> Main.run("analyze", "--series",
                    series, "--bootstrap", bootstrap, "--timeout", "200s", "--quiet", "--report-json",
                    live.toString()));
            List<String> child = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx512m", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "generate",
                    "--bootstrap", bootstrap, "--url", server.url(), "--rate", "100", "--duration", "40s",
                    "--batch", "0", "--method", "GET", "--series", series, "--rep", "1", "--last", "--no-spool");
            Process generator = new ProcessBuilder(child).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("generate.log").toFile()).start();
            try {
                Ledger first = new WireSource(KafkaClients.of(bootstrap), new WireCodec())
                        .records(new WireSource.Spec(EnumSet.of(Topic.LEDGER), series, true, true), f -> { })
                        .filter(r -> r instanceof Ledger).cast(Ledger.class).blockFirst(Duration.ofSeconds(120));
                assertThat(first).as(Files.readString(dir.resolve("generate.log"))).isNotNull();
                Thread.sleep(3_000);
                broker.signal("STOP");
                Thread.sleep(8_000);
                broker.signal("CONT");
                Thread.sleep(5_000);
                long stopMs = broker.stop();
                Thread.sleep(3_000);
                long restartNs = System.nanoTime();
                broker = BrokerProcess.start(kafkaDir, port, brokerLog);
                System.out.printf("broker: frozen 8 s; stop took %.1f s; restart %.1f s%n", stopMs / 1e3,
                        (System.nanoTime() - restartNs) / 1e9);

                assertThat(generator.waitFor(150, TimeUnit.SECONDS)).isTrue();
                assertThat(generator.exitValue()).as(Files.readString(dir.resolve("generate.log"))).isZero();
            } finally {
                generator.destroyForcibly();
            }
            int exit = analyze.get(150, TimeUnit.SECONDS);
            JsonNode rep = new ObjectMapper().readTree(live.toFile()).path("repeats").get(0);
            assertThat(rep.has("ended_by")).as("exit %d, %s", exit, rep).isFalse();
            assertThat(rep.has("silence")).as(rep.toString()).isFalse();
        } finally {
            broker.close();
        }
    }
}
