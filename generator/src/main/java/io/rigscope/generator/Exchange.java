package io.rigscope.generator;

import io.rigscope.generator.body.RequestBody;

/**
 * One request in flight. Written by the thread that starts it and the event loop that sends and ends it;
 * read by the collector for the watermark. The volatile fields carry the ordering argument made in
 * {@link Collector#closeableBeforeUs}.
 */
final class Exchange {

    final ScenarioRun scenario;
    final long seq;
    final RequestBody body;
    /** Intended start (open loop: from the schedule; closed loop: set right after registration). */
    volatile long t0Nanos;
    /** True once the ledger counted this request as scheduled and sent. */
    volatile boolean counted;
    /** Actual send: set when handed to the client, then again when the event loop writes it. */
    volatile long t1Nanos;
    /** Set before {@link #t2Nanos} is read from the clock. */
    volatile boolean completing;
    volatile long t2Nanos;

    Exchange(ScenarioRun scenario, long seq, long t0Nanos, RequestBody body) {
        this.scenario = scenario;
        this.seq = seq;
        this.t0Nanos = t0Nanos;
        this.body = body;
    }
}
