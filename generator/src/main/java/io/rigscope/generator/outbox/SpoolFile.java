package io.rigscope.generator.outbox;

import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * An append-only file of wire records: {@code [topic ordinal:int][length:int][JSON bytes]} each. Read from the
 * front, truncated when fully read. Not thread-safe: {@link Outbox} guards it with its lock.
 */
final class SpoolFile implements AutoCloseable {

    private final Path path;
    private final FileChannel channel;
    private final WireCodec codec;
    private long readPosition;
    private long writePosition;
    private long pending;

    SpoolFile(Path path, WireCodec codec) {
        this.path = path;
        this.codec = codec;
        try {
            Files.createDirectories(path.getParent());
            this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the generator's spool file " + path, e);
        }
    }

    void append(WireRecord record) {
        byte[] json = codec.encode(record);
        ByteBuffer buf = ByteBuffer.allocate(8 + json.length);
        buf.putInt(record.topic().ordinal()).putInt(json.length).put(json).flip();
        try {
            while (buf.hasRemaining()) {
                writePosition += channel.write(buf, writePosition);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the generator's spool file " + path, e);
        }
        pending++;
    }

    /** Up to {@code max} records from the front; truncates the file once everything has been read. */
    List<WireRecord> take(int max) {
        List<WireRecord> out = new ArrayList<>();
        try {
            ByteBuffer head = ByteBuffer.allocate(8);
            while (out.size() < max && pending > 0) {
                head.clear();
                readFully(head, readPosition);
                head.flip();
                Topic topic = Topic.values()[head.getInt()];
                ByteBuffer body = ByteBuffer.allocate(head.getInt());
                readFully(body, readPosition + 8);
                readPosition += 8 + body.capacity();
                pending--;
                Decoded d = codec.decode(topic, null, body.array(), "spool " + path);
                if (!(d instanceof Decoded.Ok ok)) {
                    throw new IllegalStateException("the spool file " + path + " holds a record it cannot read back: "
                            + ((Decoded.Failed) d).deadLetter().reason());
                }
                out.add(ok.record());
            }
            if (pending == 0) {
                channel.truncate(0);
                readPosition = 0;
                writePosition = 0;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the generator's spool file " + path, e);
        }
        return out;
    }

    private void readFully(ByteBuffer buf, long position) throws IOException {
        long at = position;
        while (buf.hasRemaining()) {
            int n = channel.read(buf, at);
            if (n < 0) {
                throw new IOException("unexpected end of spool file at " + at);
            }
            at += n;
        }
    }

    long pending() {
        return pending;
    }

    @Override
    public void close() {
        try {
            channel.close();
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the generator's spool file " + path, e);
        }
    }
}
