package io.rigscope.rig.cli;

import io.rigscope.generator.outbox.RecordSink;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.TopicAdmin;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bench's record sinks: counting by default, or with --kafka Kafka as {@code run} publishes (the same
 * {@link WirePublisher} options, each sample batch acknowledged to the generator's write-ahead journal when the
 * broker acknowledged it, as {@link RecordSink#of(WirePublisher)} does) and {@link #journalDir()} where {@code run}
 * keeps the journal.
 */
final class BenchPublishing implements AutoCloseable {
    final AtomicLong records = new AtomicLong();
    final AtomicLong samples = new AtomicLong();
    /** Worst JVM pause and event-loop lag seen in the generator's health records, µs. */
    final AtomicLong worstPauseUs = new AtomicLong();
    final AtomicLong worstLoopLagUs = new AtomicLong();
    private final KafkaEndpoint endpoint;
    private final WirePublisher publisher;
    private final Path journalDir;

    BenchPublishing(boolean throughKafka, KafkaOptions kafka) {
        if (throughKafka) {
            endpoint = kafka.open();
            try (TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
                admin.ensureTopics();
            }
            publisher = new WirePublisher(endpoint.clients(), new WireCodec(), WirePublisher.Options.defaults()
                    .withClientId("gen-bench"));
            journalDir = kafka.journalDir();
        } else {
            endpoint = null;
            publisher = null;
            journalDir = null;
        }
    }

    /** Where {@code run} keeps the write-ahead sample journal with these Kafka options; null without --kafka. */
    Path journalDir() {
        return journalDir;
    }

    /** Counts the records, then hands them to Kafka with --kafka. */
    RecordSink sink() {
        return publisher == null ? countingSink() : new RecordSink() {
            @Override
            public void publish(WireRecord record) {
                count(record);
                publisher.publish(record);
            }

            @Override
            public void publish(WireRecord record, Acknowledgement ack) {
                count(record);
                publisher.publish(record, ack::done);
            }

            @Override
            public void flush() {
                publisher.flush();
            }
        };
    }

    /** Counts the records and publishes none (the bench without Kafka, also with --kafka for its pairs). */
    RecordSink countingSink() {
        return this::count;
    }

    private void count(WireRecord record) {
        records.incrementAndGet();
        if (record instanceof SampleBatch b) {
            samples.addAndGet(b.samples().size());
        }
        if (record instanceof io.rigscope.model.wire.Health h) {
            worstPauseUs.accumulateAndGet((long) (h.jvmPauseMs() * 1000), Math::max);
            worstLoopLagUs.accumulateAndGet((long) (h.loopLagMs() * 1000), Math::max);
        }
    }

    @Override
    public void close() {
        if (publisher != null) {
            publisher.close();
        }
        if (endpoint != null) {
            endpoint.close();
        }
    }
}
