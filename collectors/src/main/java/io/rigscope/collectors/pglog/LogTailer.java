package io.rigscope.collectors.pglog;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads the lines appended to a file since the last {@link #poll()}, like {@code tail -F}.
 *
 * <p>The first poll starts at the file's end (only new lines) or at its start, as asked; a file that did not
 * exist at the first poll is read from its start once it appears. When the file is replaced (a different
 * file key, i.e. inode) or truncated (shorter than what was read), reading restarts at its start. A last
 * line without its newline is held back until the newline arrives. Lines are decoded as UTF-8 (bad bytes
 * become U+FFFD). Each poll reads at most {@code maxBytesPerPoll}.
 *
 * <p>Blocking file IO: call it from a thread that may block. Not thread-safe.
 */
final class LogTailer {

    private final Path path;
    private final boolean fromStart;
    private final int maxBytesPerPoll;
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private Object fileKey;
    private long position = -1;
    private long bytesRead;

    public LogTailer(Path path, boolean fromStart, int maxBytesPerPoll) {
        this.path = Objects.requireNonNull(path, "log file path");
        this.fromStart = fromStart;
        if (maxBytesPerPoll <= 0) {
            throw new IllegalArgumentException("maxBytesPerPoll must be > 0, was " + maxBytesPerPoll);
        }
        this.maxBytesPerPoll = maxBytesPerPoll;
    }

    public LogTailer(Path path, boolean fromStart) {
        this(path, fromStart, 4 * 1024 * 1024);
    }

    /**
     * The complete lines appended since the last poll, possibly none.
     *
     * @throws java.nio.file.NoSuchFileException when the file does not exist (now)
     * @throws IOException when it cannot be read
     */
    public List<String> poll() throws IOException {
        if (!Files.exists(path)) {
            if (position < 0) {
                position = 0;
            }
            throw new java.nio.file.NoSuchFileException(path.toString(), null, "log file does not exist");
        }
        BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class);
        long size = attrs.size();
        Object key = attrs.fileKey();
        if (position < 0) {
            position = fromStart ? 0 : size;
            fileKey = key;
        } else if ((fileKey != null && key != null && !fileKey.equals(key)) || size < position) {
            position = 0;
            partial.reset();
            fileKey = key;
        } else if (fileKey == null) {
            fileKey = key;
        }
        if (size == position) {
            return List.of();
        }
        int toRead = (int) Math.min(maxBytesPerPoll, size - position);
        ByteBuffer buf = ByteBuffer.allocate(toRead);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ch.position(position);
            while (buf.hasRemaining()) {
                if (ch.read(buf) < 0) {
                    break;
                }
            }
        }
        buf.flip();
        position += buf.remaining();
        bytesRead += buf.remaining();
        return split(buf);
    }

    private List<String> split(ByteBuffer buf) {
        List<String> lines = new ArrayList<>();
        byte[] bytes = new byte[buf.remaining()];
        buf.get(bytes);
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                partial.write(bytes, start, i - start);
                String line = partial.toString(StandardCharsets.UTF_8);
                partial.reset();
                lines.add(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
                start = i + 1;
            }
        }
        partial.write(bytes, start, bytes.length - start);
        return lines;
    }

    /** Bytes read so far. */
    public long bytesRead() {
        return bytesRead;
    }

    /** The file being tailed. */
    public Path path() {
        return path;
    }
}
