package io.rigscope.rig.cli;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Marker;
import io.rigscope.wire.DeadLetterSink;
import io.rigscope.wire.WirePublisher;
import io.rigscope.wire.WireSource;
import io.rigscope.wire.kafka.KafkaClients;
import io.rigscope.wire.kafka.KafkaConsumers;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * {@code rigscope analyze} without {@code --series}: follows {@code rig.markers} in a Kafka consumer group and
 * analyses, live, every series whose SERIES_START marker it is handed, each on a thread of its own, publishing the
 * verdicts to {@code rig.verdicts} like a single-series analysis. The group is what makes each series analysed
 * once: Kafka hands each partition of {@code rig.markers} to one member, and a series' markers are keyed by the
 * series (one partition). A marker's offset is committed once the analyses of it and of every marker before it on
 * its partition have ended, so a member that dies leaves its unfinished series to the member that takes the
 * partition over, which analyses them again from the topics (the verdicts are the same; the ones already published
 * appear twice on {@code rig.verdicts}).
 *
 * <p>Scale-out is per partition of {@code rig.markers}: rigscope creates it with one partition, so a group of
 * several analyzers is one that works and others that stand by, until the topic is given more partitions
 * (docs/operations.md).
 *
 * <p>Not thread-safe: {@link #run} on one thread; {@link #stop} from any.
 */
final class EverySeries {

    /** How long reading what rig.dlq already holds for a series may take. */
    private static final Duration DLQ_READ_TIMEOUT = Duration.ofSeconds(60);

    /**
     * What to follow and how.
     *
     * @param clients the cluster and its client properties
     * @param group the consumer group's id: analyzers in one group share the series
     * @param fromEarliest a group with no committed offset starts at the topic's beginning (every archived series
     *                     too) instead of its end (only series that start from now on)
     * @param parallel series analysed at once by this member; more wait in line
     * @param overrides analyzer settings, as for one series
     * @param publish publish verdicts to {@code rig.verdicts}
     */
    public record Spec(KafkaClients clients, String group, boolean fromEarliest, int parallel,
                       UnaryOperator<AnalyzerSettings> overrides, boolean publish) {
        public Spec {
            Objects.requireNonNull(clients, "clients");
            if (group == null || group.isBlank()) {
                throw new IllegalArgumentException("the consumer group id is blank");
            }
            if (parallel < 1) {
                throw new IllegalArgumentException("parallel must be at least 1, was " + parallel);
            }
            overrides = overrides == null ? UnaryOperator.identity() : overrides;
        }
    }

    private final Spec spec;
    private final WireCodec codec;
    private final WirePublisher publisher;
    private final PrintStream console;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final ConcurrentLinkedQueue<Ended> ended = new ConcurrentLinkedQueue<>();
    private final Map<TopicPartition, TreeMap<Long, Boolean>> pending = new HashMap<>();
    private final Set<String> started = new HashSet<>();
    private volatile KafkaConsumer<String, byte[]> consumer;

    private record Ended(TopicPartition partition, long offset) {
    }

    public EverySeries(Spec spec, WireCodec codec, WirePublisher publisher, PrintStream console) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.codec = Objects.requireNonNull(codec, "codec");
        this.publisher = publisher;
        this.console = Objects.requireNonNull(console, "console");
    }

    /**
     * Follows until {@link #stop} or {@code stopAfter} (null: until stopped), analysing each series handed to this
     * member; {@code onReport} gets each finished series' report (on the series' thread). Returns the series it
     * analysed to the end.
     */
    public List<String> run(Duration stopAfter, BiConsumer<String, SeriesReport> onReport) {
        ExecutorService workers = Executors.newFixedThreadPool(spec.parallel(), r -> {
            Thread t = new Thread(r, "analyze-series");
            t.setDaemon(true);
            return t;
        });
        List<String> done = java.util.Collections.synchronizedList(new ArrayList<>());
        long deadline = stopAfter == null ? Long.MAX_VALUE : System.nanoTime() + stopAfter.toNanos();
        try (KafkaConsumer<String, byte[]> c = KafkaConsumers.groupMember(spec.clients(), spec.group(),
                spec.fromEarliest(), "rigscope-analyzer-group")) {
            consumer = c;
            c.subscribe(List.of(Topic.MARKERS.topicName()), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    commitEnded(c);
                    partitions.forEach(pending::remove);
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    console.println("analyze: group " + spec.group() + " assigned " + partitions);
                }
            });
            while (!stopping.get() && System.nanoTime() < deadline) {
                try {
                    for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
                        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                        TreeMap<Long, Boolean> offsets = pending.computeIfAbsent(tp, k -> new TreeMap<>());
                        String series = seriesStarted(r);
                        if (series == null || !started.add(series)) {
                            offsets.put(r.offset(), true); // nothing to wait for
                            continue;
                        }
                        offsets.put(r.offset(), false);
                        console.println("analyze: series " + series + " started (" + tp + " offset " + r.offset()
                                + "), analysing live");
                        workers.submit(() -> {
                            try {
                                SeriesReport report = analyse(series);
                                done.add(series);
                                onReport.accept(series, report);
                            } catch (RuntimeException e) {
                                console.println("analyze: series " + series + " failed: " + e.getMessage());
                            } finally {
                                ended.add(new Ended(tp, r.offset()));
                            }
                        });
                    }
                } catch (WakeupException e) {
                    // stop() woke the poll
                }
                commitEnded(c);
            }
        } finally {
            consumer = null;
            workers.shutdownNow();
        }
        return List.copyOf(done);
    }

    /** Ends {@link #run} at its next poll; series being analysed are abandoned (their offsets stay uncommitted). */
    public void stop() {
        stopping.set(true);
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
    }

    private String seriesStarted(ConsumerRecord<String, byte[]> r) {
        Decoded d = codec.decode(Topic.MARKERS, r.key(), r.value(), r.topic() + "-" + r.partition() + "@" + r.offset());
        if (d instanceof Decoded.Ok ok && ok.record() instanceof Marker m && m.kind() == Marker.Kind.SERIES_START) {
            return m.run();
        }
        return null; // other markers, and malformed ones (the series' own analysis dead-letters those)
    }

    private SeriesReport analyse(String series) {
        Analyzer analyzer = Analyzer.forSeries(series).withOverrides(spec.overrides());
        WireSource source = new WireSource(spec.clients(), codec);
        // a series another member began (before a rebalance) has dead-lettered some records already: not again
        Consumer<Decoded.Failed> dlq = publisher == null ? f -> { }
                : DeadLetterSink.once(publisher, source, series, DLQ_READ_TIMEOUT);
        Decision last = analyzer.follow(source, dlq, spec.publish() ? publisher : null, p -> { }).blockLast();
        if (!(last instanceof Decision.Series s)) {
            throw new IllegalStateException("the analysis of " + series + " ended without a series verdict");
        }
        return s.report();
    }

    /** Commits, per partition, past every marker whose analysis (and every one before it) has ended. */
    private void commitEnded(KafkaConsumer<String, byte[]> c) {
        for (Ended e; (e = ended.poll()) != null; ) {
            TreeMap<Long, Boolean> offsets = pending.get(e.partition());
            if (offsets != null && offsets.containsKey(e.offset())) {
                offsets.put(e.offset(), true);
            }
        }
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        pending.forEach((tp, offsets) -> {
            long next = -1;
            while (!offsets.isEmpty() && offsets.firstEntry().getValue()) {
                next = offsets.pollFirstEntry().getKey() + 1;
            }
            if (next >= 0) {
                commit.put(tp, new OffsetAndMetadata(next));
            }
        });
        if (!commit.isEmpty()) {
            c.commitSync(commit);
        }
    }
}
