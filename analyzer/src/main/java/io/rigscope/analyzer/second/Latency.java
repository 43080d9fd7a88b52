package io.rigscope.analyzer.second;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import org.HdrHistogram.Histogram;

/**
 * The one histogram shape the analyzer uses for latency: microseconds, 1 µs to 1 hour, 3 significant
 * digits (a value is known to within 0.1 %). Larger values are recorded as 1 hour. Also the compact bytes a
 * finished second keeps its histograms in.
 */
public final class Latency {

    /** The largest value tracked, µs (1 hour). */
    public static final long HIGHEST_US = 3_600_000_000L;
    /** Significant decimal digits kept. */
    public static final int DIGITS = 3;

    private Latency() {
    }

    /** A new, empty latency histogram. */
    public static Histogram newHistogram() {
        return new Histogram(1, HIGHEST_US, DIGITS);
    }

    /** Records one value in µs, clamped to [1, {@link #HIGHEST_US}]. */
    public static void record(Histogram h, long valueUs) {
        h.recordValue(valueUs < 1 ? 1 : Math.min(valueUs, HIGHEST_US));
    }

    /** The histogram as compressed bytes (HdrHistogram's own encoding). */
    public static byte[] compress(Histogram h) {
        return compress(h, ByteBuffer.allocate(h.getNeededByteBufferCapacity()));
    }

    /**
     * {@link #compress(Histogram)} through {@code scratch}, a buffer the caller keeps and reuses (cleared here) instead
     * of one of the histogram's full uncompressed size per call; the same bytes. Its capacity must be at least
     * {@link Histogram#getNeededByteBufferCapacity()} ({@link #scratchFor}).
     */
    static byte[] compress(Histogram h, ByteBuffer scratch) {
        scratch.clear();
        int length = h.encodeIntoCompressedByteBuffer(scratch, Deflater.BEST_SPEED);
        return java.util.Arrays.copyOfRange(scratch.array(), scratch.arrayOffset(), scratch.arrayOffset() + length);
    }

    /** {@code scratch} when it can hold {@code h}'s encoding for {@link #compress(Histogram, ByteBuffer)}, else a new one. */
    static ByteBuffer scratchFor(Histogram h, ByteBuffer scratch) {
        int needed = h.getNeededByteBufferCapacity();
        return scratch != null && scratch.capacity() >= needed ? scratch : ByteBuffer.allocate(needed);
    }

    /** A histogram back from {@link #compress}. */
    public static Histogram decompress(byte[] bytes) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), HIGHEST_US);
        } catch (DataFormatException e) {
            throw new IllegalStateException("a second's histogram bytes are corrupt", e);
        }
    }

    /** µs to ms, rounded to the µs (3 decimals), as reports print it. */
    public static double ms(long us) {
        return us / 1000.0;
    }

    /** A histogram from {@code pool} (recycled ones are empty), or a new one. */
    static Histogram borrow(java.util.ArrayDeque<Histogram> pool) {
        Histogram h = pool.poll();
        return h == null ? newHistogram() : h;
    }

    /** Empties {@code h} and keeps it in {@code pool} for the next {@link #borrow} (at most 64 kept). */
    static void recycle(java.util.ArrayDeque<Histogram> pool, Histogram h) {
        h.reset();
        if (pool.size() < 64) {
            pool.push(h);
        }
    }

    /** The value at a percentile, µs, or 0 when empty (HdrHistogram's highest-equivalent value). */
    public static long percentileUs(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile);
    }
}
