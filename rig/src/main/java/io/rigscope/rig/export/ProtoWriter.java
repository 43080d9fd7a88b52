package io.rigscope.rig.export;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The few protobuf wire-format encodings remote write needs (varint, zigzag, 64-bit, length-delimited, packed
 * repeated), from the protobuf encoding specification. Not thread-safe; one writer per message.
 */
final class ProtoWriter {

    private static final int VARINT = 0;
    private static final int FIXED64 = 1;
    private static final int LENGTH_DELIMITED = 2;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);

    byte[] toByteArray() {
        return out.toByteArray();
    }

    int size() {
        return out.size();
    }

    ProtoWriter uint64(int field, long value) {
        tag(field, VARINT);
        varint(value);
        return this;
    }

    ProtoWriter int64(int field, long value) {
        return uint64(field, value);
    }

    ProtoWriter sint32(int field, int value) {
        tag(field, VARINT);
        varint(zigzag(value));
        return this;
    }

    ProtoWriter doubleField(int field, double value) {
        tag(field, FIXED64);
        long bits = Double.doubleToRawLongBits(value);
        for (int i = 0; i < 8; i++) {
            out.write((int) (bits >>> (8 * i)) & 0xff);
        }
        return this;
    }

    ProtoWriter string(int field, String value) {
        return bytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    ProtoWriter message(int field, ProtoWriter nested) {
        return bytes(field, nested.toByteArray());
    }

    /** A packed repeated {@code sint64}: one length-delimited field of zigzag varints. */
    ProtoWriter packedSint64(int field, long[] values) {
        ProtoWriter packed = new ProtoWriter();
        for (long v : values) {
            packed.varint(zigzag(v));
        }
        return bytes(field, packed.toByteArray());
    }

    private ProtoWriter bytes(int field, byte[] value) {
        tag(field, LENGTH_DELIMITED);
        varint(value.length);
        out.writeBytes(value);
        return this;
    }

    private void tag(int field, int wireType) {
        varint(((long) field << 3) | wireType);
    }

    private void varint(long value) {
        long v = value;
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }
}
