package io.rigscope.wire;

import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.codec.WireLine;
import io.rigscope.model.wire.WireRecord;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes a wire file ({@code --out FILE.jsonl}): one {@link WireLine} per line, values always as JSON.
 * Thread-safe: lines from several threads never interleave.
 */
public final class WireFileWriter implements AutoCloseable {

    private final Path path;
    private final WireCodec codec;
    private final BufferedWriter out;
    private long lines;

    public WireFileWriter(Path path, WireCodec codec) {
        this.path = path;
        this.codec = codec;
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            this.out = Files.newBufferedWriter(path, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write wire file " + path + ": " + e.getMessage(), e);
        }
    }

    /** Appends one record. */
    public synchronized void write(WireRecord record) {
        try {
            out.write(WireLine.of(codec, record).render(codec));
            out.write('\n');
            lines++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write wire file " + path, e);
        }
    }

    /** Lines written so far. */
    public synchronized long lines() {
        return lines;
    }

    public synchronized void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot flush wire file " + path, e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close wire file " + path, e);
        }
    }
}
