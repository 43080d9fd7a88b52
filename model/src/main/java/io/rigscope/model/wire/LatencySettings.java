package io.rigscope.model.wire;

/**
 * The one shape of every latency histogram rigscope keeps (the generator's send lag, the analyzer's seconds and
 * repeats, the benches): values in microseconds, as a {@link Sample}'s {@code t0}/{@code t1}/{@code t2} are, from
 * {@value #LOWEST_US} µs to {@value #HIGHEST_US} µs (1 hour), {@value #DIGITS} significant decimal digits (a value
 * is known to within 0.1 %). A larger value is recorded as {@link #HIGHEST_US}. Constants only: each module builds
 * its HdrHistogram from them ({@code new Histogram(LOWEST_US, HIGHEST_US, DIGITS)}).
 */
public final class LatencySettings {

    /** The least value tracked, µs. */
    public static final long LOWEST_US = 1;
    /** The largest value tracked, µs (1 hour). */
    public static final long HIGHEST_US = 3_600_000_000L;
    /** Significant decimal digits kept. */
    public static final int DIGITS = 3;
    /** The scale: microseconds in a millisecond, as reports print latency (ms). */
    public static final double US_PER_MS = 1000.0;

    private LatencySettings() {
    }
}
