package io.rigscope.model.wire;

import java.util.Locale;

/**
 * Reads a W3C {@code Server-Timing} header value ({@code pool;dur=0.12, db;dur=3.4;desc="insert", app;dur=0.3})
 * into a {@link ServerTiming}: each metric's name and {@code dur} (milliseconds, a decimal number, kept as whole
 * microseconds, rounded). A metric without {@code dur} is skipped (it says nothing of time); the first of a
 * repeated name is kept. It never throws: a metric that cannot be read (a bad name, a {@code dur} that is not a
 * non-negative number, an unterminated quoted string, more than {@link ServerTiming#MAX_METRICS} metrics, a name
 * longer than {@link #MAX_NAME_CHARS}) is skipped and counted in {@link #malformed()}; the rest of the header is
 * still read.
 *
 * <pre>{@code
 * ServerTimingParser parser = new ServerTimingParser();
 * ServerTiming t = parser.parse("pool;dur=0.12, db;dur=3.4");   // {pool=120, db=3400}
 * }</pre>
 *
 * <p>Not thread-safe: one parser per thread (its counter is a plain field).
 */
public final class ServerTimingParser {

    /** The longest metric name kept. */
    public static final int MAX_NAME_CHARS = 64;

    private long malformed;
    private long headers;

    /** Metrics skipped as malformed since this parser was made. */
    public long malformed() {
        return malformed;
    }

    /** Headers parsed (non-null values). */
    public long headers() {
        return headers;
    }

    /** The timing in {@code header}; {@link ServerTiming#NONE} for null, blank or nothing usable. */
    public ServerTiming parse(CharSequence header) {
        if (header == null) {
            return ServerTiming.NONE;
        }
        headers++;
        String[] names = null;
        long[] durs = null;
        int n = 0;
        int len = header.length();
        int i = 0;
        while (i < len) {
            // one metric: up to the next top-level comma (commas inside quoted strings do not count)
            int end = i;
            boolean quoted = false;
            boolean escaped = false;
            while (end < len) {
                char c = header.charAt(end);
                if (quoted) {
                    if (escaped) {
                        escaped = false;
                    } else if (c == '\\') {
                        escaped = true;
                    } else if (c == '"') {
                        quoted = false;
                    }
                } else if (c == '"') {
                    quoted = true;
                } else if (c == ',') {
                    break;
                }
                end++;
            }
            if (quoted) {
                malformed++;
                break; // an unterminated string swallows the rest
            }
            Metric m = metric(header, i, end);
            i = end + 1;
            if (m == null) {
                continue;
            }
            if (m == Metric.BAD) {
                malformed++;
                continue;
            }
            if (names == null) {
                names = new String[4];
                durs = new long[4];
            }
            if (indexOf(names, n, m.name) >= 0) {
                continue;
            }
            if (n == ServerTiming.MAX_METRICS) {
                malformed++;
                continue;
            }
            if (n == names.length) {
                names = java.util.Arrays.copyOf(names, n * 2);
                durs = java.util.Arrays.copyOf(durs, n * 2);
            }
            names[n] = m.name;
            durs[n] = m.durUs;
            n++;
        }
        if (n == 0) {
            return ServerTiming.NONE;
        }
        return ServerTiming.of(java.util.Arrays.copyOf(names, n), java.util.Arrays.copyOf(durs, n));
    }

    private static int indexOf(String[] names, int n, String name) {
        for (int i = 0; i < n; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** A parsed metric; {@link #BAD} for a malformed one; null (from {@link #metric}) for an empty or dur-less one. */
    private record Metric(String name, long durUs) {
        static final Metric BAD = new Metric("", -1);
    }

    private static Metric metric(CharSequence h, int from, int to) {
        int a = skipSpace(h, from, to);
        int b = a;
        while (b < to && isTokenChar(h.charAt(b))) {
            b++;
        }
        if (a == b) {
            return skipSpace(h, a, to) == to ? null : Metric.BAD; // an empty element ("a, , b") is allowed
        }
        if (b - a > MAX_NAME_CHARS) {
            return Metric.BAD;
        }
        String name = h.subSequence(a, b).toString();
        long durUs = -1;
        int p = skipSpace(h, b, to);
        while (p < to) {
            if (h.charAt(p) != ';') {
                return Metric.BAD;
            }
            p = skipSpace(h, p + 1, to);
            int ka = p;
            while (p < to && isTokenChar(h.charAt(p))) {
                p++;
            }
            if (ka == p) {
                return Metric.BAD;
            }
            String key = h.subSequence(ka, p).toString().toLowerCase(Locale.ROOT);
            p = skipSpace(h, p, to);
            String value = null;
            if (p < to && h.charAt(p) == '=') {
                p = skipSpace(h, p + 1, to);
                if (p < to && h.charAt(p) == '"') {
                    StringBuilder v = new StringBuilder();
                    p++;
                    while (p < to && h.charAt(p) != '"') {
                        if (h.charAt(p) == '\\' && p + 1 < to) {
                            p++;
                        }
                        v.append(h.charAt(p++));
                    }
                    if (p >= to) {
                        return Metric.BAD;
                    }
                    p++;
                    value = v.toString();
                } else {
                    int va = p;
                    while (p < to && isTokenChar(h.charAt(p))) {
                        p++;
                    }
                    if (va == p) {
                        return Metric.BAD;
                    }
                    value = h.subSequence(va, p).toString();
                }
                p = skipSpace(h, p, to);
            }
            if (key.equals("dur") && durUs < 0) {
                durUs = durationUs(value);
                if (durUs < 0) {
                    return Metric.BAD;
                }
            }
        }
        return durUs < 0 ? null : new Metric(name, durUs);
    }

    /** A {@code dur} value in ms as whole µs (rounded), or -1 when it is not a finite non-negative number. */
    private static long durationUs(String value) {
        if (value == null || value.isEmpty() || value.length() > 24) {
            return -1;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!(c >= '0' && c <= '9') && c != '.') {
                return -1; // no sign, no exponent, no NaN or Infinity
            }
        }
        try {
            double ms = Double.parseDouble(value);
            if (!(ms >= 0) || ms > 1e9) {
                return -1;
            }
            return Math.round(ms * 1000.0);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static int skipSpace(CharSequence h, int p, int to) {
        while (p < to && (h.charAt(p) == ' ' || h.charAt(p) == '\t')) {
            p++;
        }
        return p;
    }

    /** RFC 9110 tchar. */
    private static boolean isTokenChar(char c) {
        if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
            return true;
        }
        return "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
}
