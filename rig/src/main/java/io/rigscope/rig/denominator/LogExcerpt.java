package io.rigscope.rig.denominator;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Postgres log line that explains a failed step: the log's length is taken before the step ({@link #mark}),
 * and after a failure {@link #firstError} reads what the server wrote since and returns its first {@code ERROR:} or
 * {@code FATAL:} line (pgbench's own line often says only that the run was aborted; the server's says which
 * constraint refused which row).
 *
 * @param log the Postgres log file, or null when the series knows none (then nothing is read)
 * @param fromBytes the log's length when the step began
 */
public record LogExcerpt(Path log, long fromBytes) {

    /** The most bytes read after the mark: a failed step's first error is near its start. */
    private static final int MAX_READ_BYTES = 1 << 20;

    /** The log as it is now, or a mark that reads nothing when {@code log} is null or unreadable. */
    public static LogExcerpt mark(Path log) {
        if (log == null) {
            return new LogExcerpt(null, 0);
        }
        try {
            return new LogExcerpt(log, Files.size(log));
        } catch (IOException e) {
            return new LogExcerpt(null, 0);
        }
    }

    /**
     * The first error line written since the mark, its message only ({@code ERROR:  new row for relation ...}, the
     * line's prefix cut), or null when the log holds none or cannot be read.
     */
    public String firstError() {
        if (log == null) {
            return null;
        }
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            long length = f.length();
            if (length <= fromBytes) {
                return null;
            }
            byte[] bytes = new byte[(int) Math.min(MAX_READ_BYTES, length - fromBytes)];
            f.seek(fromBytes);
            f.readFully(bytes);
            for (String line : new String(bytes, StandardCharsets.UTF_8).lines().toList()) {
                for (String level : new String[] {"ERROR:", "FATAL:"}) {
                    int at = line.indexOf(level);
                    if (at >= 0) {
                        return line.substring(at).strip();
                    }
                }
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }
}
