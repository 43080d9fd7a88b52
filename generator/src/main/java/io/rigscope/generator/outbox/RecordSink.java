package io.rigscope.generator.outbox;

import io.rigscope.model.wire.WireRecord;

/**
 * Where the generator's records finally go, normally {@code WirePublisher::publish}. Called from one
 * dedicated drain thread, never from an event loop or the scheduler, so it may block (Kafka's buffer full).
 */
@FunctionalInterface
public interface RecordSink {

    /** Hands one record on. */
    void publish(WireRecord record);

    /** What becomes of a record handed on: {@code null} once it is durable (the broker acknowledged it), else why not. */
    @FunctionalInterface
    interface Acknowledgement {
        /** @param failure null when the record is durable; the send's failure otherwise */
        void done(Exception failure);
    }

    /**
     * Hands one record on and calls {@code ack} once it is durable or has failed (on whichever thread learns it: for
     * Kafka, the producer's I/O thread; keep it short). By default the record is handed on with
     * {@link #publish(WireRecord)} and acknowledged at once: a sink that cannot tell when a record is durable
     * treats it as durable when handed on.
     */
    default void publish(WireRecord record, Acknowledgement ack) {
        publish(record);
        ack.done(null);
    }

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
            public void publish(WireRecord record, Acknowledgement ack) {
                publisher.publish(record, ack::done);
            }

            @Override
            public void flush() {
                publisher.flush();
            }
        };
    }
}
