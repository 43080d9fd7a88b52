package io.rigscope.rig.collect;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.rig.options.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

@Tag("it")
class CollectK6CommandTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    @TempDir
    Path dir;

    @Test
    void collectK6FollowsAFileUntilItIsIdleAndEndsTheRepeatWithWhatItPublished() throws Exception {
        Path file = dir.resolve("out.json");
        Files.writeString(file, point(1_700_000_000_100_000L, 12.5) + point(1_700_000_001_100_000L, 14.0));
        Path wire = dir.resolve("k6.jsonl");

        var run = rigscope("collect", "k6", "--follow", file.toString(), "--series", "ck6", "--stop-after-idle", "1s",
                "--no-kafka", "--out", wire.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("collect k6: 2 lines, 2 samples, 0 dropped, 0 unreadable, ended: idle");
        List<String> lines = Files.readAllLines(wire);
        var json = new WireCodec().json();
        assertThat(json.readTree(lines.get(2)).at("/value/data/seconds_closed_by").asText()).isEqualTo("time");
        assertThat(json.readTree(lines.get(lines.size() - 2)).at("/value/data/samples_by_scenario/default").asLong())
                .isEqualTo(2);
    }

    @Test
    void collectK6NeedsAFileOrATopic() {
        var run = rigscope("collect", "k6", "--series", "x", "--no-kafka", "--out", dir.resolve("x.jsonl").toString());
        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("collect k6 needs one of --follow FILE", "--topic T");
    }

    @Test
    void collectK6RefusesToFollowACompressedFile() {
        var run = rigscope("collect", "k6", "--follow", dir.resolve("out.json.gz").toString(), "--series", "x",
                "--no-kafka", "--out", dir.resolve("x.jsonl").toString());
        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--follow " + dir.resolve("out.json.gz") + ": a compressed file cannot be followed");
    }

    @Test
    void aTopicOfInfluxDbLineProtocolIsRefusedNamingTheFormat() throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (var admin = new io.rigscope.wire.kafka.TopicAdmin(kafka.bootstrap())) {
            admin.ensureOnePartitionTopic("k6-influx");
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            producer.send(new ProducerRecord<>("k6-influx", "http_req_duration,expected_response=true,scenario=default,"
                    + "status=200 value=12.345 1700000000100000000")).get();
        }

        var run = rigscope("collect", "k6", "--topic", "k6-influx", "--series", "x", "--stop-after-idle", "20s",
                "--bootstrap", kafka.bootstrap());

        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("topic k6-influx holds InfluxDB line protocol (xk6-output-kafka's "
                + "format=influxdb; partition 0 offset 0: 'http_req_duration,expected_response=true", "json format");
    }

    private static String point(long endUs, double ms) {
        String time = java.time.Instant.ofEpochSecond(endUs / 1_000_000L, (endUs % 1_000_000L) * 1000).toString();
        return "{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"data\":{\"time\":\"" + time + "\",\"value\":" + ms
                + ",\"tags\":{\"status\":\"200\",\"expected_response\":\"true\"}}}\n";
    }
}
