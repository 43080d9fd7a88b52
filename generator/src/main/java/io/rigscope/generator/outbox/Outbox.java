package io.rigscope.generator.outbox;

import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A buffer between the generator's hot threads and a {@link RecordSink} that may be slow (a Kafka producer
 * whose buffer is full, a broker that stalls). {@link #offer} never blocks on the sink: a record goes into a
 * bounded in-memory queue; when the queue is full it goes to a spool file instead, and from then on every
 * record goes to the spool until the spool has been drained, so each producing thread's records reach the
 * sink in the order it offered them. One dedicated thread ({@code rig-gen-outbox}) drains the queue first,
 * then the spool, into the sink.
 *
 * <p>Counts: {@link #produced()} records offered, {@link #published()} handed to the sink, {@link #spooled()}
 * that went through the spool. After {@link #close} returns, published == produced unless the sink threw
 * (then {@link #close} throws).
 *
 * <p>Thread-safe: any number of producers.
 */
public final class Outbox implements AutoCloseable {

    private static final int SPOOL_CHUNK = 256;

    private final RecordSink sink;
    private final ArrayBlockingQueue<WireRecord> queue;
    private final SpoolFile spool;
    private final Object lock = new Object();
    private final Thread drainer;
    private final AtomicLong produced = new AtomicLong();
    private final AtomicLong producedSamples = new AtomicLong();
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong publishedSamples = new AtomicLong();
    private final AtomicLong spooled = new AtomicLong();
    private volatile boolean spooling;
    private volatile boolean closing;
    private volatile RuntimeException sinkFailure;
    /** The write-ahead journal of samples, or null. */
    private final SampleJournal journal;

    /**
     * @param sink where records go
     * @param queueCapacity records held in memory before the spool is used, >= 1
     * @param spoolFile the spool file (created, truncated; deleted on close)
     */
    public Outbox(RecordSink sink, int queueCapacity, Path spoolFile, WireCodec codec) {
        this(sink, queueCapacity, spoolFile, codec, null);
    }

    /**
     * @param journal every sample batch is appended to it before it is queued, and marked there once the sink
     *                says it is durable ({@link SampleJournal}); null: none. Closed (and deleted when complete) by
     *                {@link #close}.
     */
    public Outbox(RecordSink sink, int queueCapacity, Path spoolFile, WireCodec codec, SampleJournal journal) {
        this.journal = journal;
        this.sink = Objects.requireNonNull(sink, "sink");
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.spool = new SpoolFile(Objects.requireNonNull(spoolFile, "spoolFile"), codec);
        this.drainer = new Thread(this::drainLoop, "rig-gen-outbox");
        this.drainer.setDaemon(true);
        this.drainer.start();
    }

    /** Queues a record for the sink; never blocks on the sink. */
    public void offer(WireRecord record) {
        Objects.requireNonNull(record, "record");
        if (closing) {
            throw new IllegalStateException("the outbox is closed");
        }
        produced.incrementAndGet();
        if (record instanceof SampleBatch b) {
            producedSamples.addAndGet(b.samples().size());
            if (journal != null) {
                journal.append(b); // write-ahead: on disk before it can reach the broker
            }
        }
        if (!spooling && queue.offer(record)) {
            return;
        }
        synchronized (lock) {
            if (!spooling && queue.offer(record)) {
                return;
            }
            spooling = true;
            spool.append(record);
            spooled.incrementAndGet();
        }
    }

    private void drainLoop() {
        try {
            while (true) {
                WireRecord next = queue.poll(20, TimeUnit.MILLISECONDS);
                if (next != null) {
                    publish(next);
                    continue;
                }
                List<WireRecord> chunk = List.of();
                synchronized (lock) {
                    // The queue is checked again under the lock: a record queued before a later one of the same
                    // producer was spooled is then published first.
                    if (queue.isEmpty()) {
                        if (spool.pending() > 0) {
                            chunk = spool.take(SPOOL_CHUNK);
                        } else {
                            spooling = false;
                        }
                    }
                }
                for (WireRecord r : chunk) {
                    publish(r);
                }
                if (chunk.isEmpty() && closing && queue.isEmpty() && !spooling) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            sinkFailure = e;
        }
    }

    private void publish(WireRecord record) {
        if (journal != null && record instanceof SampleBatch) {
            sink.publish(record, journal::acknowledged);
        } else {
            sink.publish(record);
        }
        published.incrementAndGet();
        if (record instanceof SampleBatch b) {
            publishedSamples.addAndGet(b.samples().size());
        }
    }

    /** Records offered. */
    public long produced() {
        return produced.get();
    }

    /** Samples offered (inside SampleBatch records). */
    public long producedSamples() {
        return producedSamples.get();
    }

    /** Records handed to the sink. */
    public long published() {
        return published.get();
    }

    /** Samples handed to the sink. */
    public long publishedSamples() {
        return publishedSamples.get();
    }

    /** Records that overflowed to the spool file. */
    public long spooled() {
        return spooled.get();
    }

    /** Records offered and not yet handed to the sink. */
    public long backlog() {
        return produced.get() - published.get();
    }

    /**
     * Stops accepting records, drains everything to the sink, flushes it and removes the spool file.
     *
     * @param timeout how long to wait for the drain
     * @throws IllegalStateException when the sink failed or the drain did not finish in time
     */
    public void close(Duration timeout) {
        closing = true;
        try {
            drainer.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while draining the outbox", e);
        } finally {
            synchronized (lock) {
                spool.close();
            }
        }
        if (sinkFailure != null) {
            throw new IllegalStateException("publishing failed after " + published() + " of " + produced()
                    + " record(s): " + sinkFailure, sinkFailure);
        }
        if (drainer.isAlive()) {
            throw new IllegalStateException("the outbox did not drain within " + timeout + ": " + backlog()
                    + " record(s) unpublished");
        }
        sink.flush();
        if (journal != null) {
            journal.close();
        }
    }

    @Override
    public void close() {
        close(Duration.ofMinutes(2));
    }
}
