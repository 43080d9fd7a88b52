package io.rigscope.rig.bench;

import io.rigscope.model.proc.ProcStat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A process's CPU time from {@code /proc/PID/stat} ({@link ProcStat}, Linux): user + system of all its threads, ended ones included;
 * and how many times its threads went to sleep, from each thread's {@code /proc/PID/task/TID/status}.
 */
final class ProcCpu {

    private ProcCpu() {
    }

    /**
     * CPU time of process {@code pid} so far, nanoseconds (10 ms resolution).
     *
     * @throws IllegalStateException when /proc has no such process
     */
    static long ofPid(long pid) {
        return ProcStat.ofPid(pid).cpuNanos();
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
