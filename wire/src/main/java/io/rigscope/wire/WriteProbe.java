package io.rigscope.wire;

import io.rigscope.wire.kafka.KafkaClients;
import io.rigscope.wire.kafka.TopicAdmin;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Evidence that the cluster accepts writes now: a following reader writes one small record a second to
 * {@value #TOPIC} (one partition, kept an hour; never a series topic, so no series, replay or count sees it) and
 * remembers when it sent the latest one the broker acknowledged ({@code acks=all}). A write acknowledged means a
 * producer that is alive can write too: a broker that is stopping, down, restarting or still electing leaders
 * acknowledges none.
 *
 * <p>Not thread-safe except {@link #acceptedWriteSentSince}, which the producer's I/O thread feeds.
 */
final class WriteProbe implements AutoCloseable {

    /** The probe topic. */
    static final String TOPIC = "rig.probe";
    private static final long SEND_EVERY_NANOS = 1_000_000_000L;

    private final KafkaProducer<String, byte[]> producer;
    private final String key;
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private volatile boolean ackedAny;
    private volatile long ackedSentNanos;
    private boolean sentAny;
    private long lastSentNanos;

    private WriteProbe(KafkaProducer<String, byte[]> producer, String key) {
        this.producer = producer;
        this.key = key;
    }

    /**
     * Creates {@value #TOPIC} when missing and a producer for it.
     *
     * @param key the records' key (the series read), for whoever looks at the topic
     * @throws IllegalStateException when the topic cannot be created or the producer not made
     */
    static WriteProbe open(KafkaClients clients, String key) {
        Objects.requireNonNull(clients, "clients");
        try (TopicAdmin admin = new TopicAdmin(clients)) {
            admin.ensureProbeTopic(TOPIC);
        }
        Properties p = new Properties();
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        // never hold the polling thread long: a send waits at most this for metadata or buffer space
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 200);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_500);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 2_000);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "rigscope-write-probe");
        try {
            return new WriteProbe(new KafkaProducer<>(clients.applyTo(p), new StringSerializer(),
                    new ByteArraySerializer()), key == null ? "all" : key);
        } catch (KafkaException e) {
            throw new IllegalStateException("cannot make the write probe's producer: " + e.getMessage(), e);
        }
    }

    /** Sends a probe record when a second passed since the last one and none is awaiting its acknowledgement. */
    void tick(long nowNanos) {
        if (sentAny && nowNanos - lastSentNanos < SEND_EVERY_NANOS || !inFlight.compareAndSet(false, true)) {
            return;
        }
        sentAny = true;
        lastSentNanos = nowNanos;
        long sentNanos = nowNanos;
        try {
            producer.send(new ProducerRecord<>(TOPIC, key, Long.toString(System.currentTimeMillis())
                    .getBytes(StandardCharsets.US_ASCII)), (meta, error) -> {
                        if (error == null) {
                            // sends are one at a time (inFlight), so each ack is of a later send
                            ackedSentNanos = sentNanos;
                            ackedAny = true;
                        }
                        inFlight.set(false);
                    });
        } catch (KafkaException e) {
            // no metadata within max.block.ms (the broker is unreachable): no evidence this second
            inFlight.set(false);
        }
    }

    /** True when a probe record sent at or after {@code sinceNanos} (System.nanoTime) was acknowledged. */
    boolean acceptedWriteSentSince(long sinceNanos) {
        return ackedAny && ackedSentNanos - sinceNanos >= 0;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(2));
    }
}
