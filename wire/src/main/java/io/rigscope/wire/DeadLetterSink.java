package io.rigscope.wire;

import io.rigscope.model.codec.Decoded;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.DeadLetter;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Sends every undecodable value to {@code rig.dlq} with its reason and origin, once per origin, and counts them.
 * Hand it to {@link WireSource} as the dead-letter callback. Thread-safe.
 *
 * <p>The origin of a value read from Kafka is {@code topic/partition@offset}: the same bytes read again (a series
 * analysed a second time, an analyzer restarted on the topics) have the same origin. {@link #once} starts from the
 * origins {@code rig.dlq} already holds for a series, so re-reading a series dead-letters nothing twice.
 */
public final class DeadLetterSink implements Consumer<Decoded.Failed> {

    private final WirePublisher publisher;
    private final Set<String> sent = ConcurrentHashMap.newKeySet();
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong alreadySent = new AtomicLong();

    public DeadLetterSink(WirePublisher publisher) {
        this.publisher = Objects.requireNonNull(publisher, "publisher");
    }

    /**
     * A sink that knows what {@code rig.dlq} holds for {@code series} (read to its current end, at most
     * {@code timeout}) and does not send those again.
     */
    public static DeadLetterSink once(WirePublisher publisher, WireSource source, String series, Duration timeout) {
        DeadLetterSink sink = new DeadLetterSink(publisher);
        List<String> origins = source.records(new WireSource.Spec(Set.of(Topic.DLQ), series, true, false), f -> { })
                .filter(r -> r instanceof DeadLetter d && d.origin() != null)
                .map(r -> ((DeadLetter) r).origin())
                .collectList()
                .block(timeout);
        if (origins != null) {
            sink.sent.addAll(origins);
        }
        return sink;
    }

    @Override
    public void accept(Decoded.Failed failed) {
        count.incrementAndGet();
        DeadLetter letter = failed.deadLetter();
        if (letter.origin() != null && !sent.add(letter.origin())) {
            alreadySent.incrementAndGet();
            return;
        }
        publisher.publish(letter);
    }

    /** Undecodable values seen so far (sent, or already in {@code rig.dlq}). */
    public long count() {
        return count.get();
    }

    /** Of those, the ones {@code rig.dlq} already held (by origin), not sent again. */
    public long alreadySent() {
        return alreadySent.get();
    }
}
