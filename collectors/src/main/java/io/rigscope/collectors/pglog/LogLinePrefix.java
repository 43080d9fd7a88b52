package io.rigscope.collectors.pglog;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Postgres {@code log_line_prefix} compiled into a matcher for stderr log lines.
 *
 * <p>Understands every escape of the documented prefix (PostgreSQL manual, "Error Reporting and Logging",
 * log_line_prefix): {@code %m %t %n} give the line's time, {@code %p} its process id; the others match
 * whatever text they print ({@code %r %u %d %a %h %b %c %l %s %v %x %e %i %Q %L %P}); {@code %q} makes the
 * rest optional (background processes stop there); {@code %%} is a percent sign; padding such as
 * {@code %-10u} is accepted. After the prefix comes the severity ({@code LOG:  }, {@code ERROR:  }, ...).
 *
 * <p>Examples: the default {@code "%m [%p] "} and RDS's {@code "%t:%r:%u@%d:[%p]:"}. Immutable, thread-safe.
 */
public final class LogLinePrefix {

    /** The default stderr prefix since PostgreSQL 10. */
    public static final String DEFAULT = "%m [%p] ";
    /** The prefix RDS for PostgreSQL uses (it cannot be changed there). */
    public static final String RDS = "%t:%r:%u@%d:[%p]:";

    private static final String LEVELS =
            "DEBUG[1-5]?|LOG|INFO|NOTICE|WARNING|ERROR|FATAL|PANIC|DETAIL|HINT|QUERY|CONTEXT|LOCATION|STATEMENT";
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSSSSS][.SSS]");

    private final String prefix;
    private final Pattern line;
    private final ZoneId fallbackZone;

    private LogLinePrefix(String prefix, Pattern line, ZoneId fallbackZone) {
        this.prefix = prefix;
        this.line = line;
        this.fallbackZone = fallbackZone;
    }

    /**
     * @param prefix the server's log_line_prefix, as set (without surrounding quotes)
     * @param fallbackZone the zone for timestamps whose zone name is neither UTC/GMT nor a numeric offset
     *                     nor a known abbreviation; null means the system default
     */
    public static LogLinePrefix of(String prefix, ZoneId fallbackZone) {
        Objects.requireNonNull(prefix, "log line prefix");
        StringBuilder re = new StringBuilder("^");
        int optionalGroups = 0;
        boolean hasTime = false;
        boolean hasPid = false;
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c != '%' || i + 1 >= prefix.length()) {
                re.append(Pattern.quote(String.valueOf(c)));
                continue;
            }
            int j = i + 1;
            while (j < prefix.length() && (prefix.charAt(j) == '-' || Character.isDigit(prefix.charAt(j)))) {
                j++;
            }
            if (j >= prefix.length()) {
                re.append(Pattern.quote(prefix.substring(i)));
                break;
            }
            boolean padded = j > i + 1;
            char esc = prefix.charAt(j);
            i = j;
            String pad = padded ? " *" : "";
            switch (esc) {
                case 'm', 't' -> {
                    String group = hasTime ? "" : "?<ts>";
                    re.append(pad).append('(').append(group)
                            .append("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)? [^ ]+)").append(pad);
                    hasTime = true;
                }
                case 'n' -> {
                    String group = hasTime ? "" : "?<epoch>";
                    re.append(pad).append('(').append(group).append("\\d+(?:\\.\\d+)?)").append(pad);
                    hasTime = true;
                }
                case 'p' -> {
                    String group = hasPid ? "" : "?<pid>";
                    re.append(pad).append('(').append(group).append("\\d+)").append(pad);
                    hasPid = true;
                }
                case 'l', 'x', 'P' -> re.append(pad).append("(?:\\d*)").append(pad);
                case '%' -> re.append('%');
                case 'q' -> {
                    re.append("(?:");
                    optionalGroups++;
                }
                default -> re.append("(?:.*?)");
            }
        }
        for (int k = 0; k < optionalGroups; k++) {
            re.append(")?");
        }
        re.append("(?<level>").append(LEVELS).append("):  ?(?<msg>.*)$");
        return new LogLinePrefix(prefix, Pattern.compile(re.toString(), Pattern.DOTALL),
                fallbackZone == null ? ZoneId.systemDefault() : fallbackZone);
    }

    /** The default prefix {@code "%m [%p] "}, zone fallback the system default. */
    public static LogLinePrefix defaults() {
        return of(DEFAULT, null);
    }

    /** The prefix text this matcher was built from. */
    public String prefix() {
        return prefix;
    }

    /** A line that starts with this prefix and a severity, split up; empty when the line does not. */
    public Optional<Head> match(String text) {
        Matcher m = line.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        Long tsUs = timestampUs(m);
        Integer pid = null;
        if (hasGroup(m, "pid") && m.group("pid") != null) {
            try {
                pid = Integer.valueOf(m.group("pid"));
            } catch (NumberFormatException e) {
                pid = null;
            }
        }
        return Optional.of(new Head(tsUs, pid, m.group("level"), m.group("msg")));
    }

    private Long timestampUs(Matcher m) {
        if (hasGroup(m, "epoch") && m.group("epoch") != null) {
            return (long) (Double.parseDouble(m.group("epoch")) * 1_000_000L);
        }
        if (!hasGroup(m, "ts") || m.group("ts") == null) {
            return null;
        }
        String text = m.group("ts");
        int space = text.lastIndexOf(' ');
        try {
            LocalDateTime local = LocalDateTime.parse(text.substring(0, space), TS);
            ZoneId zone = zone(text.substring(space + 1));
            var instant = local.atZone(zone).toInstant();
            return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private ZoneId zone(String name) {
        if (name.equals("UTC") || name.equals("GMT") || name.equals("Z")) {
            return ZoneOffset.UTC;
        }
        if (name.matches("[+-]\\d\\d(:?\\d\\d)?")) {
            String n = name.length() == 3 ? name + ":00" : name;
            return ZoneOffset.of(n.length() == 5 ? n.substring(0, 3) + ":" + n.substring(3) : n);
        }
        try {
            return ZoneId.of(name, ZoneId.SHORT_IDS);
        } catch (RuntimeException e) {
            return fallbackZone;
        }
    }

    private static boolean hasGroup(Matcher m, String name) {
        return m.pattern().pattern().contains("?<" + name + ">");
    }

    /**
     * The parts of a prefixed line.
     *
     * @param tsUs the line's time, epoch µs, or null when the prefix carries none or it does not parse
     * @param pid the process id, or null when the prefix carries none
     * @param level the severity, e.g. {@code LOG}, {@code ERROR}
     * @param message the text after the severity
     */
    public record Head(Long tsUs, Integer pid, String level, String message) {
    }
}
