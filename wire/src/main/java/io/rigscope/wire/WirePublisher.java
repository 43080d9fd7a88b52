package io.rigscope.wire;

import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.wire.kafka.KafkaClients;
import io.rigscope.model.wire.WireRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes wire records to their topics, keyed by series id, and optionally tees each one into a wire file.
 *
 * <p>The producer is durable and ordered: {@code acks=all}, idempotent, lz4-compressed, batched with a short
 * linger ({@value #LINGER_MS} ms); a broker that goes away is retried, in order, until it comes back or the delivery
 * limit passes ({@link KafkaClients#deliveryTimeout()}, Kafka's {@code delivery.timeout.ms}), when the record fails.
 * {@link #publish} hands the record to Kafka's buffer and returns; it blocks only when that buffer is full (up to
 * {@code max.block.ms}), so never call it from an event loop: callers on a hot path put a queue in front of it.
 * Thread-safe.
 */
public final class WirePublisher implements AutoCloseable {

    /** Options. {@code samplesFormat} picks the value format on {@code rig.samples}; others are JSON. */
    public record Options(WireCodec.Format samplesFormat, Path outFile, String clientId) {
        public Options {
            Objects.requireNonNull(samplesFormat, "samplesFormat");
            clientId = clientId == null ? "rigscope" : clientId;
        }

        /**
         * Sample batches in the compact binary form ({@link WireCodec.Format#COMPACT}: measured with
         * {@code rigscope bench analyzer}, it decodes 4-5x faster than Smile), every other record as JSON, no wire
         * file.
         */
        public static Options defaults() {
            return new Options(WireCodec.Format.COMPACT, null, "rigscope");
        }

        public Options withOutFile(Path file) {
            return new Options(samplesFormat, file, clientId);
        }

        public Options withClientId(String id) {
            return new Options(samplesFormat, outFile, id);
        }
    }

    /**
     * How long a record waits in the producer for others to share its batch. A record that closes something (a
     * generator's ledger closes its second in the analyzer) is the first of its partition's batch and waits up to
     * this long before it leaves, so it is short (it was 5 ms; docs/analyzer.md, "What a second's close waits
     * for"). A bulk publisher still batches what arrives within it and while its requests are in flight. A user's
     * {@code linger.ms} ({@link KafkaClients}) wins.
     */
    static final int LINGER_MS = 1;

    private final KafkaProducer<String, byte[]> producer;
    private final WireCodec codec;
    private final Options options;
    private final WireFileWriter file;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<Exception> lastError = new AtomicReference<>();
    private final Journal journal;
    /** Held while a record is appended to the journal and handed to the producer, so both see one order. */
    private final Object sendLock = new Object();

    /**
     * A write-ahead journal of what a publisher sends (the generator's {@code outbox.SampleJournal}): each record's
     * topic, key and value bytes are appended before the send, and the send's outcome is marked by the sequence
     * number {@link #append} returned. Called under the publisher's own send lock (append; the journal's monitor is
     * not held across the send) and from the producer's I/O thread (acknowledged): both must be short.
     */
    public interface Journal {
        /** Appends one record as it is about to be sent; returns its sequence number. */
        long append(String topic, String key, byte[] value);

        /** The send of record {@code seq}: {@code failure} null once the broker acknowledged it. */
        void acknowledged(long seq, Exception failure);
    }

    public WirePublisher(String bootstrap, WireCodec codec, Options options) {
        this(KafkaClients.of(Objects.requireNonNull(bootstrap, "bootstrap")), codec, options);
    }

    /** A publisher whose producer also takes the user's client properties ({@link KafkaClients}), which win. */
    public WirePublisher(KafkaClients clients, WireCodec codec, Options options) {
        this(clients, codec, options, null);
    }

    /**
     * As {@link #WirePublisher(KafkaClients, WireCodec, Options)}, every record sent (also {@link #publishRaw})
     * first appended to {@code journal} (null: none), in the order it is handed to the producer.
     */
    public WirePublisher(KafkaClients clients, WireCodec codec, Options options, Journal journal) {
        this.journal = journal;
        this.codec = Objects.requireNonNull(codec, "codec");
        this.options = Objects.requireNonNull(options, "options");
        Properties p = new Properties();
        p.put(ProducerConfig.CLIENT_ID_CONFIG, options.clientId());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.LINGER_MS_CONFIG, LINGER_MS);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 64L * 1024 * 1024);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 8 * 1024 * 1024);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
        // the delivery limit: a record the broker has not taken by then fails (a journal keeps it)
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE,
                Objects.requireNonNull(clients, "clients").deliveryTimeout().toMillis()));
        this.producer = new KafkaProducer<>(Objects.requireNonNull(clients, "clients").applyTo(p),
                new StringSerializer(), new ByteArraySerializer());
        this.file = options.outFile() == null ? null : new WireFileWriter(options.outFile(), codec);
    }

    /** Publishes one record to its topic (and the wire file). See the class note on blocking. */
    public void publish(WireRecord record) {
        Topic topic = record.topic();
        WireCodec.Format format = topic == Topic.SAMPLES ? options.samplesFormat() : WireCodec.Format.JSON;
        byte[] value = codec.encode(record, format);
        if (file != null) {
            file.write(record);
        }
        send(topic.topicName(), record.run(), value, null);
    }

    /**
     * Publishes one record and calls {@code done} with null once the broker acknowledged it, or with the send's
     * failure (on the producer's I/O thread: keep it short). Records of one series (one key, one partition) are
     * acknowledged in the order they were published.
     */
    public void publish(WireRecord record, java.util.function.Consumer<Exception> done) {
        Topic topic = record.topic();
        WireCodec.Format format = topic == Topic.SAMPLES ? options.samplesFormat() : WireCodec.Format.JSON;
        byte[] value = codec.encode(record, format);
        if (file != null) {
            file.write(record);
        }
        send(topic.topicName(), record.run(), value, Objects.requireNonNull(done, "done"));
    }

    private void send(String topicName, String key, byte[] value, java.util.function.Consumer<Exception> done) {
        published.incrementAndGet();
        if (journal == null) {
            producer.send(new ProducerRecord<>(topicName, key, value), (meta, error) -> {
                onAck(meta, error);
                if (done != null) {
                    done.accept(error);
                }
            });
            return;
        }
        // the journal's order is the producer's. Not the journal's own monitor: a send may wait for a topic's
        // metadata (max.block.ms), which the producer's I/O thread fetches, and that thread takes the journal's
        // monitor in its callbacks (acknowledged): holding it here would stall both until max.block.ms
        synchronized (sendLock) {
            long seq = journal.append(topicName, key, value);
            producer.send(new ProducerRecord<>(topicName, key, value), (meta, error) -> {
                onAck(meta, error);
                journal.acknowledged(seq, error);
                if (done != null) {
                    done.accept(error);
                }
            });
        }
    }

    private void onAck(org.apache.kafka.clients.producer.RecordMetadata meta, Exception error) {
        if (error == null) {
            acked.incrementAndGet();
        } else {
            failed.incrementAndGet();
            lastError.set(error);
        }
    }

    /** Publishes raw bytes as they are (for replays of archived payloads and tests of bad input). */
    public void publishRaw(String topicName, String key, byte[] value) {
        send(topicName, key, value, null);
    }

    /**
     * Publishes raw bytes as they are and calls {@code done} with null once the broker acknowledged them, or with
     * the send's failure (on the producer's I/O thread, or at once when the send cannot start).
     */
    public void publishRaw(String topicName, String key, byte[] value, java.util.function.Consumer<Exception> done) {
        send(topicName, key, value, Objects.requireNonNull(done, "done"));
    }

    /** Waits until every record handed over so far is acknowledged or failed. Blocking. */
    public void flush() {
        producer.flush();
        if (file != null) {
            file.flush();
        }
    }

    /** Records handed to {@link #publish}. */
    public long published() {
        return published.get();
    }

    /** Records the broker acknowledged. */
    public long acked() {
        return acked.get();
    }

    /** Records that failed for good. */
    public long failed() {
        return failed.get();
    }

    /** The last send error, or null. */
    public Exception lastError() {
        return lastError.get();
    }

    /** Flushes, then closes the producer and the wire file. */
    @Override
    public void close() {
        try {
            producer.flush();
            producer.close(Duration.ofSeconds(30));
        } finally {
            if (file != null) {
                file.close();
            }
        }
    }
}
