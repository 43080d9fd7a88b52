package io.rigscope.importers.k6;

import java.nio.charset.StandardCharsets;

/**
 * The byte shape in which k6 writes a point line, recognised without a JSON parser:
 * {@code {"metric":"M","type":"Point","data":{"time":"T","value":N,"tags":{...}}}} and the line's end
 * ({@code \n}, {@code \r\n}, or the end of the input). {@link K6LineReader} reads a line that matches from the
 * slices found here and any other line with Jackson, so the shape only has to be exact, not complete: it refuses
 * (returns false) whatever it does not recognise, and the parser decides.
 *
 * <p>What it refuses: other field orders or whitespace; a backslash, a control character or a non-ASCII byte in
 * the metric name; a time that {@link RfcTime} does not read; a value that is not {@code -?digits[.digits]}
 * (JSON's rules: no leading zero, at least one digit after the point) or has more than 18 digits; a line that does
 * not end with the tags object's closing brace and two more. The tags object itself is only located here (from
 * {@code "tags":} to the line's two closing braces); the reader confirms it is one JSON object.
 *
 * <p>The value is the double Jackson gives for the same text: integers through {@code long} (so {@code -0} is
 * {@code 0.0}); a decimal whose digits, point removed, are below 2^53 as {@code digits / 10^k}, which IEEE division
 * rounds correctly (both operands exact), else {@link Double#parseDouble}, which rounds correctly too, as Jackson's
 * parser does.
 *
 * <p>A metric name or tags object that one of the last few lines had ({@link K6Interning.Recent}, filled by the
 * reader with what it made of them) is recognised by comparing bytes; then the line is not scanned for its end,
 * which the tags object's closing braces and the line end after them show.
 *
 * <p>One instance holds the last match's slices. Not thread-safe.
 */
final class K6PointShape {

    private static final byte[] OPEN = ascii("{\"metric\":\"");
    private static final byte[] TYPE_DATA_TIME = ascii("\",\"type\":\"Point\",\"data\":{\"time\":\"");
    private static final byte[] VALUE = ascii("\",\"value\":");
    private static final byte[] TAGS = ascii(",\"tags\":");
    private static final double[] POW10 = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
        1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

    /** Metric names and tags objects read last, and what the reader made of them. */
    final K6Interning.Recent<String> recentMetrics = new K6Interning.Recent<>();
    final K6Interning.Recent<K6Tags> recentTags = new K6Interning.Recent<>();

