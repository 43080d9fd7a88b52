package io.rigscope.generator.target;

import io.rigscope.model.proc.ProcStat;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time by thread group over an interval: samples every live thread's CPU time every 200 ms (threads that
 * end between samples lose at most their last 200 ms) and sums it by name with trailing numbers removed
 * ({@code rig-gen-http-nio-1} counts as {@code rig-gen-http-nio}). JIT compiler and GC threads, which the JVM
 * does not list, are read from {@code /proc/self/task} as {@code jvm-jit} and {@code jvm-gc-vm} (surviving
 * threads only, at 10 ms resolution).
 */
public final class ThreadCpu implements AutoCloseable {

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Map<Long, Long> startCpu = new HashMap<>();
    private final Map<Long, Long> lastCpu = new HashMap<>();
    private final Map<Long, Long> startUser = new HashMap<>();
    private final Map<Long, Long> lastUser = new HashMap<>();
    private final Map<Long, String> names = new HashMap<>();
    private final Thread sampler;
    private final long startNanos = System.nanoTime();
    private volatile boolean closed;

    public ThreadCpu() {
        sample(true);
        sampler = new Thread(() -> {
            while (!closed) {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
                sample(false);
            }
        }, "rig-bench-cpu");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** CPU time so far of the live threads whose name starts with {@code prefix}, nanoseconds. */
    public static long cpuNanosOfThreadsNamed(String prefix) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith(prefix)) {
                sum += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return sum;
    }

    private synchronized void sample(boolean first) {
        for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu < 0) {
                continue;
            }
            long user = Math.max(0, threads.getThreadUserTime(info.getThreadId()));
            names.putIfAbsent(info.getThreadId(), info.getThreadName());
            if (first) {
                startCpu.put(info.getThreadId(), cpu);
                startUser.put(info.getThreadId(), user);
            } else {
                startCpu.putIfAbsent(info.getThreadId(), 0L);
                startUser.putIfAbsent(info.getThreadId(), 0L);
            }
            lastCpu.put(info.getThreadId(), cpu);
            lastUser.put(info.getThreadId(), user);
        }
    }

    /** JVM-internal threads (JIT compilers, GC) that ThreadMXBean does not list: ticks from /proc/self/task, Linux only. */
    private static Map<String, Long> vmThreadTicks() {
        Map<String, Long> out = new HashMap<>();
        java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        if (tasks == null) {
            return out;
        }
        for (java.io.File task : tasks) {
            try {
                String comm = java.nio.file.Files.readString(task.toPath().resolve("comm")).strip();
                String group = comm.startsWith("C1 ") || comm.startsWith("C2 ") ? "jvm-jit"
                        : comm.startsWith("GC ") || comm.startsWith("G1 ") || comm.startsWith("VM ") ? "jvm-gc-vm" : null;
                if (group == null) {
                    continue;
                }
                out.merge(group, ProcStat.read(task.toPath().resolve("stat")).cpuTicks(), Long::sum);
            } catch (java.io.IOException | RuntimeException gone) {
                // the thread ended between listing and reading
            }
        }
        return out;
    }

    private final Map<String, Long> vmStartTicks = vmThreadTicks();

    /**
     * CPU time (user + system) since construction of the threads whose name starts with {@code prefix},
     * nanoseconds. A thread that ended since the last sample loses at most its last 200 ms; JVM-internal threads
     * are not included.
     */
    public synchronized long cpuNanosSince(String prefix) {
        sample(false);
        return sumSince(prefix, startCpu, lastCpu);
    }

    /** As {@link #cpuNanosSince}, user-mode time only (the Java code; the rest is the kernel's, syscalls and TCP). */
    public synchronized long userNanosSince(String prefix) {
        sample(false);
        return sumSince(prefix, startUser, lastUser);
    }

    private long sumSince(String prefix, Map<Long, Long> start, Map<Long, Long> last) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : last.entrySet()) {
            if (names.get(e.getKey()).startsWith(prefix)) {
                sum += e.getValue() - start.getOrDefault(e.getKey(), 0L);
            }
        }
        return sum;
    }

    /** Percent of one core by thread group since construction. */
    public synchronized Map<String, Double> percentByGroup() {
        sample(false);
        double wall = System.nanoTime() - startNanos;
        Map<String, Double> out = new TreeMap<>();
        vmThreadTicks().forEach((group, ticks) -> out.put(group,
                100.0 * (ticks - vmStartTicks.getOrDefault(group, 0L)) * ProcStat.NANOS_PER_TICK / wall));
        lastCpu.forEach((id, cpu) -> {
            String group = names.get(id).replaceAll("[-#\\s]*\\d+$", "").replaceAll("-\\d+-", "-");
            double pct = 100.0 * (cpu - startCpu.getOrDefault(id, 0L)) / wall;
            if (pct >= 0.05) {
                out.merge(group, pct, Double::sum);
            }
        });
        out.replaceAll((k, v) -> Math.round(v * 10) / 10.0);
        return out;
    }

    @Override
    public void close() {
        closed = true;
        sampler.interrupt();
    }
}
