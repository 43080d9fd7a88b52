package io.rigscope.rig.cli;

import io.rigscope.analyzer.threshold.K6Duration;
import java.time.Duration;

/** Durations on the command line, as k6 writes them ({@link K6Duration}), with the flag named in the error. */
public final class Durations {

    private Durations() {
    }

    /** As {@link #parse}, and a bare {@code 0} is zero too (for flags where zero means "none" or "no limit"). */
    public static Duration parseOrZero(String flag, String text) {
        return "0".equals(text) ? Duration.ZERO : parse(flag, text);
    }

    /**
     * @param flag the flag or config key, named in the error
     * @throws UsageException naming the flag when the text is not a duration
     */
    public static Duration parse(String flag, String text) {
        if (text != null && text.strip().equals("0")) {
            throw new UsageException(flag + " '0' is not a duration here; expected e.g. 30s, 10m, 1h30m, 500ms");
        }
        try {
            return K6Duration.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException(flag + " " + e.getMessage());
        }
    }
}
