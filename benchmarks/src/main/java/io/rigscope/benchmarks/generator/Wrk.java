package io.rigscope.benchmarks.generator;

import io.rigscope.wire.host.ExecutableSearch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs {@code wrk} (closed loop: each connection sends its next request when the reply arrives) and reads its rate,
 * its request count and its own CPU time.
 */
public final class Wrk {

    private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ");
    /** Printed by bash's {@code time} around wrk (see {@link #run}): user and system CPU seconds of wrk. */
    private static final Pattern CPU = Pattern.compile("wrk-cpu-s ([0-9.]+) ([0-9.]+)");

    /**
     * One wrk run.
     *
     * @param requestsPerSec wrk's Requests/sec
     * @param requests requests wrk completed
     * @param cpuSec wrk's own CPU time, user + system, seconds (its rusage at exit, from bash's {@code time})
     */
    public record Result(double requestsPerSec, long requests, double cpuSec) {

        /** wrk's CPU time per completed request, µs; NaN when it completed none. */
        public double cpuUsPerRequest() {
            return requests == 0 ? Double.NaN : cpuSec * 1e6 / requests;
        }
    }

    private final Path executable;

    private Wrk(Path executable) {
        this.executable = executable;
    }

    /** The wrk at {@code executable}, if that is an executable file. */
    public static Optional<Wrk> at(Path executable) {
        return java.nio.file.Files.isRegularFile(executable) && java.nio.file.Files.isExecutable(executable)
                ? Optional.of(new Wrk(executable)) : Optional.empty();
    }

    /** What {@code wrk -v} prints first (e.g. {@code wrk 4.1.0 [epoll] ...}): its version; "unknown" when it prints none. */
    public String version() {
        try {
            Process p = new ProcessBuilder(executable.toString(), "-v").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            Matcher m = Pattern.compile("wrk\\s+(\\S+)").matcher(out);
            return m.find() ? m.group(1) : "unknown";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** The {@code wrk} on the PATH, if there is one. */
    public static Optional<Wrk> find() {
        return ExecutableSearch.onPath("wrk").map(Wrk::new);
    }

    /**
     * Runs wrk against {@code url} under bash's {@code time} (so its CPU time is read from its rusage when it exits)
     * and returns its rate, request count and CPU time.
     *
     * @throws IllegalStateException when wrk fails or prints no rate
     */
    public Result run(String url, int threads, int connections, Duration duration) {
        return run(url, threads, connections, duration, List.of());
    }

    /**
     * As {@link #run(String, int, int, Duration)}, wrk started through {@code launcher} (e.g. {@code taskset -c 0};
     * empty: directly).
     */
    public Result run(String url, int threads, int connections, Duration duration, List<String> launcher) {
        List<String> command = new java.util.ArrayList<>(launcher);
        command.addAll(List.of("bash", "-c", "TIMEFORMAT='wrk-cpu-s %3U %3S'; time \"$0\" \"$@\"",
                executable.toString(), "-t" + threads, "-c" + connections, "-d" + Math.max(1, duration.toSeconds()) + "s",
                url));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(duration.toSeconds() + 30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("wrk did not finish: " + command);
            }
            Matcher rps = RPS.matcher(out);
            Matcher requests = REQUESTS.matcher(out);
            Matcher cpu = CPU.matcher(out);
            if (p.exitValue() != 0 || !rps.find() || !requests.find() || !cpu.find()) {
                throw new IllegalStateException("wrk failed (" + p.exitValue() + "): " + out.strip());
            }
            return new Result(Double.parseDouble(rps.group(1)), Long.parseLong(requests.group(1)),
                    Double.parseDouble(cpu.group(1)) + Double.parseDouble(cpu.group(2)));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + executable + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running wrk", e);
        }
    }

    @Override
    public String toString() {
        return executable.toString();
    }
}
