package io.rigscope.generator.outbox;

import io.rigscope.generator.RecordSink;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The generator's write-ahead journal of samples: every {@link SampleBatch} is appended here before it is handed to
 * the sink (and so before the Kafka send), and the broker's acknowledgements are counted in the file's header, so a
 * generator killed mid-run (SIGKILL, OOM) leaves on disk the samples that never reached the broker, and
 * {@link #recover} publishes them later ({@code rigscope generate --recover DIR}, or the next {@code generate} with
 * the same {@code --src}).
 *
 * <p>File {@code rigscope-journal-<src>@<nonce>.bin}: a 12-byte header ({@code "RSJ1"}, then the count of entries
 * acknowledged, a long), then one entry per batch: its length (int) and its bytes in the compact sample-batch form (as
 * {@code rig.samples} carries them by default). Acknowledgements
 * of one series arrive in publishing order (one key, one partition), so the first {@code acknowledged} entries are
 * on the broker and the rest may not be. Writes go to the page cache without fsync: they survive the process being
 * killed, not the machine losing power. The file is locked while its generator runs, starts again from its header
 * whenever it has grown past 16 MiB with every entry acknowledged (about 1.4 million samples at ~12 bytes each), and
 * is deleted when its run ends with every entry acknowledged.
 *
 * <p>What recovery may publish twice: an entry the broker acknowledged in the instant before the kill, before its
 * acknowledgement reached the header (at most the batches in flight then; the analyzer counts such a duplicate).
 *
 * <p>Thread-safety: {@link #append} from the one producer of samples (the batcher), {@link #acknowledged} from the
 * sink's callback thread; both guard the file.
 */
public final class SampleJournal implements AutoCloseable {

    static final String PREFIX = "rigscope-journal-";
    private static final int MAGIC = 0x52534a31; // "RSJ1"
    private static final int HEADER_BYTES = 12;
    /** Once the file is this large and every entry is acknowledged, it starts again from its header. */
    static final long COMPACT_AT_BYTES = 16L * 1024 * 1024;

    private final Path path;
    private final FileChannel channel;
    private final FileLock lock;
    private final WireCodec codec;
    private final ByteBuffer header = ByteBuffer.allocate(8);
    private long writePosition = HEADER_BYTES;
    private long written;
    private long acknowledged;
    private boolean failed;

    private SampleJournal(Path path, FileChannel channel, FileLock lock, WireCodec codec) {
        this.path = path;
        this.channel = channel;
        this.lock = lock;
        this.codec = codec;
    }

    /** A new journal for generator {@code src} in {@code dir} (created). */
    public static SampleJournal create(Path dir, String src, WireCodec codec) {
        Objects.requireNonNull(codec, "codec");
        String nonce = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffffL);
        Path path = dir.resolve(PREFIX + safe(src) + "@" + nonce + ".bin");
        try {
            Files.createDirectories(dir);
            FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES).putInt(MAGIC).putLong(0);
            h.flip();
            channel.write(h, 0);
            return new SampleJournal(path, channel, lock, codec);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the generator's sample journal " + path, e);
        }
    }

    /** The journal's file. */
    public Path path() {
        return path;
    }

    /** Appends a batch; returns at once (page cache). Called before the batch is handed to the sink. */
    synchronized void append(SampleBatch batch) {
        byte[] bytes = codec.encode(batch, WireCodec.Format.COMPACT); // as on rig.samples: the cheapest to write
        ByteBuffer buf = ByteBuffer.allocate(4 + bytes.length);
        buf.putInt(bytes.length).put(bytes).flip();
        try {
            while (buf.hasRemaining()) {
                writePosition += channel.write(buf, writePosition);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the generator's sample journal " + path, e);
        }
        written++;
    }

    /** The sink's word on the next journalled batch, in order: null when the broker acknowledged it. */
    synchronized void acknowledged(Exception failure) {
        if (failure != null) {
            failed = true; // the header stays at the last contiguous acknowledgement: recovery resends from there
            return;
        }
        if (failed) {
            return;
        }
        acknowledged++;
        header.clear();
        try {
            if (acknowledged == written && writePosition > COMPACT_AT_BYTES) {
                // everything so far is on the broker: start the file again, so a long run's journal stays small
                channel.truncate(HEADER_BYTES);
                writePosition = HEADER_BYTES;
                written = 0;
                acknowledged = 0;
            }
            header.putLong(acknowledged).flip();
            channel.write(header, 4);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark an acknowledgement in the sample journal " + path, e);
        }
    }

    /** Batches journalled since the file last started again. */
    public synchronized long written() {
        return written;
    }

    /** Batches the broker acknowledged, in order, with no failure before them. */
    public synchronized long acknowledgedCount() {
        return acknowledged;
    }

    /** Closes the file; deletes it when every batch was acknowledged, else leaves it for {@link #recover}. */
    @Override
    public synchronized void close() {
        try {
            if (lock != null) {
                lock.release();
            }
            channel.close();
            if (!failed && acknowledged == written) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the sample journal " + path, e);
        }
    }

    /**
     * What one journal held and what was published from it.
     *
     * @param file the journal
     * @param entries batches in it
     * @param acknowledged batches its header says the broker acknowledged (not published again)
     * @param published batches published now
     * @param samples samples in those batches
     * @param truncatedTail true when its last entry was cut short (the kill came mid-write): it is left out
     */
    public record Recovered(Path file, long entries, long acknowledged, long published, long samples,
                            boolean truncatedTail) {
    }

    /**
     * Publishes the unacknowledged batches of every journal in {@code dir} (of generator {@code src} only, when not
     * null) to {@code sink}, flushes it, and deletes each journal once its batches are handed on. A journal still
     * locked by a running generator is left alone. Blocking.
     */
    public static List<Recovered> recover(Path dir, String src, RecordSink sink, WireCodec codec) {
        List<Recovered> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        String glob = PREFIX + (src == null ? "*" : safe(src) + "@*") + ".bin";
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, glob)) {
            stream.forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list sample journals in " + dir, e);
        }
        files.sort(null);
        for (Path f : files) {
            try (FileChannel channel = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                FileLock lock;
                try {
                    lock = channel.tryLock();
                } catch (OverlappingFileLockException e) {
                    lock = null;
                }
                if (lock == null) {
                    continue; // its generator still runs
                }
                Recovered r = replay(f, channel, sink, codec);
                sink.flush();
                lock.release();
                out.add(r);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot recover the sample journal " + f, e);
            }
            try {
                Files.deleteIfExists(f);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete the recovered sample journal " + f, e);
            }
        }
        return out;
    }

    private static Recovered replay(Path f, FileChannel channel, RecordSink sink, WireCodec codec)
            throws IOException {
        long size = channel.size();
        ByteBuffer head = ByteBuffer.allocate(HEADER_BYTES);
        if (size < HEADER_BYTES || !readFully(channel, head, 0) || head.flip().getInt() != MAGIC) {
            throw new IllegalStateException(f + " is not a rigscope sample journal");
        }
        long acked = head.getLong();
        long position = HEADER_BYTES;
        long entries = 0;
        long published = 0;
        long samples = 0;
        boolean truncated = false;
        ByteBuffer len = ByteBuffer.allocate(4);
        while (position < size) {
            len.clear();
            if (size - position < 4 || !readFully(channel, len, position)) {
                truncated = true;
                break;
            }
            int n = len.flip().getInt();
            if (n <= 0 || position + 4 + n > size) {
                truncated = true;
                break;
            }
            ByteBuffer body = ByteBuffer.allocate(n);
            readFully(channel, body, position + 4);
            position += 4 + n;
            entries++;
            if (entries <= acked) {
                continue;
            }
            Decoded d = codec.decode(Topic.SAMPLES, null, body.array(), "journal " + f);
            if (!(d instanceof Decoded.Ok ok)) {
                throw new IllegalStateException(f + " holds an entry it cannot read back: "
                        + ((Decoded.Failed) d).deadLetter().reason());
            }
            WireRecord record = ok.record();
            sink.publish(record);
            published++;
            samples += record instanceof SampleBatch b ? b.samples().size() : 0;
        }
        return new Recovered(f, entries, Math.min(acked, entries), published, samples, truncated);
    }

    private static boolean readFully(FileChannel channel, ByteBuffer buf, long position) throws IOException {
        long at = position;
        while (buf.hasRemaining()) {
            int n = channel.read(buf, at);
            if (n < 0) {
                return false;
            }
            at += n;
        }
        return true;
    }

    private static String safe(String src) {
        return src.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
