package io.rigscope.generator.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.testing.KafkaBroker;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.KafkaClients;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery deletes a journal only once the broker acknowledged every record in it: against an address where no
 * broker listens the file stays, whole; against the real broker every record arrives, in order, and the file goes.
 */
@Timeout(120)
@Tag("it")
class SampleJournalRecoveryTest {

    @RegisterExtension
    static final KafkaBroker kafka = new KafkaBroker();

    private static final WireCodec CODEC = new WireCodec();

    @TempDir
    Path dir;

    private static SampleBatch batch(String series, int i) {
        long t0 = 1_764_000_000_000_000L + i * 1_000L;
        return new SampleBatch(series, 1, "gen-1", t0 + 500, List.of(
                new Sample("ingest", t0, t0 + 1, t0 + 300, 200, ErrorKind.NONE, 1, 1, 10)));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static SampleJournal.Recovered recoverTo(KafkaClients clients, Path dir) {
        try (WirePublisher publisher = new WirePublisher(clients, CODEC, WirePublisher.Options.defaults())) {
            return SampleJournal.recover(dir, "gen-1", SampleJournal.Destination.of(publisher), CODEC).get(0);
        }
    }

    @Test
    void aJournalIsKeptWholeWhenPublishingFailsAndDeletedOnceTheBrokerAcknowledgedAll() throws IOException {
        String series = "journal-recovery-1";
        SampleJournal journal = SampleJournal.create(dir, "gen-1", CODEC);
        for (int i = 0; i < 6; i++) {
            journal.append(batch(series, i));
        }
        journal.acknowledged(null); // the first one reached the broker; the others never did
        journal.close();
        Path file = journal.path();
        long size = Files.size(file);

        // nothing listens there: the first send fails within max.block.ms, and no later one is tried
        KafkaClients nowhere = new KafkaClients("127.0.0.1:" + freePort(), Map.of("max.block.ms", "1000",
                "request.timeout.ms", "1000", "delivery.timeout.ms", "2000"));
        SampleJournal.Recovered failed = recoverTo(nowhere, dir);
        assertThat(failed.complete()).isFalse();
        assertThat(failed.entries()).isEqualTo(6);
        assertThat(failed.acknowledged()).isEqualTo(1);
        assertThat(failed.published()).isZero();
        assertThat(failed.failed()).isEqualTo(5);
        assertThat(failed.error()).isNotBlank();
        assertThat(file).as("a journal whose records did not reach the broker is kept").exists();
        assertThat(Files.size(file)).isEqualTo(size);

        SampleJournal.Recovered done = recoverTo(KafkaClients.of(kafka.bootstrap()), dir);
        assertThat(done.complete()).isTrue();
        assertThat(done.acknowledged()).isEqualTo(1);
        assertThat(done.published()).isEqualTo(5);
        assertThat(done.samples()).isEqualTo(5);
        assertThat(file).as("deleted once every record is acknowledged").doesNotExist();

        List<WireRecord> onTopic = new WireSource(kafka.bootstrap(), CODEC)
                .records(new WireSource.Spec(Set.of(Topic.SAMPLES), series, true, false), f -> { })
                .collectList().block(Duration.ofSeconds(60));
        assertThat(onTopic).containsExactly(batch(series, 1), batch(series, 2), batch(series, 3), batch(series, 4),
                batch(series, 5));
    }

    @Test
    void aPublisherWithAJournalKeepsWhatFailedAndDropsItsFileWhenAllIsAcknowledged() {
        String series = "journal-recovery-2";
        SampleJournal journal = SampleJournal.create(dir, "collect-" + series, CODEC);
        try (WirePublisher publisher = new WirePublisher(KafkaClients.of(kafka.bootstrap()), CODEC,
                WirePublisher.Options.defaults(), journal)) {
            for (int i = 0; i < 20; i++) {
                publisher.publish(batch(series, i));
            }
            publisher.flush();
            assertThat(publisher.acked()).isEqualTo(20);
        }
        assertThat(journal.written()).isEqualTo(20);
        assertThat(journal.unacknowledged()).isZero();
        journal.close();
        assertThat(journal.path()).doesNotExist();
    }
}
