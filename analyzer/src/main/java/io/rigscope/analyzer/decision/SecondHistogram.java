package io.rigscope.analyzer.decision;

import io.rigscope.model.wire.LatencySettings;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The service-time histogram of one closed second, exactly as the analyzer recorded it ({@link LatencySettings}' shape, the engine's {@code second.Latency}:
 * µs, 1 µs to 1 hour, 3 significant digits), kept as HdrHistogram's compressed bytes. It is the histogram the
 * second's figures ({@link SecondStats}) and its repeat's figures were taken from: views that need the
 * distribution itself (the {@code --hlog} interval logs) read it here, never from a histogram of their own.
 *
 * <p>Immutable: the bytes are copied in and {@link #decode} returns a fresh histogram each time.
 */
public final class SecondHistogram {

    private final byte[] compressed;

    /** The second's histogram from its compressed bytes (HdrHistogram's own encoding); the bytes are copied. */
    public SecondHistogram(byte[] compressed) {
        this.compressed = Objects.requireNonNull(compressed, "compressed").clone();
    }

    /** A new histogram holding the second's service times, µs. The caller owns it. */
    public Histogram decode() {
        return decompress(compressed);
    }

    /** A histogram back from HdrHistogram's compressed bytes, in the latency shape. */
    public static Histogram decompress(byte[] bytes) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), LatencySettings.HIGHEST_US);
        } catch (DataFormatException e) {
            throw new IllegalStateException("a second's histogram bytes are corrupt", e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SecondHistogram other && Arrays.equals(compressed, other.compressed);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(compressed);
    }

    @Override
    public String toString() {
        return "SecondHistogram[" + compressed.length + " bytes]";
    }
}
