package io.rigscope.rig.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's CPU time from {@code /proc/PID/stat} (Linux): user + system of all its threads, ended ones included. */
final class ProcCpu {

    /** USER_HZ: /proc counts CPU time in 1/100 s on Linux. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private ProcCpu() {
    }

    /**
     * CPU time of process {@code pid} so far, nanoseconds (10 ms resolution).
     *
     * @throws IllegalStateException when /proc has no such process
     */
    static long ofPid(long pid) {
        try {
            return parseStat(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/" + pid + "/stat: " + e.getMessage(), e);
        }
    }

    /** utime + stime (fields 14 and 15) of a {@code /proc/PID/stat} line, nanoseconds. */
    static long parseStat(String stat) {
        // the command (field 2) is in parentheses and may hold spaces: count fields from the last ')'
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK;
    }
}
