package io.rigscope.generator.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.generator.RecordSink;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.Health;
import io.rigscope.model.wire.WireRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutboxTest {

    @TempDir
    Path dir;

    private static Health record(int i) {
        return new Health("s", 0, "gen-1", 1 + i, 0, 0, 0, 0, i, 0);
    }

    @Test
    void aSlowSinkNeverBlocksTheProducerAndEveryRecordArrivesInOrder() {
        List<WireRecord> received = new CopyOnWriteArrayList<>();
        RecordSink slow = r -> {
            LockSupport.parkNanos(200_000L);
            received.add(r);
        };
        Path spool = dir.resolve("spool.bin");
        Outbox outbox = new Outbox(slow, 8, spool, new WireCodec());
        long startNanos = System.nanoTime();
        for (int i = 0; i < 2_000; i++) {
            outbox.offer(record(i));
        }
        long offerNanos = System.nanoTime() - startNanos;
        assertThat(outbox.spooled()).isPositive();
        outbox.close(Duration.ofSeconds(30));

        assertThat(outbox.produced()).isEqualTo(2_000);
        assertThat(outbox.published()).isEqualTo(outbox.produced());
        assertThat(received).hasSize(2_000);
        for (int i = 0; i < 2_000; i++) {
            assertThat(((Health) received.get(i)).inFlight()).isEqualTo(i);
        }
        // 2,000 records through a 0.2 ms/record sink take >= 400 ms; offering them must not wait for it
        assertThat(offerNanos).isLessThan(Duration.ofMillis(400).toNanos());
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
