package io.rigscope.rig.bench;

import io.rigscope.model.proc.ProcStat;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A process the peer bench drives over a line protocol: its stdin takes commands, its stdout answers one line at
 * a time, its stderr goes to a log file (named in every failure). Its CPU time is read from {@code /proc}.
 */
final class ChildJvm implements AutoCloseable {

    /** Marks the end of the child's stdout in the queue. */
    private static final String EOF = new String("<eof>");

    private final String name;
    private final Process process;
    private final PrintStream in;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Path log;

    private ChildJvm(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the child ended
            } finally {
                lines.add(EOF);
            }
        }, "rig-bench-child-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code command}, its stderr appended to {@code log}. */
    static ChildJvm start(String name, List<String> command, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new ChildJvm(name, p, log);
    }

    /** Sends one command line. */
    void send(String line) {
        in.println(line);
    }

    /**
     * The next line the child prints, waiting at most {@code timeout}.
     *
     * @throws IllegalStateException when the child ends or stays silent: the message names it and its log
     */
    String next(Duration timeout) {
        String line;
        try {
            line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name + ": interrupted");
        }
        if (line == null) {
            throw new IllegalStateException(name + " said nothing for " + timeout.toSeconds() + " s (log: " + log + ")");
        }
        if (line == EOF) {
            lines.add(EOF);
            throw new IllegalStateException(name + " ended" + exitText() + " (log: " + log + ": " + tail() + ")");
        }
        return line;
    }

    /** The child's CPU time so far (user + system, all its threads, from /proc/PID/stat), nanoseconds. */
    long cpuNanos() {
        return ProcStat.ofPid(process.pid()).cpuNanos();
    }

    /** Counts the sleeps of its threads from now ({@link ThreadSleeps}). */
    ThreadSleeps countSleeps() {
        return ThreadSleeps.start(process.pid());
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    private String exitText() {
        try {
            return process.waitFor(2, TimeUnit.SECONDS) ? " with exit code " + process.exitValue() : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** The last lines of the child's log, on one line. */
    String tail() {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", all.subList(Math.max(0, all.size() - 5), all.size())).strip();
        } catch (IOException e) {
            return "no log";
        }
    }

    /** Asks the child to quit, then ends it if it has not within 10 s. */
    @Override
    public void close() {
        try {
            send("quit");
            in.close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
