package io.rigscope.sut.timing;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One request's own account of its time, as the SUT tells it in its {@code Server-Timing} response header:
 * {@code pool} (waiting for a pooled connection), {@code db} (holding one: the statements and their round trips),
 * and {@code app} (the rest, from the request's head to its reply: reading the body, parsing, authenticating from
 * cache, writing JSON). Travels in the request's Reactor context under this class as key; {@link TimedConnections}
 * adds to it. Thread-safe: the parts of one request run one after another, possibly on different threads.
 */
public final class RequestTiming {

    private final long startNanos;
    private final AtomicLong poolNanos = new AtomicLong();
    private final AtomicLong dbNanos = new AtomicLong();

    private RequestTiming(long startNanos) {
        this.startNanos = startNanos;
    }

    /** A request whose head arrived now. */
    public static RequestTiming startingNow() {
        return new RequestTiming(System.nanoTime());
    }

    void addPoolNanos(long nanos) {
        poolNanos.addAndGet(Math.max(0, nanos));
    }

    void addDbNanos(long nanos) {
        dbNanos.addAndGet(Math.max(0, nanos));
    }

    /**
     * The {@code Server-Timing} value for the request as it stands now (its reply ready):
     * {@code pool;dur=0.120, db;dur=3.402, app;dur=0.251}, milliseconds with three decimals.
     */
    public String header() {
        long total = System.nanoTime() - startNanos;
        long pool = poolNanos.get();
        long db = dbNanos.get();
        long app = Math.max(0, total - pool - db);
        return String.format(Locale.ROOT, "pool;dur=%.3f, db;dur=%.3f, app;dur=%.3f", pool / 1e6, db / 1e6, app / 1e6);
    }
}
