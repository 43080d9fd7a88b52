package io.rigscope.localenv.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the external tools a private cluster needs (initdb, pg_ctl, psql, openssl, losetup, mount). Blocking. */
final class Commands {

    private Commands() {
    }

    /**
     * Runs {@code command}, after {@code prefix} (e.g. {@code runuser -u postgres --}, or empty), in {@code workDir}
     * (null: this process's), and returns its output (stdout and stderr) stripped.
     *
     * @throws IllegalStateException naming the command when it fails, exits non-zero (with its output) or outlives
     *                               {@code timeoutSec}
     */
    static String run(List<String> prefix, List<String> command, Path workDir, int timeoutSec) {
        List<String> full = new ArrayList<>(prefix);
        full.addAll(command);
        try {
            ProcessBuilder builder = new ProcessBuilder(full).redirectErrorStream(true);
            if (workDir != null) {
                builder.directory(workDir.toFile());
            }
            Process p = builder.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeoutSec, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish in " + timeoutSec + " s");
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(command.get(0) + " failed (exit " + p.exitValue() + "): " + text.strip());
            }
            return text.strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command.get(0), e);
        }
    }
}
