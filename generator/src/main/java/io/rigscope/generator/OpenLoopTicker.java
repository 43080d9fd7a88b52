package io.rigscope.generator;

import io.rigscope.generator.schedule.ArrivalSchedule;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * One open-loop lane's scheduler without its event loop: at each wake it starts, in order, every request whose
 * intended start has passed, and says when the next wake should be (the wake policy, docs/generator.md "Wake
 * policy"). The lane runs it on its loop and schedules the wake it asks for; a test runs it on a clock of its own.
 *
 * <p>The policy. Precise ({@code maxSendLagNanos == 0}): the next wake is the next request's intended start.
 * Adaptive ({@code maxSendLagNanos > 0}): the next wake is the intended start of the last request due within
 * {@code maxSendLagNanos} of the next one (at most {@link #MAX_BATCH} requests on), so that one wake sends them
 * all, the first at most the budget late and none before its intended start; when only one request falls in the
 * window (the rate is below one request per budget) the wake is at its intended start, as with the precise policy.
 * In both, a wake is never sooner than {@code minWakeGapNanos} after the one before.
 *
 * <p>Loop-confined: one thread calls {@link #tick}. Allocates nothing per wake.
 */
final class OpenLoopTicker {

    /** The most requests one adaptive wake waits to gather: bounds the look-ahead at each wake. */
    static final int MAX_BATCH = 64;

    /** Starts one request; called by {@link #tick} in schedule order. */
    interface Starter {
        void start(long seq, long t0Nanos);
    }

    private final ArrivalSchedule schedule;
    private final long startNanos;
    private final long endNanos;
    private final int stride;
    private final long minWakeGapNanos;
    private final long maxSendLagNanos;
    private long next;
    private long nextDueNanos;
    private long wakeAtNanos;
    private boolean batched;

    /**
     * @param first  this lane's first request of the schedule
     * @param stride how many lanes share the schedule (this lane takes every stride-th request)
     */
    OpenLoopTicker(ArrivalSchedule schedule, long startNanos, long endNanos, long first, int stride,
                   long minWakeGapNanos, long maxSendLagNanos) {
        this.schedule = schedule;
        this.startNanos = startNanos;
        this.endNanos = endNanos;
        this.next = first;
        this.stride = stride;
        this.minWakeGapNanos = minWakeGapNanos;
        this.maxSendLagNanos = maxSendLagNanos;
        this.nextDueNanos = dueNanos(first);
    }

    private long dueNanos(long seq) {
        return startNanos + schedule.offsetNanos(seq);
    }

    /**
     * One wake: starts every request due by {@code clock}'s time (re-read after each start), in order. Returns
     * false when the schedule is over (the next request is due at or after the end, or {@code stopping} says so);
     * otherwise {@link #wakeAtNanos()} is when to wake next and {@link #nextDueNanos()} the next request's start.
     */
    boolean tick(LongSupplier clock, BooleanSupplier stopping, Starter starter) {
        long wake = clock.getAsLong();
        long now = wake;
        while (true) {
            long t0 = nextDueNanos;
            if (t0 - endNanos >= 0 || stopping.getAsBoolean()) {
                return false;
            }
            if (t0 - now > 0) {
                wakeAtNanos = Math.max(lastDueWithinBudget(t0), wake + minWakeGapNanos);
                return true;
            }
            starter.start(next, t0);
            next += stride;
            nextDueNanos = dueNanos(next);
            now = clock.getAsLong();
        }
    }

    /** The intended start of the last request (before the end) due within the lag budget of {@code firstNanos}. */
    private long lastDueWithinBudget(long firstNanos) {
        batched = false;
        if (maxSendLagNanos == 0) {
            return firstNanos;
        }
        long last = firstNanos;
        long seq = next;
        for (int k = 1; k < MAX_BATCH; k++) {
            seq += stride;
            long t0 = dueNanos(seq);
            if (t0 - firstNanos > maxSendLagNanos || t0 - endNanos >= 0) {
                break;
            }
            last = t0;
            batched = true;
        }
        return last;
    }

    /** After a {@link #tick} that returned true: when the lane should wake next ({@code System.nanoTime()} scale). */
    long wakeAtNanos() {
        return wakeAtNanos;
    }

    /** The intended start of the next request not yet started: every request before it has been counted. */
    long nextDueNanos() {
        return nextDueNanos;
    }

    /**
     * After a {@link #tick} that returned true: whether the next wake gathers two or more requests (the rate is at
     * least one request per lag budget). The lane then takes replies at its wakes instead of waiting on its sockets.
     */
    boolean batched() {
        return batched;
    }
}
