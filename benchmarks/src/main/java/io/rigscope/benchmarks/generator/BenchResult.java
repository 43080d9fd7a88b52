package io.rigscope.benchmarks.generator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One open-loop run of the generator benchmark.
 *
 * @param targetRate requests/s asked for
 * @param offeredRate requests/s actually sent: {@code (sent - 1) / (last send - first send)}
 * @param sent requests sent
 * @param dropped requests dropped at the in-flight cap
 * @param droppedFirstSecond of those, in the run's first (partial) second, while the pool opens its connections
 * @param completed requests that ended
 * @param failed requests that ended in an error
 * @param lagP50Ms median send lag {@code t1 - t0}
 * @param lagP99Ms p99 send lag
 * @param lagMaxMs largest send lag
 * @param serviceP50Ms median {@code t2 - t1} of the run's samples, taken by the bench from the samples the run
 *                     published (the instrument against its own server; the generator keeps no latency figures)
 * @param serviceP99Ms p99 {@code t2 - t1}, taken the same way
 * @param cpuPct the generator's CPU: process CPU minus the bench server's event loops, percent of one core
 * @param serverCpuPct the bench server's event loops, percent of one core; NaN when the server runs elsewhere
 * @param cpuUsPerRequest CPU time of the whole process (every thread: the generator's, the Kafka producer's I/O
 *                        thread, the sample journal's writes, the JIT and GC) minus the bench server's event loops
 *                        when it runs in this JVM, over the whole run, divided by {@code completed}, µs. The run
 *                        includes the generator's own 0.4 s warm-up on a throwaway server (~4,000 requests not in
 *                        {@code completed}: +0.7 % at 20,000 req/s for 30 s). NaN when nothing completed
 * @param generatorCpuUsPerRequest the part of it in the generator's own threads ({@code rig-gen-*}: client event
 *                        loops, sample batcher, outbox drain (which encodes and hands records to Kafka), health),
 *                        µs; NaN when nothing completed
 * @param userUsPerRequest of {@code generatorCpuUsPerRequest}, the user-mode part (the generator's Java code; the
 *                         rest is the kernel's: syscalls and loopback TCP), µs
 * @param cpuPctByThread CPU by thread group (names with numbers removed), percent of one core
 * @param inFlightMax the most requests out at once (the in-flight cap when any was dropped)
 */
public record BenchResult(double targetRate, double offeredRate, long sent, long dropped, long droppedFirstSecond,
                          long completed, long failed,
                          double lagP50Ms, double lagP99Ms, double lagMaxMs, double serviceP50Ms, double serviceP99Ms,
                          double cpuPct, double serverCpuPct, double cpuUsPerRequest,
                          double generatorCpuUsPerRequest, double userUsPerRequest, Map<String, Double> cpuPctByThread,
                          int inFlightMax) {

    public BenchResult {
        cpuPctByThread = Map.copyOf(cpuPctByThread);
    }

    /** True when nothing was dropped or failed and the offered rate is within {@code tolerance} (0.005 = 0.5 %) of the target. */
    public boolean held(double tolerance) {
        return dropped == 0 && failed == 0 && Math.abs(offeredRate - targetRate) <= tolerance * targetRate;
    }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target_rate", targetRate);
        m.put("offered_rate", round(offeredRate, 1));
        m.put("offered_error_pct", round(100.0 * (offeredRate - targetRate) / targetRate, 3));
        m.put("sent", sent);
        m.put("dropped", dropped);
        m.put("dropped_first_second", droppedFirstSecond);
        m.put("dropped_after_first_second", dropped - droppedFirstSecond);
        m.put("in_flight_max", inFlightMax);
        m.put("completed", completed);
        m.put("failed", failed);
        m.put("lag_p50_ms", round(lagP50Ms, 3));
        m.put("lag_p99_ms", round(lagP99Ms, 3));
        m.put("lag_max_ms", round(lagMaxMs, 3));
        m.put("service_p50_ms", round(serviceP50Ms, 3));
        m.put("service_p99_ms", round(serviceP99Ms, 3));
        m.put("cpu_pct", round(cpuPct, 1));
        m.put("server_cpu_pct", Double.isNaN(serverCpuPct) ? null : round(serverCpuPct, 1));
        m.put("cpu_us_per_request", Double.isNaN(cpuUsPerRequest) ? null : round(cpuUsPerRequest, 2));
        m.put("generator_threads_cpu_us_per_request", Double.isNaN(generatorCpuUsPerRequest) ? null
                : round(generatorCpuUsPerRequest, 2));
        m.put("user_cpu_us_per_request", Double.isNaN(userUsPerRequest) ? null : round(userUsPerRequest, 2));
        m.put("cpu_pct_by_thread", new java.util.TreeMap<>(cpuPctByThread));
        return m;
    }

    static double round(double v, int digits) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return v;
        }
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
