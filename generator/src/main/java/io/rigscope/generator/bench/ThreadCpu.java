package io.rigscope.generator.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time by thread group over an interval: samples every live thread's CPU time every 200 ms (threads that
 * end between samples lose at most their last 200 ms) and sums it by name with trailing numbers removed
 * ({@code rig-gen-http-nio-1} counts as {@code rig-gen-http-nio}).
 */
final class ThreadCpu implements AutoCloseable {

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Map<Long, Long> startCpu = new HashMap<>();
    private final Map<Long, Long> lastCpu = new HashMap<>();
    private final Map<Long, String> names = new HashMap<>();
    private final Thread sampler;
    private final long startNanos = System.nanoTime();
    private volatile boolean closed;

    ThreadCpu() {
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

    private synchronized void sample(boolean first) {
        for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu < 0) {
                continue;
            }
            names.putIfAbsent(info.getThreadId(), info.getThreadName());
            if (first) {
                startCpu.put(info.getThreadId(), cpu);
            } else {
                startCpu.putIfAbsent(info.getThreadId(), 0L);
            }
            lastCpu.put(info.getThreadId(), cpu);
        }
    }

    /** Percent of one core by thread group since construction. */
    synchronized Map<String, Double> percentByGroup() {
        sample(false);
        double wall = System.nanoTime() - startNanos;
        Map<String, Double> out = new TreeMap<>();
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