    /** The metric name's bytes, and the name when it is one of {@link #recentMetrics} (else null). */
    int metricOff;
    int metricLen;
    String metric;
    /** The time, epoch µs. */
    long timeUs;
    private final RfcTime times = new RfcTime();
    /** The value as Jackson reads it. */
    double value;
    /** The tags object's bytes, from its '{' to its '}', and the tags when they are {@link #recentTags} (else null). */
    int tagsOff;
    int tagsLen;
    K6Tags tags;
    /** Where the line's text ends (before {@code \r\n} or {@code \n}), and where the next line starts. */
    int lineEnd;
    int next;

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** True when the line starting at {@code start} (the input ending at {@code end}) has the shape. */
    boolean match(byte[] b, int start, int end) {
        int p = expect(b, start, end, OPEN);
        if (p < 0) {
            return false;
        }
        metricOff = p;
        metricLen = recentMetrics.find(b, p, end, (byte) '"');
        if (metricLen > 0) {
            metric = recentMetrics.found();
            p += metricLen;
        } else {
            metric = null;
            p = plainString(b, p, end);
            if (p < 0 || p == metricOff) {
                return false;
            }
            metricLen = p - metricOff;
        }
        p = expect(b, p, end, TYPE_DATA_TIME);
        if (p < 0) {
            return false;
        }
        int timeLen = RfcTime.lengthAt(b, p, end);
        if (timeLen < 0 || p + timeLen >= end || b[p + timeLen] != '"') {
            return false;
        }
        timeUs = times.parseUs(b, p, timeLen); // checks every byte of it: digits and separators
        if (timeUs == RfcTime.BAD) {
            return false;
        }
        p += timeLen;
        p = expect(b, p, end, VALUE);
        if (p < 0) {
            return false;
        }
        p = number(b, p, end);
        if (p < 0) {
            return false;
        }
        p = expect(b, p, end, TAGS);
        if (p < 0 || p >= end || b[p] != '{') {
            return false;
        }
        tagsOff = p;
        tagsLen = recentTags.find(b, p, end, (byte) '}');
        if (tagsLen > 0) {
            // a whole JSON object read before: the line must end right after the braces of data and the line
            tags = recentTags.found();
            int close = p + tagsLen;
            if (close + 1 < end && b[close + 1] == '}') {
                int after = close + 2;
                if (after == end || b[after] == '\n') {
                    lineEnd = after;
                    next = after + 1;
                    return true;
                }
                if (b[after] == '\r' && (after + 1 == end || b[after + 1] == '\n')) {
                    lineEnd = after;
                    next = after + 2;
                    return true;
                }
            }
            return false;
        }
        tags = null;
        int nl = p;
        while (nl < end && b[nl] != '\n') {
            nl++;
        }
        int e = nl > p && b[nl - 1] == '\r' ? nl - 1 : nl;
        // the tags object, then '}' closing data and '}' closing the line
        if (e - p < 4 || b[e - 1] != '}' || b[e - 2] != '}' || b[e - 3] != '}') {
            return false;
        }
        tagsLen = e - 2 - p;
        lineEnd = e;
        next = nl + 1;
        return true;
    }

    private static int expect(byte[] b, int p, int end, byte[] text) {
        if (end - p < text.length) {
            return -1;
        }
        for (int i = 0; i < text.length; i++) {
            if (b[p + i] != text[i]) {
                return -1;
            }
        }
        return p + text.length;
    }

    /** The index of the closing quote of a string with no escape, control or non-ASCII byte; -1 otherwise. */
    private static int plainString(byte[] b, int p, int end) {
        for (; p < end; p++) {
            int c = b[p];
            if (c == '"') {
                return p;
            }
            if (c < 0x20 || c == '\\') { // bytes >= 0x80 are negative
                return -1;
            }
        }
        return -1;
    }

    /** Reads a number into {@link #value}; the index after it, or -1. */
    private int number(byte[] b, int p, int end) {
        int from = p;
        boolean negative = p < end && b[p] == '-';
        if (negative) {
            p++;
        }
        int intFrom = p;
        long digits = 0;
        while (p < end && b[p] >= '0' && b[p] <= '9') {
            digits = digits * 10 + (b[p] - '0');
            p++;
        }
        int intDigits = p - intFrom;
        if (intDigits == 0 || (intDigits > 1 && b[intFrom] == '0')) {
            return -1;
        }
        int fracDigits = 0;
        if (p < end && b[p] == '.') {
            p++;
            int fracFrom = p;
            while (p < end && b[p] >= '0' && b[p] <= '9') {
                digits = digits * 10 + (b[p] - '0');
                p++;
            }
            fracDigits = p - fracFrom;
            if (fracDigits == 0) {
                return -1;
            }
        }
        if (p < end && (b[p] == 'e' || b[p] == 'E')) {
            return -1;
        }
        if (intDigits + fracDigits > 18) {
            return -1;
        }
        if (fracDigits == 0) {
            value = (double) (negative ? -digits : digits); // an integer: Jackson reads it as a long
        } else if (digits < (1L << 53) && fracDigits < POW10.length) {
            double v = digits / POW10[fracDigits];
            value = negative ? -v : v;
        } else {
            value = Double.parseDouble(new String(b, from, p - from, StandardCharsets.US_ASCII));
        }
        return p;
    }
}
