package io.rigscope.model.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.rigscope.model.topic.Topic;

/**
 * One second of the service's process on {@code rig.process}, read from outside the process (Linux
 * {@code /proc/PID/stat}, {@code /proc/PID/status}, {@code /proc/PID/task/TID/schedstat}) by the process collector on
 * the service's host, so that the service's own time can be told from the database's and the generator's.
 *
 * <p>The JVM fields are optional and absent when unknown: a process that is not a HotSpot JVM, or one whose
 * performance-counter file ({@code hsperfdata}) cannot be read, has them null.
 *
 * @param pid the process id
 * @param command the process's command name ({@code /proc/PID/comm}), e.g. {@code java}
 * @param intervalMs the span this record covers, ms (about 1000)
 * @param cpuPct user + system CPU over the span, percent of one core (200 = two cores busy)
 * @param cpus CPUs online on the host (what {@code cpuPct} is compared with)
 * @param rssBytes resident set size at the end of the span
 * @param threads threads at the end of the span
 * @param runqWaitMs time the process's threads spent runnable but waiting for a CPU during the span, summed over
 *     its threads (schedstat), ms
 * @param stoppedMs how long the process was seen stopped (state {@code T}: SIGSTOP, a debugger) during the span,
 *     at the collector's polling resolution ({@code pollMs}), ms
 * @param pollMs how often the collector looked at the process's state, ms
 * @param gcPauseMs the JVM's garbage-collection time in the span (its {@code sun.gc.collector.*.time} counters), ms;
 *     null when not a readable JVM
 * @param safepointMs the JVM's time at safepoints in the span (every thread stopped: GC pauses, deoptimisation,
 *     biased-lock revocation; {@code sun.rt.safepointTime}), ms; null when not a readable JVM
 * @param runqWaitMaxMs the longest any one of its threads waited for a CPU during the span, ms: how late a request
 *     handled by one thread could be made by the host's CPU alone; null in records of older collectors
 */
public record ProcessMetrics(String run, int rep, String src, long ts, long pid, String command, double intervalMs,
                             double cpuPct, int cpus, long rssBytes, int threads, double runqWaitMs,
                             double stoppedMs, double pollMs,
                             @JsonInclude(JsonInclude.Include.NON_NULL) Double gcPauseMs,
                             @JsonInclude(JsonInclude.Include.NON_NULL) Double safepointMs,
                             @JsonInclude(JsonInclude.Include.NON_NULL) Double runqWaitMaxMs) implements WireRecord {

    /** A record without the per-thread maximum of the run-queue wait. */
    public ProcessMetrics(String run, int rep, String src, long ts, long pid, String command, double intervalMs,
                          double cpuPct, int cpus, long rssBytes, int threads, double runqWaitMs, double stoppedMs,
                          double pollMs, Double gcPauseMs, Double safepointMs) {
        this(run, rep, src, ts, pid, command, intervalMs, cpuPct, cpus, rssBytes, threads, runqWaitMs, stoppedMs,
                pollMs, gcPauseMs, safepointMs, null);
    }

    public ProcessMetrics {
        Checks.header(run, rep, src, ts);
        if (pid <= 0) {
            throw new IllegalArgumentException("pid must be > 0, got " + pid);
        }
        command = command == null ? "" : command;
        Checks.nonNegative(intervalMs, "intervalMs");
        Checks.nonNegative(cpuPct, "cpuPct");
        Checks.nonNegative(rssBytes, "rssBytes");
        Checks.nonNegative(threads, "threads");
        Checks.nonNegative(runqWaitMs, "runqWaitMs");
        Checks.nonNegative(stoppedMs, "stoppedMs");
    }

    /** The longest one thread waited for a CPU in the span, ms: {@code runqWaitMaxMs}, or the sum when unknown. */
    public double threadRunqWaitMs() {
        return runqWaitMaxMs != null ? runqWaitMaxMs : runqWaitMs;
    }

    /**
     * The longest the whole process stood still in the span, as far as the record can tell, ms: stopped, or at a
     * JVM safepoint (or in GC when safepoints are unknown).
     */
    public double pauseMs() {
        double jvm = safepointMs != null ? safepointMs : gcPauseMs != null ? gcPauseMs : 0;
        return Math.max(stoppedMs, jvm);
    }

    @Override
    public Topic topic() {
        return Topic.PROCESS;
    }
}
