package io.rigscope.model.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One reading of a Linux {@code stat} file of a process ({@code /proc/PID/stat}) or of one of its threads
 * ({@code /proc/PID/task/TID/stat}): the fields rigscope reads, CPU times in clock ticks.
 *
 * <p>The trap it exists for: field 2, the command ({@code comm}), is in parentheses and may itself hold spaces and
 * parentheses ({@code 1234 (my (odd) name) S ...}), so the fields are counted from the <em>last</em> {@code ')'},
 * never by splitting the whole line.
 *
 * <pre>{@code
 * long cpuNs = ProcStat.ofPid(pid).cpuNanos();       // utime + stime of all its threads, ended ones included
 * char state = ProcStat.read(Path.of("/proc/self/stat")).state();
 * }</pre>
 *
 * @param command the command name (field 2, without its parentheses)
 * @param state the state letter (field 3): {@code R} running or runnable, {@code S} sleeping, {@code T}/{@code t}
 *        stopped, ...
 * @param userTicks user-mode CPU time (field 14, {@code utime}), clock ticks ({@link #NANOS_PER_TICK})
 * @param systemTicks kernel-mode CPU time (field 15, {@code stime}), clock ticks
 * @param childrenUserTicks user-mode CPU time of ended children that were waited for (field 16, {@code cutime})
 * @param childrenSystemTicks kernel-mode CPU time of those children (field 17, {@code cstime})
 * @param threads the process's thread count (field 20, {@code num_threads})
 */
public record ProcStat(String command, char state, long userTicks, long systemTicks, long childrenUserTicks,
                       long childrenSystemTicks, long threads) {

    /** A clock tick of these files in ns: USER_HZ is 100 on Linux (1/100 s). */
    public static final long NANOS_PER_TICK = 10_000_000L;

    public ProcStat {
        Objects.requireNonNull(command, "command");
    }

    /**
     * Reads {@code /proc/<pid>/stat}.
     *
     * @throws IllegalStateException when there is no such process or its file cannot be read; the message names it
     */
    public static ProcStat ofPid(long pid) {
        Path file = Path.of("/proc", Long.toString(pid), "stat");
        try {
            return read(file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads and parses one {@code stat} file.
     *
     * @throws IOException when it cannot be read (the thread or process ended) or does not parse; the message names
     *         the file
     */
    public static ProcStat read(Path statFile) throws IOException {
        String line = Files.readString(statFile);
        try {
            return parse(line);
        } catch (IllegalArgumentException e) {
            throw new IOException("unreadable " + statFile + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parses the text of a {@code stat} file.
     *
     * @throws IllegalArgumentException when it has no {@code (command)} or too few fields after it
     */
    public static ProcStat parse(String line) {
        int open = line.indexOf('(');
        int close = line.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("no (command) in '" + line.strip() + "'");
        }
        // after the command: [0] is field 3 (state), [11] field 14 (utime) ... [17] field 20 (num_threads)
        String[] f = line.substring(close + 1).strip().split("\\s+");
        if (f.length < 18 || f[0].length() != 1) {
            throw new IllegalArgumentException("too few fields after the command in '" + line.strip() + "'");
        }
        try {
            return new ProcStat(line.substring(open + 1, close), f[0].charAt(0), Long.parseLong(f[11]),
                    Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14]), Long.parseLong(f[17]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a field that is not a number in '" + line.strip() + "'", e);
        }
    }

    /**
     * The state letter of a {@code stat} text without parsing the rest (for a reader that looks often), or
     * {@code '?'} when it has none.
     */
    public static char stateOf(CharSequence line) {
        int close = -1;
        for (int i = line.length() - 1; i >= 0; i--) {
            if (line.charAt(i) == ')') {
                close = i;
                break;
            }
        }
        return close >= 0 && close + 2 < line.length() ? line.charAt(close + 2) : '?';
    }

    /** User + system CPU time, ticks. */
    public long cpuTicks() {
        return userTicks + systemTicks;
    }

    /** User + system CPU time, ns (10 ms resolution). */
    public long cpuNanos() {
        return cpuTicks() * NANOS_PER_TICK;
    }

    /** User + system CPU time of the ended, waited-for children, seconds. */
    public double childrenCpuSec() {
        return (childrenUserTicks + childrenSystemTicks) * NANOS_PER_TICK / 1e9;
    }
}
