package io.rigscope.importers.k6.follow;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A plain file followed as {@code tail -F} follows it, line by line, while another program writes it:
 * <ul>
 *   <li>waits for the file to appear;</li>
 *   <li>reads what is appended; a last line without its newline waits for it (it is still being written);</li>
 *   <li>a file truncated below what was read (k6 run again with the same {@code --out json=FILE}) is read again
 *       from its start;</li>
 *   <li>a file replaced under the same name (rotated: moved away, a new one created) is read to its end, then
 *       the new file from its start.</li>
 * </ul>
 * Each of these is told to {@code notes} in one sentence. Not thread-safe: one reader.
 */
public final class FollowedFile implements K6LineSource {

    /** Bytes read per poll at most, so the reader publishes while a large file is caught up. */
    private static final int MAX_BYTES_PER_POLL = 4 << 20;

    private final Path path;
    private final Consumer<String> notes;
    private final ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private FileChannel channel;
    private Object fileKey;
    private long position;
    private boolean waitingTold;

    /**
     * @param path the file k6 writes ({@code k6 run --out json=FILE})
     * @param notes receives one sentence per event worth telling (waiting, truncated, replaced)
     */
    public FollowedFile(Path path, Consumer<String> notes) {
        this.path = Objects.requireNonNull(path, "path");
        this.notes = Objects.requireNonNull(notes, "notes");
    }

    @Override
    public String name() {
        return path.toString();
    }

    @Override
    public List<String> poll(Duration wait) throws IOException {
        if (channel == null && !open()) {
            sleep(wait);
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        readAppended(lines);
        if (!lines.isEmpty()) {
            return lines;
        }
        BasicFileAttributes now = attributes();
        if (now != null && !Objects.equals(now.fileKey(), fileKey)) {
            endOfOldFile(lines);
            notes.accept(path + " was replaced: reading the new file from its start");
            channel.close();
            channel = null;
            open();
        } else if (now != null && now.size() < position) {
            endOfOldFile(lines);
            notes.accept(path + " was truncated (" + now.size() + " bytes, " + position + " read): reading it again "
                    + "from its start");
            position = 0;
        } else {
            sleep(wait);
        }
        return lines;
    }

    @Override
    public String remainder() {
        return partial.size() == 0 ? null : text(partial.toByteArray(), 0, partial.size());
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    /** Opens the file when it exists; true when open. */
    private boolean open() throws IOException {
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            if (!waitingTold) {
                notes.accept("waiting for " + path + " to appear");
                waitingTold = true;
            }
            return false;
        }
        fileKey = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        position = 0;
        partial.reset();
        notes.accept("following " + path);
        return true;
    }

    private void readAppended(List<String> lines) throws IOException {
        long read = 0;
        while (read < MAX_BYTES_PER_POLL) {
            buffer.clear();
            int n = channel.read(buffer, position);
            if (n <= 0) {
                return;
            }
            position += n;
            read += n;
            byte[] bytes = buffer.array();
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (bytes[i] == '\n') {
                    partial.write(bytes, start, i - start);
                    byte[] line = partial.toByteArray();
                    int length = line.length > 0 && line[line.length - 1] == '\r' ? line.length - 1 : line.length;
                    lines.add(text(line, 0, length));
                    partial.reset();
                    start = i + 1;
                }
            }
            partial.write(bytes, start, n - start);
        }
    }

    /** The old content's last line, when it had no newline, ends with it: it becomes a line of its own. */
    private void endOfOldFile(List<String> lines) {
        if (partial.size() > 0) {
            lines.add(remainder());
            partial.reset();
        }
    }

    private BasicFileAttributes attributes() throws IOException {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return null; // moved away, the new one not created yet: keep reading the old
        }
    }

    private static String text(byte[] bytes, int from, int length) {
        return new String(bytes, from, length, StandardCharsets.UTF_8);
    }

    private static void sleep(Duration wait) throws IOException {
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while following a file");
        }
    }
}
