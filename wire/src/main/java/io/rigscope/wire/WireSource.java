package io.rigscope.wire;

import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.kafka.KafkaClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Reads wire records from Kafka as a cold {@link Flux}. Each subscription owns one consumer, polled on its own
 * thread (never an event loop).
 *
 * <p>A value that does not decode is never an error on the Flux: it goes to {@code onDeadLetter} (which
 * normally publishes it to {@code rig.dlq}) and the stream goes on.
 *
 * <p>Records of one partition arrive in order; records of different topics are interleaved as polled, so a
 * reader must not rely on cross-topic order.
 */
public final class WireSource {

    /**
     * What to read.
     *
     * @param topics the topics
     * @param series only records keyed by this series id, or null for all
     * @param fromBeginning start at the earliest offset (else at the end: only new records)
     * @param follow keep reading new records; false stops at the end offsets taken when reading started
     * @param sinceMs with {@code fromBeginning} false and above 0: start at the first record the broker
     *                timestamped at or after this epoch ms (the end where none is), so a reader that starts late
     *                misses nothing published since then
     */
    public record Spec(Set<Topic> topics, String series, boolean fromBeginning, boolean follow, long sinceMs) {
        public Spec {
            topics = Set.copyOf(Objects.requireNonNull(topics, "topics"));
            if (topics.isEmpty()) {
                throw new IllegalArgumentException("no topics to read");
            }
        }

        /** From the beginning or from the end. */
        public Spec(Set<Topic> topics, String series, boolean fromBeginning, boolean follow) {
            this(topics, series, fromBeginning, follow, 0);
        }
    }

    private final KafkaClients clients;
    private final WireCodec codec;

    public WireSource(String bootstrap, WireCodec codec) {
        this(KafkaClients.of(Objects.requireNonNull(bootstrap, "bootstrap")), codec);
    }

