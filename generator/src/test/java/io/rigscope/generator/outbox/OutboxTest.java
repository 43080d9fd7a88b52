package io.rigscope.generator.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.Health;
import io.rigscope.model.wire.WireRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutboxTest {

    @TempDir
    Path dir;

    private static Health record(int i) {
        return new Health("s", 0, "gen-1", 1 + i, 0, 0, 0, 0, i, 0);
    }

    @Test
    void aStalledSinkNeverBlocksTheProducerAndEveryRecordArrivesInOrder() throws Exception {
        List<WireRecord> received = new CopyOnWriteArrayList<>();
        CountDownLatch brokerBack = new CountDownLatch(1);
        RecordSink stalled = r -> {
            try {
                brokerBack.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            received.add(r);
        };
        Path spool = dir.resolve("spool.bin");
        Outbox outbox = new Outbox(stalled, 8, spool, new WireCodec());
        // While the sink is stalled, 2,000 offers must all return: 8 fit in the queue, 1 is in the sink's hands,
        // the rest go to the spool file.
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int i = 0; i < 2_000; i++) {
                outbox.offer(record(i));
            }
        });
        assertThat(outbox.published()).isZero();
        assertThat(outbox.spooled()).isGreaterThanOrEqualTo(2_000 - 9);
        assertThat(Files.size(spool)).isPositive();

        brokerBack.countDown();
        outbox.close(Duration.ofSeconds(60));

        assertThat(outbox.produced()).isEqualTo(2_000);
        assertThat(outbox.published()).isEqualTo(outbox.produced());
        assertThat(received).hasSize(2_000);
        for (int i = 0; i < 2_000; i++) {
            assertThat(((Health) received.get(i)).inFlight()).isEqualTo(i);
        }
        assertThat(Files.exists(spool)).isFalse();
    }

    @Test
    void aSinkThatThrowsFailsTheCloseWithTheCounts() {
        Outbox outbox = new Outbox(r -> {
            throw new IllegalStateException("broker gone");
        }, 8, dir.resolve("spool.bin"), new WireCodec());
        outbox.offer(record(1));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> outbox.close(Duration.ofSeconds(5)))
                .hasMessageContaining("after 0 of 1 record(s)").hasMessageContaining("broker gone");
    }
}
