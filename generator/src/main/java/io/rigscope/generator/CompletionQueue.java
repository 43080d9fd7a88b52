package io.rigscope.generator;

import io.netty.util.internal.PlatformDependent;
import io.rigscope.model.wire.Sample;
import java.util.Queue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The completion queue of one run: every lane adds the sample of each request that ended ({@link #collect}, any
 * thread) and the sample batcher drains them ({@link #poll}, one thread). It also carries what those producers read
 * beside it: the run's clock and its stop flag. A final class on purpose: the warm-up and the run use this same
 * class, so the JIT's profile of the request path from the warm-up stays valid for the run (an interface with
 * two implementations made the first requests of every run fall back to the interpreter and stall the loop for
 * ~60 ms).
 */
final class CompletionQueue {

    private static final Logger LOG = LoggerFactory.getLogger(CompletionQueue.class);

    final MicroClock clock;
    /**
     * Many producers (the loops), one consumer (the batcher's thread, then the thread that finishes the run): an
     * array-chunked MPSC queue, which allocates no node per sample as a {@code ConcurrentLinkedQueue} does.
     * {@code poll} sees every {@code add} that returned before it was called (it waits out an add in progress),
     * which the watermark relies on (see {@link SampleBatcher#closeableBeforeUs}).
     */
    private final Queue<Sample> finished = PlatformDependent.newMpscQueue();
    private volatile boolean stopping;

    CompletionQueue(MicroClock clock) {
        this.clock = clock;
    }

    /** Any thread: a finished request; {@code error} is its failure, if any, for the debug log. */
    void collect(Sample sample, Throwable error) {
        if (error != null && LOG.isDebugEnabled()) {
            LOG.debug("{} request failed: {}", sample.scenario(), error.toString());
        }
        finished.add(sample);
    }

    /** The next finished sample, or null. */
    Sample poll() {
        return finished.poll();
    }

    /** True once the run was asked to stop starting requests. */
    boolean stopping() {
        return stopping;
    }

    void stop() {
        stopping = true;
    }
}
