package io.rigscope.generator.outbox;

import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WirePublisher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * The write-ahead journal of records not yet on the broker: every record is appended here before it is sent, and the
 * broker's acknowledgements are counted in the file's header, so a command whose broker went away past the limit, or
 * that was killed (SIGKILL, OOM), leaves on disk the records that never reached the broker, and {@link #recover}
 * publishes them later ({@code rigscope recover}, the next {@code run}, {@code demo}, {@code collect} or
 * {@code analyze} on the same data directory, {@code rigscope generate --recover DIR}, or the next {@code generate}
 * with the same {@code --src}). The generator appends its sample batches ({@link Outbox}); {@code collect} and the
 * analyzer append whatever their {@link WirePublisher} sends (it is a {@link WirePublisher.Journal}).
 *
 * <p>File {@code rigscope-journal-<name>@<nonce>.bin} ({@code <name>}: the generator's src, {@code collect-<series>},
 * {@code analyze-<series>}): a 12-byte header ({@code "RSJ2"}, then the count of entries acknowledged, a long), then
 * one entry per record: its length (int) and its body: the topic (a short length and UTF-8), the key (an int length,
 * -1 for none, and UTF-8) and the value's bytes as sent (samples in the compact form {@code rig.samples} carries by
 * default). A file of the older form {@code "RSJ1"} (entries: a compact sample batch each) is read too. The header
 * counts the longest run of entries from the first that the broker acknowledged, whatever order the acknowledgements
 * came in (records of several topics); an entry that failed ends the run for good. Writes go to the page cache
 * without fsync: they survive the process being killed, not the machine losing power. The file is locked while its
 * command runs, starts again from its header whenever it has grown past 16 MiB with every entry acknowledged (about
 * 1.4 million samples at ~12 bytes each), and is deleted when its command ends with every entry acknowledged.
 *
 * <p>What recovery may publish twice: an entry the broker acknowledged in the instant before the kill, before its
 * acknowledgement reached the header, and an entry acknowledged after an earlier one failed (at most the records in
 * flight then; the analyzer counts a duplicate sample).
 *
 * <p>Thread-safety: {@link #append} from the publishing thread (under the publisher's lock), the acknowledgements from
 * the producer's I/O thread; every method guards the file.
 */
public final class SampleJournal implements AutoCloseable, WirePublisher.Journal {

    static final String PREFIX = "rigscope-journal-";
    private static final int MAGIC_SAMPLES = 0x52534a31; // "RSJ1": compact sample batches only
    private static final int MAGIC = 0x52534a32; // "RSJ2": topic, key, value
    private static final int HEADER_BYTES = 12;
    /** Once the file is this large and every entry is acknowledged, it starts again from its header. */
    static final long COMPACT_AT_BYTES = 16L * 1024 * 1024;

    private final Path path;
    private final FileChannel channel;
    private final FileLock lock;
    private final WireCodec codec;
    private final ByteBuffer header = ByteBuffer.allocate(8);
    private long writePosition = HEADER_BYTES;
    /** Sequence number of the file's first entry (it grows across restarts of the file). */
    private long base;
    /** Sequence number of the next entry appended. */
    private long next;
    /** Every entry before this one is acknowledged. */
    private long prefix;
    /** The first entry that failed; none: Long.MAX_VALUE. */
    private long firstFailure = Long.MAX_VALUE;
    /** Entries past {@link #prefix} already acknowledged (bit {@code seq - base}). */
    private final BitSet ackedAhead = new BitSet();
    /** The next entry {@link #acknowledged(Exception)} speaks of. */
    private long nextInOrder;

    private SampleJournal(Path path, FileChannel channel, FileLock lock, WireCodec codec) {
        this.path = path;
        this.channel = channel;
        this.lock = lock;
        this.codec = codec;
    }

    /** A new journal named {@code name} (the generator's src, {@code collect-<series>}...) in {@code dir} (created). */
    public static SampleJournal create(Path dir, String name, WireCodec codec) {
        Objects.requireNonNull(codec, "codec");
        String nonce = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffffL);
        Path path = dir.resolve(PREFIX + safe(name) + "@" + nonce + ".bin");
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
            throw new UncheckedIOException("cannot create the write-ahead journal " + path, e);
        }
    }

    /** The journal's file. */
    public Path path() {
        return path;
    }

    /** Appends a batch; returns at once (page cache). Called before the batch is handed to the sink. */
    void append(SampleBatch batch) {
        // as on rig.samples: the cheapest to write
        append(Topic.SAMPLES.topicName(), batch.run(), codec.encode(batch, WireCodec.Format.COMPACT));
    }

    /** Appends one record as it is about to be sent; returns its sequence number. Returns at once (page cache). */
    @Override
    public synchronized long append(String topic, String key, byte[] value) {
        byte[] t = topic.getBytes(StandardCharsets.UTF_8);
        byte[] k = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
        int n = 2 + t.length + 4 + (k == null ? 0 : k.length) + value.length;
        ByteBuffer buf = ByteBuffer.allocate(4 + n);
        buf.putInt(n).putShort((short) t.length).put(t).putInt(k == null ? -1 : k.length);
        if (k != null) {
            buf.put(k);
        }
        buf.put(value).flip();
        try {
            while (buf.hasRemaining()) {
                writePosition += channel.write(buf, writePosition);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the write-ahead journal " + path, e);
        }
        return next++;
    }

    /** The sink's word on the next journalled batch, in order: null when the broker acknowledged it. */
    void acknowledged(Exception failure) {
        long seq;
        synchronized (this) {
            seq = nextInOrder++;
        }
        acknowledged(seq, failure);
    }

    /** The send of entry {@code seq}: {@code failure} null once the broker acknowledged it. Any order. */
    @Override
    public synchronized void acknowledged(long seq, Exception failure) {
        if (failure != null) {
            // the header stays at the last contiguous acknowledgement: recovery resends from there
            firstFailure = Math.min(firstFailure, seq);
            return;
        }
        if (seq < prefix || seq >= firstFailure) {
            return;
        }
        if (seq != prefix) {
            ackedAhead.set((int) (seq - base));
            return;
        }
        prefix++;
        while (prefix < firstFailure && ackedAhead.get((int) (prefix - base))) {
            ackedAhead.clear((int) (prefix - base));
            prefix++;
        }
        header.clear();
        try {
            if (prefix == next && writePosition > COMPACT_AT_BYTES) {
                // everything so far is on the broker: start the file again, so a long run's journal stays small
                channel.truncate(HEADER_BYTES);
                writePosition = HEADER_BYTES;
                base = next;
                ackedAhead.clear();
            }
            header.putLong(prefix - base).flip();
            channel.write(header, 4);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark an acknowledgement in the write-ahead journal " + path, e);
        }
    }

    /** Records journalled since the file last started again. */
    public synchronized long written() {
        return next - base;
    }

    /** Records the broker acknowledged, from the file's first, with no failure before them. */
    public synchronized long acknowledgedCount() {
        return prefix - base;
    }

    /** Records in the file not (yet) known to be on the broker: what {@link #recover} would publish. */
    public synchronized long unacknowledged() {
        return next - prefix;
    }

    /** Closes the file; deletes it when every record was acknowledged, else leaves it for {@link #recover}. */
    @Override
    public synchronized void close() {
        try {
            if (lock != null) {
                lock.release();
            }
            channel.close();
            if (prefix == next) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the write-ahead journal " + path, e);
        }
    }

    /** Where {@link #recover} publishes: each entry's topic, key and value bytes, its outcome to {@code done}. */
    public interface Destination {
        /** Sends one entry; {@code done} gets null once the broker acknowledged it, else the failure. */
        void send(String topic, String key, byte[] value, Consumer<Exception> done);

        /** Waits until every entry sent has been acknowledged or has failed. */
        default void flush() {
        }

        /** A publisher's raw sends ({@link WirePublisher#publishRaw(String, String, byte[], Consumer)}). */
        static Destination of(WirePublisher publisher) {
            return new Destination() {
                @Override
                public void send(String topic, String key, byte[] value, Consumer<Exception> done) {
                    publisher.publishRaw(topic, key, value, done);
                }

                @Override
                public void flush() {
                    publisher.flush();
                }
            };
        }
    }

    /**
     * What one journal held and what became of it.
     *
     * @param file the journal
     * @param entries records in it
     * @param acknowledged records its header said the broker acknowledged (not published again)
     * @param published records published now, each acknowledged by the broker
     * @param samples samples in those records
     * @param truncatedTail true when its last entry was cut short (the kill came mid-write): it is left out
     * @param failed records still not on the broker: 0, and the file is deleted; else it is kept with its header at
     *               the last record acknowledged in order, for the next recovery
     * @param error the first failure when {@code failed > 0}, else null
     */
    public record Recovered(Path file, long entries, long acknowledged, long published, long samples,
                            boolean truncatedTail, long failed, String error) {
        /** True when every record is on the broker and the file was deleted. */
        public boolean complete() {
            return failed == 0;
        }
    }

    /**
     * Publishes the unacknowledged records of every journal in {@code dir} (those named {@code name} only, when not
     * null) to {@code destination}, in order, flushes it, and deletes each journal only once the broker acknowledged
     * every record in it. A journal some record of which failed (or was not sent: sending stops at a failure known
     * at once) is kept, its header moved past the records acknowledged in order. A journal still locked by a running
     * command is left alone. Blocking.
     */
    public static List<Recovered> recover(Path dir, String name, Destination destination, WireCodec codec) {
        List<Recovered> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        String glob = PREFIX + (name == null ? "*" : safe(name) + "@*") + ".bin";
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, glob)) {
            stream.forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list write-ahead journals in " + dir, e);
        }
        files.sort(null);
        for (Path f : files) {
            Recovered r;
            try (FileChannel channel = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                FileLock lock;
                try {
                    lock = channel.tryLock();
                } catch (OverlappingFileLockException e) {
                    lock = null;
                }
                if (lock == null) {
                    continue; // its command still runs
                }
                r = replay(f, channel, destination, codec);
                lock.release();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot recover the write-ahead journal " + f, e);
            }
            out.add(r);
            if (r.complete()) {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot delete the recovered journal " + f, e);
                }
            }
        }
        return out;
    }

    /** One entry read back. */
    private record Entry(String topic, String key, byte[] value, int samples) {
    }

    /** The outcome of each send of one replay, by entry index; written on the producer's I/O thread. */
    private static final class Outcomes {
        private final BitSet acked = new BitSet();
        private Exception firstError;

        synchronized void done(int index, Exception failure) {
            if (failure == null) {
                acked.set(index);
            } else if (firstError == null) {
                firstError = failure;
            }
        }

        synchronized boolean failed() {
            return firstError != null;
        }

        synchronized int ackedFrom(int from) {
            return acked.nextClearBit(from) - from;
        }

        synchronized int ackedCount() {
            return acked.cardinality();
        }
    }

    private static Recovered replay(Path f, FileChannel channel, Destination destination, WireCodec codec)
            throws IOException {
        long size = channel.size();
        ByteBuffer head = ByteBuffer.allocate(HEADER_BYTES);
        int magic = size < HEADER_BYTES || !readFully(channel, head, 0) ? 0 : head.flip().getInt();
        if (magic != MAGIC && magic != MAGIC_SAMPLES) {
            throw new IllegalStateException(f + " is not a rigscope write-ahead journal");
        }
        long acked = head.getLong();
        long position = HEADER_BYTES;
        boolean truncated = false;
        List<Entry> entries = new ArrayList<>();
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
            // entries already on the broker are only counted
            entries.add(entries.size() < acked ? null : entry(f, body.flip(), magic, codec));
        }
        int from = (int) Math.min(acked, entries.size());
        Outcomes outcomes = new Outcomes();
        Exception refused = null;
        for (int i = from; i < entries.size() && !outcomes.failed(); i++) {
            Entry e = entries.get(i);
            int index = i;
            try {
                destination.send(e.topic(), e.key(), e.value(), failure -> outcomes.done(index, failure));
            } catch (RuntimeException ex) {
                refused = ex;
                break;
            }
        }
        destination.flush();
        int inOrder = outcomes.ackedFrom(from);
        long samples = 0;
        for (int i = from; i < from + inOrder; i++) {
            samples += entries.get(i).samples();
        }
        long failed = entries.size() - from - inOrder;
        Exception error = outcomes.firstError != null ? outcomes.firstError : refused;
        if (failed > 0) {
            // keep it, past what is on the broker now: the next recovery resends only the rest
            ByteBuffer h = ByteBuffer.allocate(8).putLong(from + inOrder);
            channel.write(h.flip(), 4);
        }
        return new Recovered(f, entries.size(), from, inOrder, samples, truncated, failed,
                failed == 0 ? null : error == null ? "not acknowledged" : oneLine(error));
    }

    private static Entry entry(Path f, ByteBuffer body, int magic, WireCodec codec) {
        String topic;
        String key;
        byte[] value;
        if (magic == MAGIC_SAMPLES) {
            topic = Topic.SAMPLES.topicName();
            value = new byte[body.remaining()];
            body.get(value);
            key = null;
        } else {
            byte[] t = new byte[body.getShort()];
            body.get(t);
            topic = new String(t, StandardCharsets.UTF_8);
            int kl = body.getInt();
            if (kl >= 0) {
                byte[] k = new byte[kl];
                body.get(k);
                key = new String(k, StandardCharsets.UTF_8);
            } else {
                key = null;
            }
            value = new byte[body.remaining()];
            body.get(value);
        }
        int samples = 0;
        if (topic.equals(Topic.SAMPLES.topicName())) {
            Decoded d = codec.decode(Topic.SAMPLES, key, value, "journal " + f);
            if (!(d instanceof Decoded.Ok ok)) {
                throw new IllegalStateException(f + " holds an entry it cannot read back: "
                        + ((Decoded.Failed) d).deadLetter().reason());
            }
            WireRecord record = ok.record();
            key = key == null ? record.run() : key;
            samples = record instanceof SampleBatch b ? b.samples().size() : 0;
        }
        return new Entry(topic, key, value, samples);
    }

    private static String oneLine(Exception e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = e.getClass().getSimpleName() + ": " + e.getMessage();
        return root == e ? m : m + "; cause: " + root.getClass().getSimpleName() + ": " + root.getMessage();
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
