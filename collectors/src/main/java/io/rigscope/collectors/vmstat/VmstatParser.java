package io.rigscope.collectors.vmstat;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.model.wire.Vmstat;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Parses {@code vmstat -n -t} output (procps-ng) line by line.
 *
 * <p>The first header line ({@code procs -----memory---...}) is skipped; the second names the columns
 * ({@code r b swpd free buff cache si so bi bo in cs us sy id wa st [gu]}) followed by the time zone of the
 * timestamp column ({@code UTC}); columns are found by name, so procps versions that add {@code gu} parse
 * too. Repeated headers (vmstat without {@code -n}) are skipped the same way. A data line is the numbers
 * and then {@code YYYY-MM-DD HH:MM:SS} in that zone; without {@code -t} the clock stamps it. A line that
 * fits none of these is rejected (empty result), never thrown on. Not thread-safe.
 */
public final class VmstatParser {

    private static final String[] REQUIRED = {"r", "b", "swpd", "free", "buff", "cache", "si", "so", "bi", "bo",
        "in", "cs", "us", "sy", "id", "wa", "st"};
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final CollectorContext ctx;
    private final String src;
    private final ZoneId fallbackZone;
    private Map<String, Integer> columns;
    private ZoneId zone;
    private long rejected;

    public VmstatParser(CollectorContext ctx, String src, ZoneId fallbackZone) {
        this.ctx = ctx;
        this.src = src;
        this.fallbackZone = fallbackZone == null ? ZoneId.systemDefault() : fallbackZone;
        this.zone = this.fallbackZone;
    }

    /** The record of a data line; empty for headers and for lines it cannot read (counted in {@link #rejected()}). */
    public Optional<Vmstat> accept(String line) {
        if (line == null) {
            return Optional.empty();
        }
        String[] f = line.trim().split("\\s+");
        if (f.length == 0 || f[0].isEmpty() || f[0].startsWith("procs")) {
            return Optional.empty();
        }
        if (f[0].equals("r")) {
            if (!header(f)) {
                rejected++;
            }
            return Optional.empty();
        }
        try {
            return Optional.of(data(f));
        } catch (RuntimeException e) {
            rejected++;
            return Optional.empty();
        }
    }

    /** Lines that were neither headers nor readable data. */
    public long rejected() {
        return rejected;
    }

    private boolean header(String[] f) {
        Map<String, Integer> cols = new HashMap<>();
        for (int i = 0; i < f.length; i++) {
            cols.put(f[i], i);
        }
        for (String name : REQUIRED) {
            if (!cols.containsKey(name)) {
                return false;
            }
        }
        columns = cols;
        String last = f[f.length - 1];
        zone = last.equals("gu") || last.equals("st") ? fallbackZone : zoneOf(last);
        return true;
    }

    private ZoneId zoneOf(String name) {
        if (name.equals("UTC") || name.equals("GMT")) {
            return ZoneOffset.UTC;
        }
        try {
            return ZoneId.of(name, ZoneId.SHORT_IDS);
        } catch (RuntimeException e) {
            return fallbackZone;
        }
    }

    private Vmstat data(String[] f) {
        if (columns == null) {
            throw new IllegalStateException("data before header");
        }
        int numbers = columns.containsKey("gu") ? 18 : 17;
        long tsUs;
        if (f.length >= numbers + 2) {
            LocalDateTime t = LocalDateTime.parse(f[numbers] + " " + f[numbers + 1], TS);
            var instant = t.atZone(zone).toInstant();
            tsUs = instant.getEpochSecond() * 1_000_000L;
        } else if (f.length == numbers) {
            tsUs = ctx.nowUs();
        } else {
            throw new IllegalArgumentException("expected " + numbers + " numbers and a timestamp, got " + f.length + " fields");
        }
        Integer gu = columns.containsKey("gu") ? Integer.valueOf(f[columns.get("gu")]) : null;
        return new Vmstat(ctx.run(), ctx.rep(), src, tsUs, l(f, "r"), l(f, "b"), l(f, "swpd"), l(f, "free"),
                l(f, "buff"), l(f, "cache"), l(f, "si"), l(f, "so"), l(f, "bi"), l(f, "bo"), l(f, "in"), l(f, "cs"),
                i(f, "us"), i(f, "sy"), i(f, "id"), i(f, "wa"), i(f, "st"), gu);
    }

    private long l(String[] f, String name) {
        return Long.parseLong(f[columns.get(name)]);
    }

    private int i(String[] f, String name) {
        return Integer.parseInt(f[columns.get(name)]);
    }
}
