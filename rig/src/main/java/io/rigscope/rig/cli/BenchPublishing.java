package io.rigscope.rig.cli;

import io.rigscope.generator.RecordSink;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.kafka.TopicAdmin;
import java.util.concurrent.atomic.AtomicLong;

/** The bench's record sink: counting by default, or Kafka with --kafka. */
final class BenchPublishing implements AutoCloseable {
    final AtomicLong records = new AtomicLong();
    final AtomicLong samples = new AtomicLong();
    /** Worst JVM pause and event-loop lag seen in the generator's health records, µs. */
    final AtomicLong worstPauseUs = new AtomicLong();
    final AtomicLong worstLoopLagUs = new AtomicLong();
    private final KafkaEndpoint endpoint;
    private final WirePublisher publisher;

    BenchPublishing(boolean throughKafka, KafkaOptions kafka) {
        if (throughKafka) {
            endpoint = kafka.open();
            try (TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
                admin.ensureTopics();
            }
            publisher = new WirePublisher(endpoint.clients(), new WireCodec(), WirePublisher.Options.defaults()
                    .withClientId("gen-bench"));
        } else {
            endpoint = null;
            publisher = null;
        }
    }

    RecordSink sink() {
        return new RecordSink() {
            @Override
            public void publish(WireRecord record) {
                records.incrementAndGet();
                if (record instanceof SampleBatch b) {
                    samples.addAndGet(b.samples().size());
                }
                if (record instanceof io.rigscope.model.wire.Health h) {
                    worstPauseUs.accumulateAndGet((long) (h.jvmPauseMs() * 1000), Math::max);
                    worstLoopLagUs.accumulateAndGet((long) (h.loopLagMs() * 1000), Math::max);
                }
                if (publisher != null) {
                    publisher.publish(record);
                }
            }

            @Override
            public void flush() {
                if (publisher != null) {
                    publisher.flush();
                }
            }
        };
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
