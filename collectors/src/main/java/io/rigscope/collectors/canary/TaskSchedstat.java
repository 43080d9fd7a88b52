package io.rigscope.collectors.canary;

import io.rigscope.model.proc.ProcStat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Optional;

/**
 * One thread's scheduler statistics from Linux's {@code /proc/self/task/TID/schedstat}: the time it has spent
 * waiting on a run queue (runnable, not running), in nanoseconds, since it started.
 *
 * <p>The file holds three numbers (Documentation/scheduler/sched-stats.rst, "/proc/&lt;pid&gt;/schedstat"): time
 * spent on the CPU (ns), time spent waiting on a runqueue (ns), and the number of timeslices run. It exists
 * when the kernel has {@code CONFIG_SCHED_INFO} (set by {@code CONFIG_SCHEDSTATS} or
 * {@code CONFIG_TASK_DELAY_ACCT}), and reads {@code 0 0 0} when that accounting is off. The kernel adds a wait
 * to the second number when the wait ends (the thread gets a CPU), so a wait still in progress is not in it
 * yet; {@link #runnable()} tells whether the thread is runnable at the moment (state {@code R} in its
 * {@code stat} file: on a CPU or waiting for one).
 *
 * <p>Not thread-safe: one instance per reading thread (the file is kept open and re-read from offset 0, which
 * procfs regenerates on every read).
 */
final class TaskSchedstat implements AutoCloseable {

    private final Path dir;
    private final FileChannel schedstat;
    private final ByteBuffer buf = ByteBuffer.allocate(256);

    private TaskSchedstat(Path dir, FileChannel schedstat) {
        this.dir = dir;
        this.schedstat = schedstat;
    }

    /**
     * The calling thread's directory under {@code /proc/self/task}, or empty when there is none (not Linux, no
     * procfs). Resolved through {@code /proc/thread-self} (Linux 3.17+).
     */
    static Optional<Path> currentThreadDir() {
        try {
            Path link = Path.of("/proc/thread-self");
            if (!Files.isSymbolicLink(link)) {
                return Optional.empty();
            }
            // "<pid>/task/<tid>", relative to /proc
            Path target = Files.readSymbolicLink(link);
            return Optional.of(Path.of("/proc").resolve(target));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return Optional.empty();
        }
    }

    /**
     * Opens the schedstat of the thread whose {@code /proc} directory is {@code taskDir}.
     *
     * @return the reader, or the reason schedstat cannot be used: absent, unreadable, or reading {@code 0 0 0}
     *     (the kernel's scheduler accounting is off)
     */
    static Result open(Path taskDir) {
        Objects.requireNonNull(taskDir, "taskDir");
        Path file = taskDir.resolve("schedstat");
        if (!Files.isReadable(file)) {
            return new Result(null, file + " absent");
        }
        FileChannel ch = null;
        try {
            ch = FileChannel.open(file, StandardOpenOption.READ);
            TaskSchedstat s = new TaskSchedstat(taskDir, ch);
            long[] first = s.fields();
            if (first[0] == 0 && first[1] == 0 && first[2] == 0) {
                s.close();
                return new Result(null, file + " reads 0 0 0 (scheduler accounting off)");
            }
            return new Result(s, null);
        } catch (IOException | RuntimeException e) {
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // already failing
                }
            }
            return new Result(null, file + " unreadable: " + e.getMessage());
        }
    }

    /**
     * What {@link #open} found.
     *
     * @param reader the reader, or null
     * @param unavailable why there is no reader, or null
     */
    record Result(TaskSchedstat reader, String unavailable) {
    }

    /** The thread's run-queue wait so far, ns (the second field). */
    long runqWaitNs() throws IOException {
        return fields()[1];
    }

    /** True when the thread is runnable now (on a CPU or waiting for one): state {@code R} in its stat file. */
    boolean runnable() throws IOException {
        return ProcStat.stateOf(Files.readString(dir.resolve("stat"), StandardCharsets.US_ASCII)) == 'R';
    }

    private long[] fields() throws IOException {
        buf.clear();
        int n;
        long pos = 0;
        while ((n = schedstat.read(buf, pos)) > 0) {
            pos += n;
            if (!buf.hasRemaining()) {
                break;
            }
        }
        return parse(buf.array(), buf.position());
    }

    /** The three numbers of a schedstat line. */
    static long[] parse(byte[] text, int length) {
        long[] out = new long[3];
        int field = 0;
        boolean inNumber = false;
        for (int i = 0; i < length && field < 3; i++) {
            byte b = text[i];
            if (b >= '0' && b <= '9') {
                out[field] = out[field] * 10 + (b - '0');
                inNumber = true;
            } else if (inNumber) {
                field++;
                inNumber = false;
            }
        }
        if (field + (inNumber ? 1 : 0) < 3) {
            throw new IllegalStateException("schedstat: expected 3 numbers, read '"
                    + new String(text, 0, length, StandardCharsets.US_ASCII).strip() + "'");
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        schedstat.close();
    }
}
