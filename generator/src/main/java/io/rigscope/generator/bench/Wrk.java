package io.rigscope.generator.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs {@code wrk} (closed loop: each connection sends its next request when the reply arrives) and reads its rate. */
public final class Wrk {

    private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");

    private final Path executable;

    private Wrk(Path executable) {
        this.executable = executable;
    }

    /** The {@code wrk} on the PATH, if there is one. */
    public static Optional<Wrk> find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "wrk");
            if (Files.isExecutable(candidate)) {
                return Optional.of(new Wrk(candidate));
            }
        }
        return Optional.empty();
    }

    /**
     * Runs wrk against {@code url} and returns its Requests/sec.
     *
     * @throws IllegalStateException when wrk fails or prints no rate
     */
    public double maxRequestsPerSec(String url, int threads, int connections, Duration duration) {
        List<String> command = List.of(executable.toString(), "-t" + threads, "-c" + connections,
                "-d" + Math.max(1, duration.toSeconds()) + "s", url);
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(duration.toSeconds() + 30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("wrk did not finish: " + command);
            }
            Matcher m = RPS.matcher(out);
            if (p.exitValue() != 0 || !m.find()) {
                throw new IllegalStateException("wrk failed (" + p.exitValue() + "): " + out.strip());
            }
            return Double.parseDouble(m.group(1));
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
