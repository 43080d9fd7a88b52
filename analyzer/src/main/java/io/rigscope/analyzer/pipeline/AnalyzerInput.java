package io.rigscope.analyzer.pipeline;

import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WireFileReader;
import io.rigscope.wire.WireSource;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

/**
 * Where the analyzer's records come from: Kafka topics or a wire file. Either way {@code rig.markers} is read
 * first (up to its current end), so the CONFIG marker is in force before the data it governs, then every
 * input topic from the beginning; markers read twice are harmless (every marker is idempotent). A value that does
 * not decode is handed to {@code onDeadLetter} once, on the second read: the first read of {@code rig.markers}
 * skips it, so a malformed marker reaches {@code rig.dlq} once, like every other malformed value.
 */
public final class AnalyzerInput {

    /** The topics the analyzer reads: the load's and every telemetry stream's (everything but its own output). */
    public static final Set<Topic> TOPICS = EnumSet.of(Topic.MARKERS, Topic.SAMPLES, Topic.LEDGER, Topic.HEALTH,
            Topic.VMSTAT, Topic.OS, Topic.WAITS, Topic.DB, Topic.PGLOG, Topic.CLOUDWATCH, Topic.CANARY, Topic.PROCESS);

    /**
     * Records per batch of a wire file, and per decoded slice of a Kafka poll. With the {@link AnalyzerPipeline}'s
     * {@value AnalyzerPipeline#INPUT_PREFETCH} batches asked ahead, what waits between the reading and the analysis
     * thread stays as it was with two batches asked ahead (2 x 1,024 records of a file, 2 x 256 of Kafka), but cut
     * smaller, so the next slices are decoded while the analysis works on one.
     */
    private static final int FILE_BATCH = 256;
    private static final int KAFKA_SLICE = 64;

    private AnalyzerInput() {
    }

    /**
     * Records of one series from Kafka, in batches as polled; following, an empty batch at most once a second while
     * caught up and connected to the broker (a heartbeat: {@link WireSource#batches(WireSource.Spec, Consumer, int,
     * boolean)}), which the live analysis' liveness rule needs to tell a dead generator from an unreachable broker.
     *
     * @param follow keep reading new records (live); false stops at the end offsets taken at the start (replay)
     * @param onDeadLetter receives every value that did not decode, once
     */
    public static Flux<List<WireRecord>> fromKafka(WireSource source, String series, boolean follow,
                                                   Consumer<Decoded.Failed> onDeadLetter) {
        Flux<List<WireRecord>> records = Flux.concat(
                source.batches(new WireSource.Spec(EnumSet.of(Topic.MARKERS), series, true, false), f -> { },
                        KAFKA_SLICE),
                source.batches(new WireSource.Spec(TOPICS, series, true, follow), onDeadLetter, KAFKA_SLICE, true));
        // WireSource decodes a poll's slices on whichever thread asks for them. Asked from here, on a worker of its
        // own (one thread for the whole subscription), they are decoded there (or on the polling thread, when a poll
        // arrives to demand already made), never on the analysis thread that asks for more: decoding and analysis
        // run side by side. docs/analyzer.md, "Replay against raw consume". The worker is Reactor's shared
        // bounded-elastic one, released by subscribeOn when the input ends: a scheduler of the input's own, disposed
        // when it completed, rejected a request that raced the completion ("Scheduler unavailable", a CI clone's
        // rescan at 17:49 UTC)
        return records.subscribeOn(Schedulers.boundedElastic(), true);
    }

    /** Records from a wire file ({@code .jsonl}, {@code .gz} accepted), markers first, in batches. */
    public static Flux<List<WireRecord>> fromWireFile(Path file, WireCodec codec, Consumer<Decoded.Failed> onDeadLetter) {
        Flux<WireRecord> markers = decoded(file, codec, d -> { }).filter(r -> r instanceof Marker);
        Flux<WireRecord> all = decoded(file, codec, onDeadLetter).filter(r -> TOPICS.contains(r.topic()));
        return Flux.concat(markers, all).buffer(FILE_BATCH);
    }

    private static Flux<WireRecord> decoded(Path file, WireCodec codec, Consumer<Decoded.Failed> onDeadLetter) {
        return WireFileReader.read(file, codec).handle((d, sink) -> {
            if (d instanceof Decoded.Ok ok) {
                sink.next(ok.record());
            } else {
                onDeadLetter.accept((Decoded.Failed) d);
            }
        });
    }
}
