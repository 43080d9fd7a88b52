package io.rigscope.analyzer.second;

import io.rigscope.analyzer.decision.SecondHistogram;
import io.rigscope.model.wire.LatencySettings;
import java.nio.ByteBuffer;
import java.util.zip.Deflater;
import org.HdrHistogram.Histogram;

/**
 * The analyzer's latency histograms, in the one shape {@link LatencySettings} gives (µs, 1 µs to 1 hour, 3
 * significant digits; larger values are recorded as 1 hour); also the compact bytes a finished second keeps its
 * histograms in.
 */
public final class Latency {

    private Latency() {
    }

    /** A new, empty latency histogram. */
    public static Histogram newHistogram() {
        return new Histogram(LatencySettings.LOWEST_US, LatencySettings.HIGHEST_US, LatencySettings.DIGITS);
    }

    /** Records one value in µs, clamped to [{@link LatencySettings#LOWEST_US}, {@link LatencySettings#HIGHEST_US}]. */
    public static void record(Histogram h, long valueUs) {
        h.recordValue(valueUs < LatencySettings.LOWEST_US ? LatencySettings.LOWEST_US
                : Math.min(valueUs, LatencySettings.HIGHEST_US));
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
        return SecondHistogram.decompress(bytes);
    }

    /** µs to ms, rounded to the µs (3 decimals), as reports print it. */
    public static double ms(long us) {
        return us / LatencySettings.US_PER_MS;
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
