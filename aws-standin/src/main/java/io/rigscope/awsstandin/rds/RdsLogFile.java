package io.rigscope.awsstandin.rds;

import io.rigscope.awsstandin.AwsAnswer;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Objects;

/**
 * The instance's Postgres log as RDS's log download hands it out, for {@link RdsStandIn} and the real
 * {@code RdsLogCollector}: the private cluster's own log file (written with RDS's {@code log_line_prefix}
 * {@code %t:%r:%u@%d:[%p]:} in UTC), listed by DescribeDBLogFiles as one file named as RDS names the hour's file
 * ({@code error/postgresql.log.YYYY-MM-DD-HH}) and read by DownloadDBLogFilePortion from a marker, in portions
 * of at most {@link #MAX_LINES} lines and {@link #MAX_BYTES} bytes, whole lines only.
 *
 * <p>Late, in steps: what the server wrote becomes downloadable only at the next {@link #release}, which the
 * stand-in calls every {@link #RELEASE_EVERY}; with the collector's 5-s poll a line reaches the wire 0-10 s after
 * it was written. The step is an assumption standing for the delay between the server's write and the download
 * API seeing it (not measured on RDS here). The file does not rotate at the hour: a case is shorter than an hour,
 * and the collector's rotation is tested on its own (AwsCollectorsTest).
 *
 * <p>Thread-safe: the release timer and the stand-in's server thread share it.
 */
final class RdsLogFile {

    /** How often the file's new content becomes downloadable. */
    static final Duration RELEASE_EVERY = Duration.ofSeconds(5);
    /** RDS returns at most 10,000 lines a portion when NumberOfLines is not given. */
    static final int MAX_LINES = 10_000;
    /** ... and at most 1 MB. */
    static final int MAX_BYTES = 1 << 20;

    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("yyyy-MM-dd-HH").withZone(ZoneOffset.UTC);

    private final Path file;
    private final String name;
    private final String hour;
    private long releasedBytes;
    private long lastWrittenMs;

    /**
     * @param file the cluster's log file
     * @param openedAt when the instance's current hour file began (names the file)
     */
    RdsLogFile(Path file, Instant openedAt) {
        this.file = Objects.requireNonNull(file, "file");
        this.name = "error/postgresql.log." + HOUR.format(openedAt);
        this.hour = String.valueOf(openedAt.atZone(ZoneOffset.UTC).getHour());
    }

    /** The file's name as DescribeDBLogFiles lists it. */
    String name() {
        return name;
    }

    /** Makes everything the server has written so far (up to its last complete line) downloadable. */
    synchronized void release(long nowMs) {
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            return; // not written yet
        }
        if (size <= releasedBytes) {
            return;
        }
        byte[] fresh = read(releasedBytes, size);
        int end = lastNewline(fresh, fresh.length);
        if (end > 0) {
            releasedBytes += end;
            lastWrittenMs = nowMs;
        }
    }

    /**
     * Answers DescribeDBLogFiles (RDS API: DBInstanceIdentifier, FileLastWritten in epoch ms; DescribeDBLogFiles of
     * LogFileName, LastWritten, Size): the file, once released content was written at or after FileLastWritten.
     */
    synchronized String describe(Map<String, String> form) {
        long since = Long.parseLong(form.getOrDefault("FileLastWritten", "0"));
        StringBuilder files = new StringBuilder();
        if (lastWrittenMs > 0 && lastWrittenMs >= since) {
            files.append("<DescribeDBLogFilesDetails><LastWritten>").append(lastWrittenMs).append("</LastWritten>")
                    .append("<LogFileName>").append(name).append("</LogFileName><Size>").append(releasedBytes)
                    .append("</Size></DescribeDBLogFilesDetails>");
        }
        return "<DescribeDBLogFiles>" + files + "</DescribeDBLogFiles>";
    }

    /**
     * Answers DownloadDBLogFilePortion (LogFileName, Marker {@code 0} or one it returned; LogFileData,
     * AdditionalDataPending, Marker): the released lines after the marker, one portion.
     *
     * @return the XML body, or null when the file is not this one (DBLogFileNotFoundFault)
     */
    synchronized String download(Map<String, String> form) {
        if (!name.equals(form.get("LogFileName"))) {
            return null;
        }
        String marker = form.getOrDefault("Marker", "0");
        long from = Math.min(releasedBytes, marker.contains(":")
                ? Long.parseLong(marker.substring(marker.indexOf(':') + 1)) : 0);
        int lines = form.containsKey("NumberOfLines")
                ? Math.min(MAX_LINES, Integer.parseInt(form.get("NumberOfLines"))) : MAX_LINES;
        byte[] chunk = read(from, Math.min(releasedBytes, from + MAX_BYTES));
        int end = 0;
        int seen = 0;
        for (int i = 0; i < chunk.length && seen < lines; i++) {
            if (chunk[i] == '\n') {
                end = i + 1;
                seen++;
            }
        }
        long next = from + end;
        String data = new String(chunk, 0, end, StandardCharsets.UTF_8);
        return "<LogFileData>" + AwsAnswer.escape(data) + "</LogFileData><AdditionalDataPending>"
                + (next < releasedBytes) + "</AdditionalDataPending><Marker>" + hour + ":" + next + "</Marker>";
    }

    private byte[] read(long from, long to) {
        byte[] out = new byte[(int) Math.max(0, to - from)];
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            f.seek(from);
            f.readFully(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the cluster's log " + file, e);
        }
        return out;
    }

    private static int lastNewline(byte[] b, int len) {
        for (int i = len - 1; i >= 0; i--) {
            if (b[i] == '\n') {
                return i + 1;
            }
        }
        return 0;
    }
}
