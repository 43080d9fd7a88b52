package io.rigscope.generator;

import io.rigscope.model.wire.WireRecord;

/**
 * Where the generator's records finally go, normally {@code WirePublisher::publish}. Called from one
 * dedicated drain thread, never from an event loop or the scheduler, so it may block (Kafka's buffer full).
 */
@FunctionalInterface
public interface RecordSink {

    /** Hands one record on. */
    void publish(WireRecord record);

    /** Waits until everything handed on is durable (e.g. {@code WirePublisher::flush}); no-op by default. */
    default void flush() {
    }

    /** A sink onto a {@link io.rigscope.wire.WirePublisher}: publish, and flush at the end. */
    static RecordSink of(io.rigscope.wire.WirePublisher publisher) {
        return new RecordSink() {
            @Override
            public void publish(WireRecord record) {
                publisher.publish(record);
            }

            @Override
            public void flush() {
                publisher.flush();
            }
        };
    }
}
