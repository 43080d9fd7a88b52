package io.rigscope.wire;

import io.rigscope.model.codec.Decoded;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Sends every undecodable value to {@code rig.dlq} with its reason and origin, and counts them. Hand it to
 * {@link WireSource} as the dead-letter callback. Thread-safe.
 */
public final class DeadLetterSink implements Consumer<Decoded.Failed> {

    private final WirePublisher publisher;
    private final AtomicLong count = new AtomicLong();

    public DeadLetterSink(WirePublisher publisher) {
        this.publisher = Objects.requireNonNull(publisher, "publisher");
    }

    @Override
    public void accept(Decoded.Failed failed) {
        count.incrementAndGet();
        publisher.publish(failed.deadLetter());
    }

    /** Dead letters sent so far. */
    public long count() {
        return count.get();
    }
}
