package io.rigscope.benchmarks.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * How many times a process's threads went to sleep over a span ({@link #sleepsByThread}: each thread's
 * {@code /proc/PID/task/TID/status}, Linux), the threads that start and end within it included: a thread's count is
 * gone from /proc once it ends, so the counts are sampled every {@value #PERIOD_MS} ms and each thread's last reading
 * kept (a thread that ends loses at most its last {@value #PERIOD_MS} ms). A thread seen at the start counts from its
 * reading then, one that started later from 0. The tools the bench runs start threads per step (Hyperfoil a runner,
 * Gatling an engine), whose sleeps a reading at each end of the step would miss.
 */
final class ThreadSleeps {

    static final long PERIOD_MS = 100;

    private final long pid;
    /** Thread id -> {reading at the start or 0, last reading}. */
    private final Map<Long, long[]> threads = new HashMap<>();
    /** Sleeps of threads whose id was taken by a new thread (the reading went down). */
    private long reused;
    private final boolean unreadable;
    private final Thread sampler;
    private volatile boolean running = true;

    private ThreadSleeps(long pid) {
        this.pid = pid;
        Map<Long, Long> now = sleepsByThread(pid);
        unreadable = now == null;
        if (now != null) {
            now.forEach((tid, n) -> threads.put(tid, new long[] {n, n}));
        }
        sampler = new Thread(() -> {
            while (running) {
                try {
                    Thread.sleep(PERIOD_MS);
                } catch (InterruptedException e) {
                    return;
                }
                sample();
            }
        }, "bench-thread-sleeps-" + pid);
        sampler.setDaemon(true);
    }

    /** Starts counting the sleeps of process {@code pid}'s threads from now. */
    static ThreadSleeps start(long pid) {
        ThreadSleeps s = new ThreadSleeps(pid);
        s.sampler.start();
        return s;
    }

    /** Stops counting; the sleeps since {@link #start}, or -1 when /proc could not be read. */
    long stop() {
        running = false;
        sampler.interrupt();
        try {
            sampler.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample();
        synchronized (this) {
            if (unreadable) {
                return -1;
            }
            long n = reused;
            for (long[] t : threads.values()) {
                n += t[1] - t[0];
            }
            return n;
        }
    }

    private synchronized void sample() {
        if (unreadable) {
            return;
        }
        Map<Long, Long> now = sleepsByThread(pid);
        if (now == null) {
            return; // the process ended: the last readings stand
        }
        now.forEach((tid, n) -> {
            long[] t = threads.get(tid);
            if (t == null) {
                threads.put(tid, new long[] {0, n});
            } else if (n < t[1]) {
                reused += t[1] - t[0];
                t[0] = 0;
                t[1] = n;
            } else {
                t[1] = n;
            }
        });
    }

    /**
     * How many times each live thread of process {@code pid} gave up its CPU to wait (its
     * {@code voluntary_ctxt_switches}: a wait on a socket, a timer or a lock that found nothing ready), by thread id; a
     * thread that ended is not in it. Null when /proc cannot be read (not Linux, no such process).
     */
    static Map<Long, Long> sleepsByThread(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (Stream<Path> threads = Files.list(tasks)) {
            Map<Long, Long> out = new HashMap<>();
            for (Path t : (Iterable<Path>) threads::iterator) {
                try {
                    long tid = Long.parseLong(t.getFileName().toString());
                    out.put(tid, voluntarySwitches(Files.readString(t.resolve("status"))));
                } catch (IOException e) {
                    // the thread ended between the listing and the read
                }
            }
            return out;
        } catch (IOException e) {
            return null;
        }
    }

    /** The {@code voluntary_ctxt_switches} of a {@code /proc/PID/task/TID/status} text; 0 when it has none. */
    static long voluntarySwitches(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        return 0;
    }
}
