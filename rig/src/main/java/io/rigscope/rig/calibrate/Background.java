package io.rigscope.rig.calibrate;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One provocation's worker thread ({@code rig-cal-<name>}, a daemon). It runs its task once; {@link #join} waits
 * for it and rethrows what it failed with.
 */
final class Background {

    /** A task that may throw. */
    interface Task {
        void run() throws Exception;
    }

    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private Background(String name, Task task) {
        this.thread = new Thread(() -> {
            try {
                task.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "rig-cal-" + name);
        thread.setDaemon(true);
    }

    static Background start(String name, Task task) {
        Background b = new Background(name, task);
        b.thread.start();
        return b;
    }

    /** Interrupts the task (a blocking psql call is not interrupted: it ends by its own deadline). */
    void interrupt() {
        thread.interrupt();
    }

    /**
     * Waits for the task at most {@code timeout}.
     *
     * @throws IllegalStateException when the task failed, naming its error
     */
    void join(Duration timeout) {
        try {
            thread.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + thread.getName(), e);
        }
        Throwable e = failure.get();
        if (e != null) {
            throw new IllegalStateException(thread.getName() + " failed: " + e.getMessage(), e);
        }
    }

    /** Sleeps until {@code epochMs} (wall clock). */
    static void sleepUntil(long epochMs) throws InterruptedException {
        long left;
        while ((left = epochMs - System.currentTimeMillis()) > 0) {
            Thread.sleep(Math.min(left, 200));
        }
    }
}
