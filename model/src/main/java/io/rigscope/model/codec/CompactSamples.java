package io.rigscope.model.codec;

import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.ServerTiming;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * rigscope's compact binary form of a {@link SampleBatch} ({@link WireCodec.Format#COMPACT}): about 12 bytes a
 * sample instead of about 60 in Smile, decoded without a parser. Chosen by measurement
 * ({@code rigscope bench analyzer}); the {@code --out} wire file still shows batches as JSON.
 *
 * <p>Layout (all integers are unsigned LEB128 varints; "zigzag" marks signed ones):
 * <pre>
 * magic     'R' 'S' 'B' 0x01
 * run       length + UTF-8      rep  varint      src  length + UTF-8      ts  varint
 * scenarios count, then each as length + UTF-8 (first-appearance order)
 * n         samples, then n rows of:
 *   scenario index, t2 - previous t2 (zigzag; the first is relative to ts), t2 - t1, t1 - t0,
 *   status, error kind (ordinal of {@link ErrorKind}, declaration order), batch, qty (zigzag), bytes
 * </pre>
 * A batch where some sample carries a {@link ServerTiming} starts with {@code 'R' 'S' 'B' 0x02} instead and adds,
 * after the scenarios, a table of the timing names (count, then each as length + UTF-8, first-appearance order),
 * and at the end of each row the sample's timing: its metric count, then each metric as name index and µs. A batch
 * without timing is still written as version 1, byte for byte as before; the decoder reads both.
 * {@link ErrorKind} constants may only be appended, never reordered. Package-private: {@link WireCodec} is the API.
 */
final class CompactSamples {

    /** The first four bytes of every compact batch. */
    static final byte[] MAGIC = {'R', 'S', 'B', 1};
    /** The first four bytes of a compact batch with server timing. */
    static final byte[] MAGIC_TIMED = {'R', 'S', 'B', 2};
    private static final ErrorKind[] KINDS = ErrorKind.values();

    private CompactSamples() {
    }

    /** True when the value starts with the compact magic. */
    static boolean isCompact(byte[] value) {
        return value.length >= 4 && value[0] == MAGIC[0] && value[1] == MAGIC[1] && value[2] == MAGIC[2]
                && (value[3] == MAGIC[3] || value[3] == MAGIC_TIMED[3]);
    }

    static byte[] encode(SampleBatch batch) {
        boolean timed = false;
        for (Sample s : batch.samples()) {
            if (!s.serverTiming().isEmpty()) {
                timed = true;
                break;
            }
        }
        Out out = new Out(16 + batch.samples().size() * (timed ? 24 : 14));
        out.raw(timed ? MAGIC_TIMED : MAGIC);
        out.string(batch.run());
        out.varint(batch.rep());
        out.string(batch.src());
        out.varint(batch.ts());
        Map<String, Integer> index = new HashMap<>();
        List<String> names = new ArrayList<>();
        for (Sample s : batch.samples()) {
            if (!index.containsKey(s.scenario())) {
                index.put(s.scenario(), names.size());
                names.add(s.scenario());
            }
        }
        out.varint(names.size());
        names.forEach(out::string);
        Map<String, Integer> timingIndex = new HashMap<>();
        if (timed) {
            List<String> timingNames = new ArrayList<>();
            for (Sample s : batch.samples()) {
                ServerTiming t = s.serverTiming();
                for (int i = 0; i < t.size(); i++) {
                    if (timingIndex.putIfAbsent(t.name(i), timingNames.size()) == null) {
                        timingNames.add(t.name(i));
                    }
                }
            }
            out.varint(timingNames.size());
            timingNames.forEach(out::string);
        }
        out.varint(batch.samples().size());
        long previous = batch.ts();
        for (Sample s : batch.samples()) {
            out.varint(index.get(s.scenario()));
            out.zigzag(s.t2() - previous);
            previous = s.t2();
            out.varint(s.t2() - s.t1());
            out.varint(s.t1() - s.t0());
            out.varint(s.status());
            out.varint(s.err().ordinal());
            out.varint(s.batch());
            out.zigzag(s.qty());
            out.varint(s.bytes());
            if (timed) {
                ServerTiming t = s.serverTiming();
                out.varint(t.size());
                for (int i = 0; i < t.size(); i++) {
                    out.varint(timingIndex.get(t.name(i)));
                    out.varint(t.durUs(i));
                }
            }
        }
        return out.toByteArray();
    }