    /** A source whose consumers also take the user's client properties ({@link KafkaClients}), which win. */
    public WireSource(KafkaClients clients, WireCodec codec) {
        this.clients = Objects.requireNonNull(clients, "clients");
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    /**
     * Decoded records, in batches as polled.
     *
     * @param onDeadLetter receives every value that did not decode; called on the polling thread
     */
    public Flux<List<WireRecord>> batches(Spec spec, Consumer<Decoded.Failed> onDeadLetter) {
        return batches(spec, onDeadLetter, Integer.MAX_VALUE);
    }

    /**
     * Decoded records in lists of at most {@code maxRecordsPerList} records: each poll is cut into slices that
     * are decoded one at a time, as requested, so a slow consumer holds a few small slices rather than whole
     * decoded polls (a poll can carry thousands of multi-sample records).
     *
     * @param onDeadLetter receives every value that did not decode; called on the polling thread
     */
    public Flux<List<WireRecord>> batches(Spec spec, Consumer<Decoded.Failed> onDeadLetter, int maxRecordsPerList) {
        return batches(spec, onDeadLetter, maxRecordsPerList, false);
    }

    /**
     * As {@link #batches(Spec, Consumer, int)}; with {@code heartbeats}, a following read also emits an empty list at
     * most once a second when, after a poll, it has evidence that the wire carries writes now and it has read
     * everything there is: its write probe ({@value WriteProbe#TOPIC}, one small record a second, {@code acks=all})
     * had a record sent in the last 1.5 s acknowledged, and every assigned partition's log end offset was read and
     * the consumer is at it. A reader that judges silence by the wall clock (the analyzer's liveness) counts only
     * such seconds: during a broker outage, a broker's controlled shutdown or its restart (logs loading, leaders
     * being elected) no heartbeat comes, though the consumer may stay connected.
     */
    public Flux<List<WireRecord>> batches(Spec spec, Consumer<Decoded.Failed> onDeadLetter, int maxRecordsPerList,
                                          boolean heartbeats) {
        if (maxRecordsPerList < 1) {
            throw new IllegalArgumentException("maxRecordsPerList must be >= 1, was " + maxRecordsPerList);
        }
        return raw(spec, heartbeats && spec.follow())
                .concatMapIterable(records -> records.isEmpty() ? List.of(List.<ConsumerRecord<String, byte[]>>of())
                        : slices(records, maxRecordsPerList), 1)
                .map(slice -> {
                    List<WireRecord> out = new ArrayList<>(slice.size());
                    for (ConsumerRecord<String, byte[]> r : slice) {
                        if (spec.series() != null && !spec.series().equals(r.key())) {
                            continue;
                        }
                        Topic topic = Topic.byName(r.topic()).orElseThrow();
                        Decoded d = codec.decode(topic, r.key(), r.value(),
                                r.topic() + "/" + r.partition() + "@" + r.offset());
                        if (d instanceof Decoded.Ok ok) {
                            out.add(ok.record());
                        } else {
                            onDeadLetter.accept((Decoded.Failed) d);
                        }
                    }
                    return out;
                });
    }

    private static List<List<ConsumerRecord<String, byte[]>>> slices(ConsumerRecords<String, byte[]> records, int max) {
        List<List<ConsumerRecord<String, byte[]>>> slices = new ArrayList<>();
        List<ConsumerRecord<String, byte[]>> current = new ArrayList<>(Math.min(max, records.count()));
        for (ConsumerRecord<String, byte[]> r : records) {
            if (current.size() == max) {
                slices.add(current);
                current = new ArrayList<>(Math.min(max, records.count()));
            }
            current.add(r);
        }
        if (!current.isEmpty()) {
            slices.add(current);
        }
        return slices;
    }

    /**
     * True when {@code rig.markers} already holds a record of {@code series}: the id is taken (an earlier run, rescan
     * or import), and a second run under it would be judged with the first.
     *
     * @param timeout how long reading the topic to its end may take
     */
    public boolean seriesTaken(String series, java.time.Duration timeout) {
        return Boolean.TRUE.equals(records(new Spec(Set.of(Topic.MARKERS), series, true, false),
                f -> { }).hasElements().block(timeout));
    }

    /** Decoded records one by one. */
    public Flux<WireRecord> records(Spec spec, Consumer<Decoded.Failed> onDeadLetter) {
        return batches(spec, onDeadLetter).concatMapIterable(list -> list);
    }

    /** Undecoded poll results (for benchmarks that measure raw consumption). */
    public Flux<ConsumerRecords<String, byte[]>> raw(Spec spec) {
        return raw(spec, false);
    }

    private Flux<ConsumerRecords<String, byte[]>> raw(Spec spec, boolean heartbeats) {
        return Flux.using(() -> new Poller(clients, spec),
                        poller -> Flux.<ConsumerRecords<String, byte[]>>generate(sink -> {
                            // a heartbeat found due after a poll that returned records follows those records: a
                            // series whose other sources publish all the time (collectors) has few empty polls.
                            // It is looked for when the next item is asked, after the records went out: its check
                            // asks the broker for the end offsets, and the records (a ledger that closes a second)
                            // must not wait for that round trip
                            if (poller.heartbeatCheckPending) {
                                poller.heartbeatCheckPending = false;
                                if (poller.heartbeatDue()) {
                                    sink.next(poller.heartbeat);
                                    return;
                                }
                            }
                            ConsumerRecords<String, byte[]> polled = poller.poll();
                            if (polled == null) {
                                sink.complete();
                            } else {
                                poller.heartbeatCheckPending = !polled.isEmpty() && heartbeats;
                                sink.next(polled);
                            }
                        }).subscribeOn(poller.scheduler)
                                // on the polling thread: the consumer is read there only
                                .filter(records -> records == poller.heartbeat || !records.isEmpty()
                                        || heartbeats && poller.heartbeatDue()),
                        Poller::close);
    }

    /** One consumer and its thread. */
    private static final class Poller {
        private final KafkaConsumer<String, byte[]> consumer;
        private final Scheduler scheduler = Schedulers.newSingle("wire-source", true);
        private final Spec spec;
        private Map<TopicPartition, Long> endOffsets;
        private long lastHeartbeatNanos = System.nanoTime();
        /** How recent an acknowledged probe write must be for a heartbeat. */
        private static final long PROBE_FRESH_MS = 1_500;
        private final KafkaClients clients;
        /** The empty poll result that stands for a heartbeat found due after a poll that returned records. */
        final ConsumerRecords<String, byte[]> heartbeat = new ConsumerRecords<>(Map.of());
        /**
         * Set on the polling thread after a non-empty poll of a read with heartbeats: before the next poll, a
         * heartbeat due is emitted (after that poll's records, never holding them).
         */
        boolean heartbeatCheckPending;
        /** When the caught-up check last asked the broker for the end offsets (System.nanoTime). */
        private long lastCaughtUpCheckNanos = System.nanoTime();
        /** The least time between two caught-up checks that found the reader behind: one round trip each. */
        private static final long CAUGHT_UP_CHECK_EVERY_NANOS = 100_000_000L;
        private WriteProbe probe;
        private boolean probeFailed;

        /**
         * True at most once a second, when there is evidence that the wire carries writes now and this reader has
         * read all there is: a write probe record ({@link WriteProbe}) sent within the last
         * {@value #PROBE_FRESH_MS} ms was acknowledged, and every assigned partition's log end offset was read and
         * this consumer's position is at it. The consumer's connection alone is no such evidence: it stays
         * connected while a broker shuts down or, restarted, still loads its logs and elects leaders.
         * On the polling thread. A probe that cannot be set up (the topic cannot be created) gives no heartbeat,
         * ever: said once on stderr.
         */
        boolean heartbeatDue() {
            long now = System.nanoTime();
            if (now - lastHeartbeatNanos < 1_000_000_000L || probeFailed) {
                return false;
            }
            if (probe == null) {
                try {
                    probe = WriteProbe.open(clients, spec.series());
                } catch (RuntimeException e) {
                    probeFailed = true;
                    System.err.println("rigscope: no write probe (" + e.getMessage() + "): a generator that falls "
                            + "silent is judged when the input ends, not live");
                    return false;
                }
            }
            probe.tick(now);
            if (!probe.acceptedWriteSentSince(now - PROBE_FRESH_MS * 1_000_000L)) {
                return false;
            }
            // a busy series keeps the reader a little behind most of the time: ask the broker at most every 100 ms
            // (each ask is a round trip before the next poll), not after every poll
            if (now - lastCaughtUpCheckNanos < CAUGHT_UP_CHECK_EVERY_NANOS) {
                return false;
            }
            lastCaughtUpCheckNanos = now;
            try {
                Set<TopicPartition> assigned = consumer.assignment();
                Map<TopicPartition, Long> ends = consumer.endOffsets(assigned, Duration.ofSeconds(1));
                for (var e : ends.entrySet()) {
                    if (consumer.position(e.getKey(), Duration.ofSeconds(1)) < e.getValue()) {
                        return false;
                    }
                }
            } catch (org.apache.kafka.common.KafkaException e) {
                // a partition without a leader that answers (org.apache.kafka.common.errors.TimeoutException too)
                return false;
            }
            lastHeartbeatNanos = now;
            return true;
        }

        Poller(KafkaClients clients, Spec spec) {
            this.spec = spec;
            this.clients = clients;
            Properties p = new Properties();
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
            p.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 * 1024 * 1024);
            p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 * 1024 * 1024);
            p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
            this.consumer = new KafkaConsumer<>(clients.applyTo(p), new StringDeserializer(),
                    new ByteArrayDeserializer());
        }

