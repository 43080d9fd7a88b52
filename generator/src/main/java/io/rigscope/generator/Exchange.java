package io.rigscope.generator;

import io.rigscope.generator.body.RequestBody;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.util.context.Context;

/**
 * One request in flight, and the subscriber of its response (its context carries it to the send function). Written by the thread that starts it and the event loop that sends and ends it;
 * read by the collector for the watermark. The volatile fields carry the ordering argument made in
 * {@link Collector#closeableBeforeUs}.
 */
final class Exchange implements CoreSubscriber<Integer> {

    final ScenarioRun scenario;
    final long seq;
    final RequestBody body;
    /** Intended start (open loop: from the schedule; closed loop: read from the clock right after registration). */
    volatile long t0Nanos;
    /** True once {@link #t0Nanos} holds the start (set after it; nanoTime has no free sentinel value). */
    volatile boolean t0Stamped;
    /** True once the ledger counted this request as scheduled and sent. */
    volatile boolean counted;
    /** Actual send: set when handed to the client, then again when the event loop writes it. */
    volatile long t1Nanos;
    /** When the request was handed to the client (the timeout counts from here); 0 before. */
    volatile long handedNanos;
    /** The request's subscription, for the timeout sweeper to cancel. */
    private volatile Subscription subscription;
    private final Context context;
    private final java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();
    /** Set before {@link #t2Nanos} is read from the clock. */
    volatile boolean completing;
    volatile long t2Nanos;
    /** True once {@link #t2Nanos} holds the end. */
    volatile boolean t2Stamped;

    /**
     * @param t0Stamped true when {@code t0Nanos} is already the intended start (open loop); false when the caller
     *                  stamps it after registering the exchange (closed loop)
     */
    Exchange(ScenarioRun scenario, long seq, long t0Nanos, boolean t0Stamped, RequestBody body) {
        this.scenario = scenario;
        this.seq = seq;
        this.body = body;
        this.t0Nanos = t0Nanos;
        this.t0Stamped = t0Stamped;
        this.context = Context.of(Exchange.class, this);
    }

    @Override
    public Context currentContext() {
        return context;
    }

    @Override
    public void onSubscribe(Subscription s) {
        subscription = s;
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(Integer status) {
        scenario.onResponse(this, status);
    }

    @Override
    public void onError(Throwable error) {
        scenario.onError(this, error);
    }

    @Override
    public void onComplete() {
        // the response (onNext) or the error ended the request
    }

    /** Cancels the request (the timeout sweeper); Reactor Netty closes its connection. */
    void cancel() {
        Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
    }

    /** True for the one caller that gets to end this request (response, error or timeout). */
    boolean claimEnd() {
        return ended.compareAndSet(false, true);
    }

    /** Closed loop: the start, read from the clock after registration. */
    void stampStart(long nanos) {
        t0Nanos = nanos;
        t0Stamped = true;
    }

    /** The end: {@link #completing} must already be true. */
    void stampEnd(long nanos) {
        t2Nanos = nanos;
        t2Stamped = true;
    }

    /** Spins until {@code flag} is true: used for the few instructions between a flag and the stamp it announces. */
    static void awaitStamp(java.util.function.BooleanSupplier flag) {
        int spins = 0;
        while (!flag.getAsBoolean()) {
            if (++spins < 1_000) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }
}
