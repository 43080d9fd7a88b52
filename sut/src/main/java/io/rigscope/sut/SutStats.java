package io.rigscope.sut;

import java.util.concurrent.atomic.LongAdder;

/**
 * Running totals of a SUT since it started. Writers are the request handlers; any thread may read a
 * {@link #snapshot()}. Thread-safe.
 */
public final class SutStats {

    /**
     * Totals at one moment.
     *
     * @param requests requests answered (any status)
     * @param eventsWritten events answered as written (201 bodies' {@code written}), lossy skips included
     * @param rejected 4xx answers (bad body, bad key)
     * @param failed 5xx answers (database errors)
     */
    public record Snapshot(long requests, long eventsWritten, long rejected, long failed) {
        /** The change from an earlier snapshot. */
        public Snapshot minus(Snapshot earlier) {
            return new Snapshot(requests - earlier.requests, eventsWritten - earlier.eventsWritten,
                    rejected - earlier.rejected, failed - earlier.failed);
        }

        /** Rejected plus failed. */
        public long errors() {
            return rejected + failed;
        }
    }

    private final LongAdder requests = new LongAdder();
    private final LongAdder eventsWritten = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder failed = new LongAdder();

    void answered(int status, long written) {
        requests.increment();
        eventsWritten.add(written);
        if (status >= 500) {
            failed.increment();
        } else if (status >= 400) {
            rejected.increment();
        }
    }

    public Snapshot snapshot() {
        return new Snapshot(requests.sum(), eventsWritten.sum(), rejected.sum(), failed.sum());
    }
}
