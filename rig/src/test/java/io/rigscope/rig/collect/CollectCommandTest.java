package io.rigscope.rig.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.cli.RigscopeCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("it")
class CollectCommandTest {

    @Test
    void collectAllWritesRecordsOfEveryLocalCollectorToTheWireFile(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("all.jsonl");
        int code = RigscopeCommand.commandLine().execute("collect", "all", "--series", "t1", "--duration", "4s",
                "--out", out.toString(), "--no-kafka");

        assertThat(code).isZero();
        Map<String, Integer> bySrc = new TreeMap<>();
        for (String line : Files.readAllLines(out)) {
            var node = new WireCodec().json().readTree(line);
            assertThat(node.get("key").asText()).isEqualTo("t1");
            bySrc.merge(node.at("/value/src").asText().replaceAll("@.*", ""), 1, Integer::sum);
        }
        assertThat(bySrc.keySet()).contains("vmstat", "os", "waits", "db", "canary");
    }

    // its own bare broker, not the shared KafkaBroker fixture: collect must create its topics on a broker that has none
    @Test
    void collectedRecordsArriveOnTheirTopicsOfARealBroker(@TempDir Path dir) {
        try (var broker = io.rigscope.localenv.kafka.EmbeddedKafka.start(dir.resolve("kafka"), 0)) {
            int code = RigscopeCommand.commandLine().execute("collect", "os", "--series", "k1", "--duration", "3s",
                    "--bootstrap", broker.bootstrap(), "--pgdata", dir.toString(), "--interval", "500ms");
            assertThat(code).isZero();

            var source = new io.rigscope.wire.WireSource(broker.bootstrap(), new WireCodec());
            var records = source.records(new io.rigscope.wire.WireSource.Spec(
                            java.util.Set.of(io.rigscope.model.topic.Topic.OS), "k1", true, false), failed -> { })
                    .collectList().block(java.time.Duration.ofSeconds(30));
            assertThat(records).hasSizeGreaterThanOrEqualTo(3).allSatisfy(r -> {
                assertThat(r).isInstanceOf(io.rigscope.model.wire.OsMetrics.class);
                assertThat(r.run()).isEqualTo("k1");
                assertThat(r.src()).startsWith("os@");
            });
        }
    }

    @Test
    void anUnknownCollectorIsAUsageError() {
        StringWriter err = new StringWriter();
        var cl = RigscopeCommand.commandLine();
        cl.setErr(new PrintWriter(err));
        int code = cl.execute("collect", "iostat", "--series", "t1", "--no-kafka", "--out", "x.jsonl");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("unknown collector 'iostat'");
    }

    @Test
    void anRdsCollectorWithoutItsIdentifierIsAUsageError() {
        StringWriter err = new StringWriter();
        var cl = RigscopeCommand.commandLine();
        cl.setErr(new PrintWriter(err));
        int code = cl.execute("collect", "pi", "--series", "t1", "--no-kafka", "--out", "x.jsonl", "--region", "eu-west-1");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--dbi-resource-id");
    }
}
