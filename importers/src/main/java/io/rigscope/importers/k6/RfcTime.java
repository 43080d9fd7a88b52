package io.rigscope.importers.k6;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * RFC 3339 timestamps ({@code 2024-03-05T12:00:00.000137+02:00}, {@code ...Z}) to epoch µs, read from the line's
 * bytes (or the parser's characters, which must then be ASCII). The last minute read ({@code yyyy-MM-ddTHH:mm:}, its
 * bytes and its epoch second) is kept: a run's points come minute after minute. Not thread-safe.
 */
final class RfcTime {
    static final long BAD = Long.MIN_VALUE;
    private static final int MINUTE_BYTES = 17;
    /** What a fraction of n digits (up to 6 read) is multiplied by to be µs. */
    private static final long[] TO_MICROS = {0, 100_000, 10_000, 1_000, 100, 10, 1};
    private final byte[] minuteKey = new byte[MINUTE_BYTES];
    private boolean minuteKnown;
    private long minuteSec;
    private byte[] ascii = new byte[40];

    /**
     * The length of the timestamp that {@code b[off, end)} starts with, by its form alone: 19 characters, a
     * fraction ({@code .} and digits) or none, then {@code Z} or a {@code +hh:mm} offset; -1 when it has no such
     * form. {@link #parseUs(byte[], int, int)} checks the rest.
     */
    static int lengthAt(byte[] b, int off, int end) {
        int p = off + 19;
        if (p >= end) {
            return -1;
        }
        if (b[p] == '.') {
            p++;
            while (p < end && b[p] >= '0' && b[p] <= '9') {
                p++;
            }
            if (p >= end) {
                return -1;
            }
        }
        byte z = b[p];
        if (z == 'Z' || z == 'z') {
            p += 1;
        } else if (z == '+' || z == '-') {
            p += 6;
        } else {
            return -1;
        }
        return p <= end ? p - off : -1;
    }

    /** The parser's characters: copied to bytes (a non-ASCII character is not RFC 3339) and read as bytes. */
    long parseUs(char[] c, int off, int len) {
        if (len > ascii.length) {
            ascii = new byte[len];
        }
        for (int i = 0; i < len; i++) {
            char ch = c[off + i];
            if (ch > 0x7f) {
                return BAD;
            }
            ascii[i] = (byte) ch;
        }
        return parseUs(ascii, 0, len);
    }

    /** {@code b[off, off + len)}, ASCII. */
    long parseUs(byte[] c, int off, int len) {
        if (len < 20) {
            return BAD;
        }
        long baseSec = minuteKnown && Arrays.equals(minuteKey, 0, MINUTE_BYTES, c, off, off + MINUTE_BYTES)
                ? minuteSec : minute(c, off);
        if (baseSec == BAD) {
            return BAD;
        }
        int s = digits(c, off + 17, 2);
        if (s < 0 || s > 60) {
            return BAD;
        }
        int pos = off + 19;
        int end = off + len;
        long fracUs = 0;
        if (c[pos] == '.') {
            pos++;
            int digitsRead = 0;
            long frac = 0;
            while (pos < end && c[pos] >= '0' && c[pos] <= '9') {
                if (digitsRead < 6) {
                    frac = frac * 10 + (c[pos] - '0');
                }
                digitsRead++;
                pos++;
            }
            if (digitsRead == 0 || digitsRead > 9) {
                return BAD;
            }
            fracUs = frac * TO_MICROS[Math.min(digitsRead, 6)]; // a table, not a loop: no branch C2 saw rarely
        }
        if (pos >= end) {
            return BAD;
        }
        int offsetSec;
        byte z = c[pos];
        if ((z == 'Z' || z == 'z') && pos + 1 == end) {
            offsetSec = 0;
        } else if ((z == '+' || z == '-') && pos + 6 == end && c[pos + 3] == ':') {
            int oh = digits(c, pos + 1, 2);
            int om = digits(c, pos + 4, 2);
            if (oh < 0 || om < 0 || oh > 23 || om > 59) {
                return BAD;
            }
            offsetSec = (oh * 3600 + om * 60) * (z == '-' ? -1 : 1);
        } else {
            return BAD;
        }
        long sec = baseSec + Math.min(s, 59) - offsetSec;
        return sec * 1_000_000L + fracUs;
    }

    /** The epoch second of the minute {@code yyyy-MM-ddTHH:mm:} at {@code c[off]} (kept as the last), or BAD. */
    private long minute(byte[] c, int off) {
        int y = digits(c, off, 4);
        int mo = digits(c, off + 5, 2);
        int d = digits(c, off + 8, 2);
        int h = digits(c, off + 11, 2);
        int mi = digits(c, off + 14, 2);
        byte sep = c[off + 10];
        if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || c[off + 4] != '-' || c[off + 7] != '-'
                || (sep != 'T' && sep != 't' && sep != ' ') || c[off + 13] != ':' || c[off + 16] != ':'
                || h > 23 || mi > 59) {
            return BAD;
        }
        long epochDay;
        try {
            epochDay = LocalDate.of(y, mo, d).toEpochDay();
        } catch (DateTimeException e) {
            return BAD;
        }
        System.arraycopy(c, off, minuteKey, 0, MINUTE_BYTES);
        minuteKnown = true;
        minuteSec = epochDay * 86_400L + h * 3600L + mi * 60L;
        return minuteSec;
    }

    private static int digits(byte[] c, int off, int n) {
        int v = 0;
        for (int i = off; i < off + n; i++) {
            int ch = c[i];
            if (ch < '0' || ch > '9') {
                return -1;
            }
            v = v * 10 + (ch - '0');
        }
        return v;
    }
}