    /**
     * Decodes a compact batch.
     *
     * @throws IllegalArgumentException when the bytes are truncated or describe an invalid batch
     */
    static SampleBatch decode(byte[] value) {
        boolean timed = value[3] == MAGIC_TIMED[3];
        In in = new In(value, MAGIC.length);
        String run = in.string();
        int rep = (int) in.varint();
        String src = in.string();
        long ts = in.varint();
        int scenarioCount = in.count();
        String[] scenarios = new String[scenarioCount];
        for (int i = 0; i < scenarioCount; i++) {
            scenarios[i] = in.string();
        }
        String[] timingNames = new String[0];
        if (timed) {
            timingNames = new String[in.count()];
            for (int i = 0; i < timingNames.length; i++) {
                timingNames[i] = in.string();
            }
        }
        int n = in.count();
        List<Sample> samples = new ArrayList<>(n);
        long previous = ts;
        for (int i = 0; i < n; i++) {
            int scenario = (int) in.varint();
            if (scenario >= scenarioCount) {
                throw new IllegalArgumentException("sample " + i + " names scenario #" + scenario + " of "
                        + scenarioCount);
            }
            long t2 = previous + in.zigzag();
            previous = t2;
            long t1 = t2 - in.varint();
            long t0 = t1 - in.varint();
            int status = (int) in.varint();
            long kind = in.varint();
            if (kind >= KINDS.length) {
                throw new IllegalArgumentException("sample " + i + " has unknown error kind #" + kind);
            }
            int batchSize = (int) in.varint();
            long qty = in.zigzag();
            long bytes = in.varint();
            ServerTiming timing = ServerTiming.NONE;
            if (timed) {
                int k = in.count();
                if (k > 0) {
                    String[] names = new String[k];
                    long[] durUs = new long[k];
                    for (int j = 0; j < k; j++) {
                        long name = in.varint();
                        if (name >= timingNames.length) {
                            throw new IllegalArgumentException("sample " + i + " names timing #" + name + " of "
                                    + timingNames.length);
                        }
                        names[j] = timingNames[(int) name];
                        durUs[j] = in.varint();
                    }
                    timing = ServerTiming.of(names, durUs);
                }
            }
            samples.add(new Sample(scenarios[scenario], t0, t1, t2, status, KINDS[(int) kind], batchSize, qty, bytes,
                    timing));
        }
        if (in.pos != value.length) {
            throw new IllegalArgumentException((value.length - in.pos) + " trailing bytes after " + n + " samples");
        }
        return new SampleBatch(run, rep, src, ts, samples);
    }

    /** A growable byte buffer with varint writers. */
    private static final class Out extends ByteArrayOutputStream {
        Out(int size) {
            super(size);
        }

        void raw(byte[] b) {
            write(b, 0, b.length);
        }

        void varint(long v) {
            if (v < 0) {
                throw new IllegalArgumentException("negative value " + v + " where an unsigned one is expected");
            }
            while ((v & ~0x7FL) != 0) {
                write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            write((int) v);
        }

        void zigzag(long v) {
            long z = (v << 1) ^ (v >> 63);
            while ((z & ~0x7FL) != 0) {
                write((int) ((z & 0x7F) | 0x80));
                z >>>= 7;
            }
            write((int) z);
        }

        void string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            varint(b.length);
            raw(b);
        }
    }

    /** A reader over the bytes; out-of-range reads throw. */
    private static final class In {
        private final byte[] b;
        private int pos;

        In(byte[] b, int pos) {
            this.b = b;
            this.pos = pos;
        }

        long varint() {
            long result = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= b.length) {
                    throw new IllegalArgumentException("truncated compact sample batch at byte " + pos);
                }
                byte x = b[pos++];
                result |= (long) (x & 0x7F) << shift;
                if (x >= 0) {
                    return result;
                }
            }
            throw new IllegalArgumentException("malformed varint at byte " + pos);
        }

        long zigzag() {
            long z = varint();
            return (z >>> 1) ^ -(z & 1);
        }

        int count() {
            long n = varint();
            if (n > b.length - pos) {
                throw new IllegalArgumentException("count " + n + " exceeds the " + (b.length - pos) + " bytes left");
            }
            return (int) n;
        }

        String string() {
            int length = count();
            String s = new String(b, pos, length, StandardCharsets.UTF_8);
            pos += length;
            return s;
        }
    }
}
