package io.rigscope.importers.k6;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads k6 {@code --out json} lines into {@link K6Line}s: a point line in the shape k6 writes it
 * ({@link K6PointShape}) from its bytes, any other line with Jackson's streaming parser (no tree per line); metric
 * names, tag keys, tag values and whole tag sets interned (a run has a few dozen of each), RFC 3339 times parsed by
 * hand ({@link RfcTime}). Both paths read a line alike; what the byte path does not recognise goes to the parser,
 * which names what is wrong.
 *
 * <p>Two entry points: {@link #parse(String)} (one line, e.g. a line a live follower just read) and
 * {@link #read(InputStream, Handler)} (a whole stream). The stream is read in blocks of whole lines, line by line;
 * from a line the parser refuses on its own, the rest of the block is read by one parser (an object may span
 * lines) and, if that fails too, line by line again, so every good line of it is kept and every bad line is named
 * with its number and reason.
 *
 * <p>Not thread-safe: one reader per thread (its intern tables are its own). The pools are bounded
 * ({@value #MAX_INTERNED} strings and tag sets); past that, new values are read without interning.
 *
 * <pre>{@code
 * K6LineReader reader = new K6LineReader();
 * K6Line line = reader.parse("{\"type\":\"Point\",\"metric\":\"vus\",\"data\":{\"time\":\"2024-03-05T12:00:00+02:00\",\"value\":10,\"tags\":{}}}");
 * }</pre>
 */
final class K6LineReader {

    /** Interned strings and tag sets kept at most. */
    public static final int MAX_INTERNED = 1 << 16;

    private static final int BLOCK_BYTES = 1 << 20;
    /** A point of a metric no rule reads, its data not kept. */
    private static final K6Line.Other SKIPPED_POINT = new K6Line.Other("Point");

    private final List<K6Line> pending = new ArrayList<>(8192);

    private final K6ObjectParser parser;
    private final K6Interning.ByBytes<String> metricNames = new K6Interning.ByBytes<>();
    private final K6PointShape shape = new K6PointShape();
    private char[] asciiChars = new char[64];

    /** A reader that reads every point in full. */
    public K6LineReader() {
        this(metric -> true);
    }

    /**
     * A reader that skips the data of points whose metric {@code wanted} refuses and that no Metric line read so
     * far gave thresholds, when the line names its metric before its data (k6 writes {@code "metric"} first on
     * point lines): such a point is returned as {@link K6Line.Other} of type {@code Point}, its time, value and
     * tags not read.
     */
    public K6LineReader(java.util.function.Predicate<String> wanted) {
        this.parser = new K6ObjectParser(java.util.Objects.requireNonNull(wanted, "wanted"));
    }

    /** Receives a stream's lines in order. */
    public interface Handler {
        /** A line read. */
        void line(K6Line line);

        /**
         * A line that could not be read.
         *
         * @param lineNo its number, from 1
         * @param reason what is wrong, e.g. {@code is not JSON: ...} or {@code time 'x' is not an RFC 3339 timestamp}
         */
        void bad(long lineNo, String reason);

        /**
         * A compressed stream ended before its end; called once, before the lines of its last (partial) block.
         *
         * @param wholeLines lines read before that block
         * @param reason the decompressor's message
         */
        default void endedEarly(long wholeLines, String reason) {
        }
    }

    /**
     * What {@link #read} saw.
     *
     * @param lines lines read, blank and bad ones included
     * @param lastLineBad the last non-blank line could not be read (a k6 run killed mid-line)
     * @param endedEarly a compressed stream ended before its end (an {@link EOFException} from the decompressor)
     * @param endedEarlyReason the decompressor's message when it did, else null
     */
    public record Summary(long lines, boolean lastLineBad, boolean endedEarly, String endedEarlyReason) {
    }

    /** A line that is not a k6 line, and why. */
    public static final class BadLineException extends Exception {
        private static final long serialVersionUID = 1L;

        BadLineException(String reason) {
            super(reason, null, false, false);
        }
    }

    /**
     * Reads one line (without its line end).
     *
     * @throws BadLineException with the reason when the line is not JSON or not a k6 line
     */
    public K6Line parse(String line) throws BadLineException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return parse(bytes, 0, bytes.length);
    }

    /** Reads one line held in {@code bytes[off, off + len)} (UTF-8, without its line end). */
    public K6Line parse(byte[] bytes, int off, int len) throws BadLineException {
        K6Line line = pointOfShape(bytes, off, off + len);
        if (line != null && shape.next > off + len) {
            return line;
        }
        return parseWithParser(bytes, off, len);
    }

    /** {@link #parse(byte[], int, int)} with Jackson's parser only (never {@link K6PointShape}). */
    K6Line parseWithParser(byte[] bytes, int off, int len) throws BadLineException {
        return parser.line(bytes, off, len);
    }

    /**
     * Reads a whole stream of lines (already decompressed), handing each to {@code handler} in order. Returns at
     * the stream's end; a compressed stream cut short ends the reading with {@link Summary#endedEarly()} set.
     *
     * @throws IOException when the stream cannot be read
     */
    public Summary read(InputStream in, Handler handler) throws IOException {
        byte[] buf = new byte[BLOCK_BYTES];
        int filled = 0;
        long lineNo = 0;
        boolean[] lastBad = {false};
        boolean eof = false;
        String endedEarly = null;
        while (!eof) {
            int n;
            try {
                n = in.read(buf, filled, buf.length - filled);
            } catch (EOFException e) {
                endedEarly = e.getMessage() == null ? "unexpected end of compressed data" : e.getMessage();
                handler.endedEarly(lineNo, endedEarly);
                n = -1;
            }
            if (n < 0) {
                eof = true;
            } else {
                filled += n;
                if (filled < buf.length) {
                    continue; // fill the block before cutting it
                }
            }
            int end = eof ? filled : lastNewline(buf, filled) + 1;
            if (end == 0) {
                if (eof) {
                    break;
                }
                buf = Arrays.copyOf(buf, buf.length * 2); // one line longer than the block
                continue;
            }
            lineNo = block(buf, 0, end, lineNo, eof && (filled == 0 || buf[filled - 1] != '\n'), handler, lastBad);
            System.arraycopy(buf, end, buf, 0, filled - end);
            filled -= end;
        }
        return new Summary(lineNo, lastBad[0], endedEarly != null, endedEarly);
    }

    private static int lastNewline(byte[] buf, int filled) {
        for (int i = filled - 1; i >= 0; i--) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /**
     * One block of whole lines (the last one possibly unterminated at the stream's end), line by line: a line in
     * k6's point shape ({@link K6PointShape}) is read from its bytes, any other with Jackson's parser; from the first
     * line the parser refuses on its own, the rest of the block is {@linkplain #streamed streamed}. Returns the line
     * number of its last line.
     */
    private long block(byte[] buf, int off, int end, long lineNo, boolean unterminated, Handler handler,
                       boolean[] lastBad) throws IOException {
        int start = off;
        while (start < end) {
            K6Line line = pointOfShape(buf, start, end);
            if (line != null) {
                lineNo++;
                handler.line(line);
                lastBad[0] = false;
                start = shape.next;
                continue;
            }
            int nl = start;
            while (nl < end && buf[nl] != '\n') {
                nl++;
            }
            int len = nl - start;
            if (len > 0 && buf[start + len - 1] == '\r') {
                len--;
            }
            if (!blank(buf, start, len)) {
                try {
                    line = parseWithParser(buf, start, len);
                    handler.line(line);
                    lastBad[0] = false;
                } catch (BadLineException e) {
                    if (opensObject(buf, start, len)) {
                        // one parser over the rest, as a block was always read first: an object may span lines
                        return streamed(buf, start, end, lineNo, unterminated, handler, lastBad);
                    }
                    lastBad[0] = true;
                    handler.bad(lineNo + 1, e.getMessage());
                }
            }
            lineNo++;
            start = nl + 1;
        }
        return lineNo;
    }

    /**
     * Whole lines (the last one possibly unterminated at the stream's end): one parser for all of them; any trouble
     * and they are read again line by line. Returns the line number of the last line.
     */
    private long streamed(byte[] buf, int off, int end, long lineNo, boolean unterminated, Handler handler,
                          boolean[] lastBad) throws IOException {
        if (end == off) {
            return lineNo;
        }
        pending.clear();
        long rows = -1;
        // a Metric line is handed over at once (its thresholds decide which points are read next); a block that
        // fails is read again line by line from just after the last line handed over
        int handedTo = off;
        long handedLines = 0;
        try (JsonParser p = parser.over(buf, off, end - off)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t != JsonToken.START_OBJECT) {
                    break;
                }
                K6Line line = parser.object(p);
                pending.add(line);
                if (line instanceof K6Line.MetricDecl) {
                    var at = p.currentLocation();
                    handOver(handler, lastBad);
                    handedTo = off + (int) at.getByteOffset();
                    handedLines = at.getLineNr() - 1;
                }
            }
            if (t == null) {
                rows = p.currentLocation().getLineNr();
            }
        } catch (IOException | BadLineException e) {
            rows = -1; // IOException: the parser took bytes that are not UTF-8 for another encoding (UTF-16/32)
        }
        if (rows > 0) {
            handOver(handler, lastBad);
            // the parser counts line ends; a block ends with one unless it is an unterminated last line
            return lineNo + rows - (unterminated ? 0 : 1);
        }
        lineNo += handedLines;
        off = handedTo;
        pending.clear();
        int start = off;
        while (start < end) {
            int nl = start;
            while (nl < end && buf[nl] != '\n') {
                nl++;
            }
            lineNo++;
            int len = nl - start;
            if (len > 0 && buf[start + len - 1] == '\r') {
                len--;
            }
            if (!blank(buf, start, len)) {
                try {
                    K6Line line = parse(buf, start, len);
                    handler.line(line);
                    lastBad[0] = false;
                } catch (BadLineException e) {
                    lastBad[0] = true;
                    handler.bad(lineNo, e.getMessage());
                }
            }
            start = nl + 1;
        }
        return lineNo;
    }

    private void handOver(Handler handler, boolean[] lastBad) {
        for (int i = 0; i < pending.size(); i++) {
            handler.line(pending.get(i));
        }
        if (!pending.isEmpty()) {
            lastBad[0] = false;
        }
        pending.clear();
    }

    /** True when the first byte that is not blank is '{'. */
    private static boolean opensObject(byte[] buf, int off, int len) {
        for (int i = off; i < off + len; i++) {
            byte b = buf[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return b == '{';
            }
        }
        return false;
    }

    private static boolean blank(byte[] buf, int off, int len) {
        for (int i = off; i < off + len; i++) {
            byte b = buf[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    /**
     * The line starting at {@code start} read from its bytes when it has k6's point shape ({@link K6PointShape}),
     * as {@link #object} would read it; null when it has not, or when something in it needs the parser (a tags
     * object not seen before that is not exactly one JSON object, a time that does not parse): the parser then
     * reads it and names what is wrong.
     */
    private K6Line pointOfShape(byte[] b, int start, int end) {
        if (!shape.match(b, start, end)) {
            return null;
        }
        String metric = shape.metric;
        if (metric == null) {
            metric = metricNames.get(b, shape.metricOff, shape.metricLen);
            if (metric == null) {
                metric = internAscii(b, shape.metricOff, shape.metricLen);
                metricNames.put(b, shape.metricOff, shape.metricLen, metric);
            }
            shape.recentMetrics.remember(b, shape.metricOff, shape.metricLen, metric);
        }
        K6Tags tags = shape.tags;
        if (tags == null) {
            tags = parser.knownTags(b, shape.tagsOff, shape.tagsLen);
            if (tags == null) {
                tags = parser.unseenTags(b, shape.tagsOff, shape.tagsLen);
                if (tags == null) {
                    return null;
                }
            }
            shape.recentTags.remember(b, shape.tagsOff, shape.tagsLen, tags);
        }
        if (!parser.keeps(metric)) {
            return SKIPPED_POINT;
        }
        return new K6Line.Point(metric, shape.timeUs, shape.value, tags);
    }

    private String internAscii(byte[] b, int off, int len) {
        if (asciiChars.length < len) {
            asciiChars = new char[len];
        }
        for (int i = 0; i < len; i++) {
            asciiChars[i] = (char) b[off + i];
        }
        return parser.intern(asciiChars, len);
    }

}
