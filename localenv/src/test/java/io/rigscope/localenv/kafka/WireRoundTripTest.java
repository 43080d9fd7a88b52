package io.rigscope.localenv.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.DeadLetter;
import io.rigscope.model.wire.WireExamples;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.DeadLetterSink;
import io.rigscope.wire.WireFileReader;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.BrokerAddressFile;
import io.rigscope.wire.kafka.TopicAdmin;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

// The wire client's round trip lives here, not in wire: it needs a broker, and localenv (which has one) depends on wire.
// its own broker, not the shared KafkaBroker fixture: it checks that ensureTopics creates every topic on a fresh broker
@Tag("it")
class WireRoundTripTest {

    private static EmbeddedKafka kafka;
    private final WireCodec codec = new WireCodec();

    @BeforeAll
    static void startBroker(@TempDir Path dir) {
        kafka = EmbeddedKafka.start(dir, 0);
        try (var admin = new TopicAdmin(kafka.bootstrap())) {
            assertThat(admin.ensureTopics()).hasSize(Topic.values().length);
            assertThat(admin.ensureTopics()).isEmpty();
        }
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void oneRecordOfEveryTopicComesBackEqualThroughTheBrokerAndTheWireFile(@TempDir Path dir) {
        List<WireRecord> examples = WireExamples.all();
        assertThat(examples).extracting(WireRecord::topic).containsExactly(Topic.values());
        Path out = dir.resolve("out.jsonl");
        try (var publisher = new WirePublisher(kafka.bootstrap(), codec,
                WirePublisher.Options.defaults().withOutFile(out))) {
            examples.forEach(publisher::publish);
            publisher.flush();
            assertThat(publisher.acked()).isEqualTo(examples.size());
        }
        List<WireRecord> back = new WireSource(kafka.bootstrap(), codec)
                .records(new WireSource.Spec(EnumSet.allOf(Topic.class), "s-2026-11-30a", true, false),
                        failed -> { throw new AssertionError(failed.deadLetter().reason()); })
                .collectList().block(Duration.ofSeconds(60));
        assertThat(new HashSet<>(back)).isEqualTo(new HashSet<>(examples));
        assertThat(back).hasSize(examples.size());

        List<Decoded> fromFile = WireFileReader.read(out, codec).collectList().block(Duration.ofSeconds(10));
        assertThat(fromFile).extracting(d -> ((Decoded.Ok) d).record()).containsExactlyElementsOf(examples);
    }

    @Test
    void aReaderFromATimeGetsWhatWasPublishedSinceThenAndAReaderFromTheEndDoesNot() {
        String series = "since-test";
        long before = System.currentTimeMillis();
        var verdict = new io.rigscope.model.wire.Verdict(series, 1, "analyzer", 1_000_000L,
                io.rigscope.model.wire.Verdict.Kind.ABORT, null, java.util.Map.of("threshold", "x"));
        try (var publisher = new WirePublisher(kafka.bootstrap(), codec, WirePublisher.Options.defaults())) {
            publisher.publish(verdict);
            publisher.flush();
        }
        // both start after the record was published; neither follows, so each stops at the end
        List<WireRecord> since = new WireSource(kafka.bootstrap(), codec)
                .records(new WireSource.Spec(EnumSet.of(Topic.VERDICTS), series, false, false, before - 1_000),
                        failed -> { })
                .collectList().block(Duration.ofSeconds(60));
        List<WireRecord> fromEnd = new WireSource(kafka.bootstrap(), codec)
                .records(new WireSource.Spec(EnumSet.of(Topic.VERDICTS), series, false, false), failed -> { })
                .collectList().block(Duration.ofSeconds(60));
        assertThat(since).containsExactly(verdict);
        assertThat(fromEnd).isEmpty();
        List<WireRecord> later = new WireSource(kafka.bootstrap(), codec)
                .records(new WireSource.Spec(EnumSet.of(Topic.VERDICTS), series, false, false,
                        System.currentTimeMillis() + 60_000), failed -> { })
                .collectList().block(Duration.ofSeconds(60));
        assertThat(later).as("no record at or after that time: the end").isEmpty();
    }

    @Test
    void aMalformedRecordLandsInTheDeadLetterTopicWithItsReasonAndTheStreamGoesOn() {
        String series = "dlq-test";
        try (var publisher = new WirePublisher(kafka.bootstrap(), codec, WirePublisher.Options.defaults())) {
            publisher.publishRaw("rig.ledger", series, "{\"run\":\"dlq-test\",\"rep\":1,".getBytes(StandardCharsets.UTF_8));
            publisher.publishRaw("rig.ledger", series, ("{\"run\":\"dlq-test\",\"rep\":1,\"src\":\"gen-1\",\"ts\":5,"
                    + "\"scenario\":\"ingest\",\"sec\":1,\"scheduled\":3,\"sent\":3,\"dropped\":0,\"completed\":3,"
                    + "\"last\":true}").getBytes(StandardCharsets.UTF_8));
            publisher.flush();

            var sink = new DeadLetterSink(publisher);
            List<WireRecord> good = new WireSource(kafka.bootstrap(), codec)
                    .records(new WireSource.Spec(EnumSet.of(Topic.LEDGER), series, true, false), sink)
                    .collectList().block(Duration.ofSeconds(60));
            publisher.flush();
            assertThat(good).hasSize(1);
            assertThat(sink.count()).isEqualTo(1);
        }
        List<WireRecord> letters = new WireSource(kafka.bootstrap(), codec)
                .records(new WireSource.Spec(EnumSet.of(Topic.DLQ), series, true, false),
                        failed -> { throw new AssertionError(failed.deadLetter().reason()); })
                .collectList().block(Duration.ofSeconds(60));
        assertThat(letters).hasSize(1);
        DeadLetter letter = (DeadLetter) letters.get(0);
        assertThat(letter.topicName()).isEqualTo("rig.ledger");
        assertThat(letter.reason()).startsWith("malformed JSON");
        assertThat(letter.origin()).startsWith("rig.ledger/");
        assertThat(letter.payload()).isEqualTo("{\"run\":\"dlq-test\",\"rep\":1,");
    }

    @Test
    void aSecondEndpointOnTheSameDataDirectoryFindsTheRunningBroker() {
        var found = BrokerAddressFile.find(kafka.dataDir());
        assertThat(found).contains(kafka.bootstrap());
        assertThat(Files.exists(kafka.dataDir().resolve("bootstrap"))).isTrue();
    }
}
