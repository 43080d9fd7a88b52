package io.rigscope.rig.options;

import io.rigscope.analyzer.threshold.K6Duration;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations as k6 writes them ({@link K6Duration}: {@code 500ms}, {@code 30s}, {@code 1h30m}). On the command line
 * every duration flag is typed {@link Duration} and read by {@link Converter} (registered for the type in
 * {@code cli.RigscopeCommand.commandLine()}), so {@code --help} shows its default and a bad value exits 2 naming the
 * flag; a series or plan file's keys go through {@link #parse} with the key named.
 */
public final class Durations {

    private Durations() {
    }

    /** The command line's converter: a k6 duration, or a bare {@code 0} for zero. */
    public static final class Converter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String text) {
            if (text != null && text.strip().equals("0")) {
                return Duration.ZERO;
            }
            try {
                return K6Duration.parse(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /**
     * A duration given under a file's key.
     *
     * @param key the config key, named in the error
     * @throws UsageException naming the key when the text is not a duration
     */
    public static Duration parse(String key, String text) {
        if (text != null && text.strip().equals("0")) {
            throw new UsageException(key + " '0' is not a duration here; expected e.g. 30s, 10m, 1h30m, 500ms");
        }
        try {
            return K6Duration.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException(key + " " + e.getMessage());
        }
    }

    /** {@code d} as a k6 duration would be written: {@code 1h30m}, {@code 45s}, {@code 500ms}, {@code 0s}. */
    public static String text(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        StringBuilder out = new StringBuilder();
        long h = d.toHours();
        int m = d.toMinutesPart();
        int s = d.toSecondsPart();
        int ms = d.toMillisPart();
        if (h > 0) {
            out.append(h).append('h');
        }
        if (m > 0) {
            out.append(m).append('m');
        }
        if (s > 0) {
            out.append(s).append('s');
        }
        if (ms > 0) {
            out.append(ms).append("ms");
        }
        return out.toString();
    }

    /**
     * A flag that must be longer than zero.
     *
     * @throws UsageException naming the flag when it is zero or negative
     */
    public static Duration positive(String flag, Duration value) {
        if (value != null && (value.isZero() || value.isNegative())) {
            throw new UsageException(flag + " must be longer than 0, was " + value.toMillis() + " ms");
        }
        return value;
    }
}
