package io.rigscope.generator.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The calling thread's Linux timer slack ({@code /proc/TID/timerslack_ns}): how late the kernel may end its timed
 * sleeps so as to group wake-ups. A thread's default is 50 µs, so every timed sleep of a client loop (a batched
 * wake's poll, {@code LockSupport.parkNanos}; a wait on the sockets with a timeout) ended 50-60 µs after its deadline
 * on an idle CPU, and that lateness was the bulk of the send lag at 20,000 req/s (docs/generator.md "Timer slack").
 * A client loop thread sets its own to {@link #CLIENT_LOOP_NANOS} once, before its loop starts ({@link ClientLoops}).
 *
 * <p>Linux lets a thread change its own slack without privileges (since 4.6); elsewhere, or when {@code /proc} is
 * not there or refuses the write, nothing changes and {@link #lower} says so. Called on the thread whose slack it
 * sets; it writes a small file, once per thread (the tests' BlockHound allows this method).
 */
public final class TimerSlack {

    /** The slack of a client loop thread: 1 µs. */
    public static final long CLIENT_LOOP_NANOS = 1_000;

    private TimerSlack() {
    }

    /**
     * Sets the calling thread's timer slack to {@code nanos}.
     *
     * @return true when the kernel took it; false where there is no per-thread slack to set (not Linux, no
     *     {@code /proc}, the write refused)
     */
    public static boolean lower(long nanos) {
        if (nanos < 1) {
            throw new IllegalArgumentException("nanos must be >= 1, was " + nanos);
        }
        try {
            Path file = ownFile();
            if (file == null) {
                return false;
            }
            Files.writeString(file, Long.toString(nanos), StandardCharsets.US_ASCII);
            return true;
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** The calling thread's timer slack, ns, or -1 where it cannot be read. */
    public static long current() {
        try {
            Path file = ownFile();
            return file == null ? -1 : Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).strip());
        } catch (IOException | SecurityException | NumberFormatException e) {
            return -1;
        }
    }

    /** {@code /proc/TID/timerslack_ns} of the calling thread ({@code /proc/thread-self} names it), or null. */
    private static Path ownFile() throws IOException {
        Path self = Path.of("/proc/thread-self");
        if (!Files.isSymbolicLink(self)) {
            return null;
        }
        // "PID/task/TID": the thread's own entry, /proc/TID, carries its timerslack_ns (the task/TID one does not)
        Path link = Files.readSymbolicLink(self);
        Path file = Path.of("/proc", link.getFileName().toString(), "timerslack_ns");
        return Files.isRegularFile(file) ? file : null;
    }
}
