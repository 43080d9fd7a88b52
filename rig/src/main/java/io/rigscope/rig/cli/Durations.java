package io.rigscope.rig.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses k6-style durations: {@code 500ms}, {@code 30s}, {@code 10m}, {@code 1h30m}, {@code 1h}. */
public final class Durations {

    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");

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
        if (text == null || text.isBlank()) {
            throw new UsageException(flag + " is empty; expected a duration like 30s, 10m, 1h30m");
        }
        Matcher m = PART.matcher(text.strip());
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) {
                break;
            }
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            });
            end = m.end();
        }
        if (end != text.strip().length() || end == 0) {
            throw new UsageException(flag + " '" + text + "' is not a duration; expected e.g. 30s, 10m, 1h30m, 500ms");
        }
        return total;
    }
}
