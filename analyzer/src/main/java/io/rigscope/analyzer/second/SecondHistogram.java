package io.rigscope.analyzer.second;

import java.util.Arrays;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * The service-time histogram of one closed second, exactly as the analyzer recorded it ({@link Latency}'s shape:
 * µs, 1 µs to 1 hour, 3 significant digits), kept as HdrHistogram's compressed bytes. It is the histogram the
 * second's figures ({@link SecondStats}) and its repeat's figures were taken from: views that need the
 * distribution itself (the {@code --hlog} interval logs) read it here, never from a histogram of their own.
 *
 * <p>Immutable: the bytes are copied in and {@link #decode} returns a fresh histogram each time.
 */
public final class SecondHistogram {

    private final byte[] compressed;

    SecondHistogram(byte[] compressed) {
        this.compressed = Objects.requireNonNull(compressed, "compressed").clone();
    }

    /** A new histogram holding the second's service times, µs. The caller owns it. */
    public Histogram decode() {
        return Latency.decompress(compressed);
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
