package io.rigscope.rig.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.localenv.kafka.EmbeddedKafka;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.wire.kafka.TopicAdmin;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 10,000 malformed values over every topic the analyzer reads, through a real broker of its own: on the module's
 * shared broker they would sit in {@code rig.markers} for every other test's readers (the dashboard's series index
 * read them all, and a dashboard test timed out on it).
 */
@Tag("it")
class MalformedRecordsTest {

    @TempDir
    static Path dir;
    static EmbeddedKafka kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafka.start(dir, 0);
        try (TopicAdmin admin = new TopicAdmin(kafka.bootstrap())) {
            admin.ensureTopics();
        }
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void tenThousandMalformedRecordsLandInTheDlqOnceEachAndLeaveTheReportAsItWas() {
        MalformedRecords.Result r = new MalformedRecords(kafka.bootstrap()).run("selftest-malformed-1", 10_000);

        assertThat(r.crashes()).isZero();
        assertThat(r.perTopic().keySet()).containsExactlyInAnyOrderElementsOf(AnalyzerInput.TOPICS);
        assertThat(r.inDlq()).isEqualTo(10_000);
        assertThat(r.withOrigin()).isEqualTo(10_000);
        assertThat(r.withReason()).isEqualTo(10_000);
        assertThat(r.dlqPerTopic()).isEqualTo(r.perTopic());
        assertThat(r.verdict()).isEqualTo(r.cleanVerdict()).isEqualTo("PASS");
        assertThat(r.reportIdentical()).isTrue();
        assertThat(r.holds()).isTrue();
    }

    @Test
    void everySortOfMalformedValueIsRefusedOnEveryTopicWithAReason() {
        MalformedRecords scenario = new MalformedRecords(kafka.bootstrap());
        WireCodec codec = new WireCodec();
        for (Topic topic : AnalyzerInput.TOPICS) {
            for (MalformedRecords.Kind kind : MalformedRecords.Kind.values()) {
                byte[] value = scenario.malformed(topic, kind, "s-1", 7);
                Decoded d = codec.decode(topic, "s-1", value, topic.topicName() + "/0@7");
                assertThat(d).as("%s on %s", kind, topic).isInstanceOf(Decoded.Failed.class);
                assertThat(((Decoded.Failed) d).deadLetter().reason()).as("%s on %s", kind, topic).isNotBlank();
                assertThat(((Decoded.Failed) d).deadLetter().origin()).isEqualTo(topic.topicName() + "/0@7");
            }
        }
    }
}
