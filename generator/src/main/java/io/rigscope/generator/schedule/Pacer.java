package io.rigscope.generator.schedule;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits on the calling thread until a {@link System#nanoTime()} deadline: parks while the deadline is further
 * away than {@code spinNanos}, then spins. {@code spinNanos = 0} never spins (a park wakes ~50-100 µs late
 * on Linux); a larger value trades a busy core for precision. Call only from a dedicated scheduler thread,
 * never from an event loop.
 */
public final class Pacer {

    private final long spinNanos;

    /** @param spinNanos how close to the deadline the pacer stops parking and spins, >= 0 */
    public Pacer(long spinNanos) {
        if (spinNanos < 0) {
            throw new IllegalArgumentException("spinNanos must be >= 0, was " + spinNanos);
        }
        this.spinNanos = spinNanos;
    }

    /**
     * Returns once {@code System.nanoTime() >= deadlineNanos}, or early when the thread is interrupted
     * (the interrupt flag stays set for the caller to see).
     */
    public void awaitNanoTime(long deadlineNanos) {
        long remaining;
        while ((remaining = deadlineNanos - System.nanoTime()) > 0) {
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            if (remaining > spinNanos) {
                LockSupport.parkNanos(remaining - spinNanos);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