        private void assign() {
            List<TopicPartition> partitions = new ArrayList<>();
            for (Topic topic : spec.topics()) {
                consumer.partitionsFor(topic.topicName(), Duration.ofSeconds(30))
                        .forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
            }
            consumer.assign(partitions);
            if (spec.fromBeginning()) {
                consumer.seekToBeginning(partitions);
            } else {
                consumer.seekToEnd(partitions);
                if (spec.sinceMs() > 0) {
                    Map<TopicPartition, Long> times = new java.util.HashMap<>();
                    partitions.forEach(tp -> times.put(tp, spec.sinceMs()));
                    consumer.offsetsForTimes(times, Duration.ofSeconds(30)).forEach((tp, found) -> {
                        if (found != null) {
                            consumer.seek(tp, found.offset());
                        }
                    });
                }
            }
            if (!spec.follow()) {
                endOffsets = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            }
        }

        /** The next poll, or null when a non-following read has reached the end offsets. */
        ConsumerRecords<String, byte[]> poll() {
            if (consumer.assignment().isEmpty()) {
                assign();
            }
            if (endOffsets != null && reachedEnd()) {
                return null;
            }
            try {
                return consumer.poll(Duration.ofMillis(200));
            } catch (org.apache.kafka.common.errors.WakeupException closing) {
                return null;
            }
        }

        private boolean reachedEnd() {
            for (var e : endOffsets.entrySet()) {
                if (consumer.position(e.getKey()) < e.getValue()) {
                    return false;
                }
            }
            return true;
        }

        /** Closes on the polling thread, after any poll in progress: a KafkaConsumer is single-threaded. */
        void close() {
            consumer.wakeup();
            scheduler.schedule(() -> {
                try {
                    if (probe != null) {
                        probe.close();
                    }
                    consumer.close(Duration.ofSeconds(5));
                } finally {
                    scheduler.dispose();
                }
            });
        }
    }
}
