package io.rigscope.generator.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The write-ahead sample journal on real files: what it keeps, what recovery publishes, what it leaves alone. */
@Timeout(60)
class SampleJournalTest {

    private static final WireCodec CODEC = new WireCodec();

    @TempDir
    Path dir;

    private static SampleBatch batch(int i) {
        long t0 = 1_764_000_000_000_000L + i * 1_000L;
        return new SampleBatch("s", 1, "gen-1", t0 + 500, List.of(
                new Sample("ingest", t0, t0 + 1, t0 + 300, 200, ErrorKind.NONE, 1, 1, 10),
                new Sample("ingest", t0 + 2, t0 + 3, t0 + 400, 200, ErrorKind.NONE, 1, 1, 10)));
    }

    /** Every entry it is sent, read back, acknowledged at once. */
    private static final class Collected implements SampleJournal.Destination {
        final List<WireRecord> records = new ArrayList<>();

        @Override
        public void send(String topic, String key, byte[] value, java.util.function.Consumer<Exception> done) {
            assertThat(topic).isEqualTo(Topic.SAMPLES.topicName());
            Decoded d = CODEC.decode(Topic.SAMPLES, key, value, "test");
            records.add(((Decoded.Ok) d).record());
            done.accept(null);
        }
    }

    private List<Path> journals() throws IOException {
        try (var s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(SampleJournal.PREFIX)).toList();
        }
    }

    @Test
    void recoveryPublishesExactlyTheBatchesTheBrokerNeverAcknowledged() throws IOException {
        SampleJournal journal = SampleJournal.create(dir, "gen-1", CODEC);
        for (int i = 0; i < 5; i++) {
            journal.append(batch(i));
        }
        for (int i = 0; i < 3; i++) {
            journal.acknowledged(null);
        }
        journal.close(); // as a kill leaves it: 2 batches unacknowledged, the file stays
        assertThat(journals()).hasSize(1);

        Collected sink = new Collected();
        List<SampleJournal.Recovered> done = SampleJournal.recover(dir, "gen-1", sink, CODEC);
        assertThat(done).singleElement().satisfies(r -> {
            assertThat(r.entries()).isEqualTo(5);
            assertThat(r.acknowledged()).isEqualTo(3);
            assertThat(r.published()).isEqualTo(2);
            assertThat(r.samples()).isEqualTo(4);
            assertThat(r.truncatedTail()).isFalse();
        });
        assertThat(sink.records).containsExactly(batch(3), batch(4));
        assertThat(journals()).as("a recovered journal is deleted").isEmpty();
    }

    @Test
    void aJournalWhoseEveryBatchWasAcknowledgedIsDeletedOnClose() throws IOException {
        SampleJournal journal = SampleJournal.create(dir, "gen-1", CODEC);
        journal.append(batch(0));
        journal.acknowledged(null);
        journal.close();
        assertThat(journals()).isEmpty();
    }

    @Test
    void anEntryCutShortByTheKillIsLeftOutAndTheRestRecovered() throws IOException {
        SampleJournal journal = SampleJournal.create(dir, "gen-1", CODEC);
        for (int i = 0; i < 3; i++) {
            journal.append(batch(i));
        }
        journal.close();
        Path file = journals().get(0);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 7);
        }
        Collected sink = new Collected();
        SampleJournal.Recovered r = SampleJournal.recover(dir, null, sink, CODEC).get(0);
        assertThat(r.truncatedTail()).isTrue();
        assertThat(r.published()).isEqualTo(2);
        assertThat(sink.records).containsExactly(batch(0), batch(1));
    }

    @Test
    void afterAFailedSendTheHeaderStaysAtTheLastContiguousAcknowledgement() throws IOException {
        SampleJournal journal = SampleJournal.create(dir, "gen-1", CODEC);
        for (int i = 0; i < 4; i++) {
            journal.append(batch(i));
        }
        journal.acknowledged(null);
        journal.acknowledged(new IOException("broker gone"));
        journal.acknowledged(null);
        journal.acknowledged(null);
        journal.close();
        Collected sink = new Collected();
        assertThat(SampleJournal.recover(dir, "gen-1", sink, CODEC).get(0).published()).isEqualTo(3);
        assertThat(sink.records).containsExactly(batch(1), batch(2), batch(3));
    }

    @Test
    void aRunningGeneratorsJournalAndAnotherGeneratorsAreLeftAlone() throws IOException {
        SampleJournal running = SampleJournal.create(dir, "gen-1", CODEC);
        running.append(batch(0));
        SampleJournal other = SampleJournal.create(dir, "gen-10", CODEC);
        other.append(batch(1));
        other.close();
        Collected sink = new Collected();
        assertThat(SampleJournal.recover(dir, "gen-1", sink, CODEC)).isEmpty();
        assertThat(sink.records).isEmpty();
        assertThat(journals()).hasSize(2);
        running.acknowledged(null);
        running.close();
        assertThat(SampleJournal.recover(dir, "gen-10", sink, CODEC)).hasSize(1);
        assertThat(sink.records).containsExactly(batch(1));
    }
}
