package io.rigscope.importers.k6;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.rigscope.analyzer.threshold.ThresholdDecl;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
public final class K6LineReader {

    /** Interned strings and tag sets kept at most. */
    public static final int MAX_INTERNED = 1 << 16;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
            .build();
    private static final int BLOCK_BYTES = 1 << 20;
    /** A point of a metric no rule reads, its data not kept. */
    private static final K6Line.Other SKIPPED_POINT = new K6Line.Other("Point");

    private final java.util.function.Predicate<String> wanted;
    private final java.util.Set<String> withThresholds = new java.util.HashSet<>();
    private final K6Interning.StringPool strings = new K6Interning.StringPool();
    private final K6Interning.TagPool tagSets = new K6Interning.TagPool();
    private final RfcTime times = new RfcTime();
    private final List<K6Line> pending = new ArrayList<>(8192);

    // one line's fields, reset by object()
    private String type;
    private String metric;
    private long timeUs;
    private String badTime;
    private boolean hasTime;
    private double value;
    private boolean hasValue;
    private K6Tags tags;
    private String name;
    private String metricType;
    private String contains;
    private List<ThresholdDecl> thresholds;
    private final String[] tagKeys = new String[64];
    /** The bytes the current parser reads, and where its input starts in them. */
    private byte[] source;
    private int sourceOff;
    private final K6Interning.ByBytes<K6Tags> rawTags = new K6Interning.ByBytes<>();
    private final K6Interning.ByBytes<String> metricNames = new K6Interning.ByBytes<>();
    private final K6PointShape shape = new K6PointShape();
    private char[] asciiChars = new char[64];
    private final String[] tagValues = new String[64];

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
        this.wanted = java.util.Objects.requireNonNull(wanted, "wanted");
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
        source = bytes;
        sourceOff = off;
        try (JsonParser p = FACTORY.createParser(bytes, off, len)) {
            JsonToken t = p.nextToken();
            if (t != JsonToken.START_OBJECT) {
                throw new BadLineException(t == null ? "is empty" : "is not a k6 JSON output line (not an object)");
            }
            K6Line line = object(p);
            if (p.nextToken() != null) {
                throw new BadLineException("is not JSON: more than one value on the line");
            }
            return line;
        } catch (JsonProcessingException e) {
            throw new BadLineException("is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new BadLineException("is not JSON: " + e.getMessage());
        }
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
        source = buf;
        sourceOff = off;
        try (JsonParser p = FACTORY.createParser(buf, off, end - off)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t != JsonToken.START_OBJECT) {
                    break;
                }
                K6Line line = object(p);
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
            tags = rawTags.get(b, shape.tagsOff, shape.tagsLen);
            if (tags == null) {
                tags = unseenTags(b, shape.tagsOff, shape.tagsLen);
                if (tags == null) {
                    return null;
                }
            }
            shape.recentTags.remember(b, shape.tagsOff, shape.tagsLen, tags);
        }
        if (!wanted.test(metric) && !withThresholds.contains(metric)) {
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
        return strings.intern(asciiChars, 0, len);
    }

    /** A tags object's bytes not seen before: read when they are exactly one JSON object, else null. */
    private K6Tags unseenTags(byte[] b, int off, int len) {
        try (JsonParser q = FACTORY.createParser(b, off, len)) {
            if (q.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            K6Tags read = tags(q);
            if (q.nextToken() != null) {
                return null;
            }
            rawTags.put(b, off, len, read);
            return read;
        } catch (IOException | BadLineException e) {
            return null;
        }
    }

    /** The rest of a k6 line after its START_OBJECT. */
    private K6Line object(JsonParser p) throws IOException, BadLineException {
        type = null;
        metric = null;
        hasTime = false;
        badTime = null;
        hasValue = false;
        tags = K6Tags.EMPTY;
        name = null;
        metricType = "";
        contains = "";
        thresholds = null;
        boolean skipped = false;
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "type" -> type = v == JsonToken.VALUE_STRING ? intern(p) : null;
                case "metric" -> metric = v == JsonToken.VALUE_STRING ? intern(p) : null;
                case "data" -> {
                    if (v == JsonToken.START_OBJECT && (metric == null || "Metric".equals(type)
                            || wanted.test(metric) || withThresholds.contains(metric))) {
                        data(p);
                    } else {
                        skipped = v == JsonToken.START_OBJECT;
                        p.skipChildren();
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (t != JsonToken.END_OBJECT) {
            throw new BadLineException("is not JSON: the object does not end");
        }
        if (type == null) {
            throw new BadLineException("is not a k6 JSON output line (no \"type\")");
        }
        if ("Point".equals(type)) {
            if (skipped) {
                return new K6Line.Other(type);
            }
            if (metric == null) {
                throw new BadLineException("point has no \"metric\"");
            }
            if (badTime != null || !hasTime) {
                throw new BadLineException("time '" + (badTime == null ? "" : badTime)
                        + "' is not an RFC 3339 timestamp");
            }
            if (!hasValue) {
                throw new BadLineException(metric + " point has no numeric \"value\"");
            }
            return new K6Line.Point(metric, timeUs, value, tags);
        }
        if ("Metric".equals(type)) {
            String n = metric != null ? metric : name;
            if (n == null) {
                throw new BadLineException("Metric line has no \"metric\" nor data \"name\"");
            }
            if (thresholds != null && !thresholds.isEmpty()) {
                withThresholds.add(n);
            }
            return new K6Line.MetricDecl(n, metricType, contains, thresholds == null ? List.of() : thresholds);
        }
        return new K6Line.Other(type);
    }

    private void data(JsonParser p) throws IOException, BadLineException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "time" -> {
                    if (v == JsonToken.VALUE_STRING) {
                        long us = times.parseUs(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                        if (us == RfcTime.BAD) {
                            badTime = p.getText();
                        } else {
                            timeUs = us;
                            hasTime = true;
                        }
                    } else {
                        badTime = v == JsonToken.VALUE_NULL ? "" : p.getText();
                        p.skipChildren();
                    }
                }
                case "value" -> {
                    if (v == JsonToken.VALUE_NUMBER_INT || v == JsonToken.VALUE_NUMBER_FLOAT) {
                        value = p.getDoubleValue();
                        hasValue = true;
                    } else {
                        p.skipChildren();
                    }
                }
                case "tags" -> {
                    if (v == JsonToken.START_OBJECT) {
                        tags = rawTags(p);
                    } else {
                        p.skipChildren();
                    }
                }
                case "name" -> name = v == JsonToken.VALUE_STRING ? intern(p) : null;
                case "type" -> metricType = v == JsonToken.VALUE_STRING ? p.getText() : "";
                case "contains" -> contains = v == JsonToken.VALUE_STRING ? p.getText() : "";
                case "thresholds" -> thresholds = thresholds(p, v);
                default -> p.skipChildren();
            }
        }
    }

    /**
     * A {@code tags} object (the parser on its START_OBJECT): k6 repeats the same few tag objects byte for byte,
     * so the object's bytes are looked up first and only an unseen one is read field by field.
     */
    private K6Tags rawTags(JsonParser p) throws IOException, BadLineException {
        long from = p.currentTokenLocation().getByteOffset();
        p.skipChildren();
        long to = p.currentLocation().getByteOffset();
        if (from < 0 || to <= from) {
            throw new BadLineException("is not JSON: the tags object cannot be located");
        }
        int start = sourceOff + (int) from;
        int len = (int) (to - from);
        K6Tags known = rawTags.get(source, start, len);
        if (known != null) {
            return known;
        }
        K6Tags read;
        try (JsonParser q = FACTORY.createParser(source, start, len)) {
            q.nextToken();
            read = tags(q);
        }
        rawTags.put(source, start, len, read);
        return read;
    }

    private K6Tags tags(JsonParser p) throws IOException, BadLineException {
        int n = 0;
        int hash = 1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            String val;
            if (v == JsonToken.VALUE_STRING) {
                val = intern(p);
            } else if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
                p.skipChildren();
                continue;
            } else if (v == JsonToken.VALUE_NULL) {
                continue;
            } else {
                val = strings.intern(p.getText());
            }
            if (n == tagKeys.length) {
                throw new BadLineException("has more than " + tagKeys.length + " tags");
            }
            tagKeys[n] = key;
            tagValues[n] = val;
            hash = 31 * hash + key.hashCode() * 17 + val.hashCode();
            n++;
        }
        return n == 0 ? K6Tags.EMPTY : tagSets.intern(tagKeys, tagValues, n, hash);
    }

    /**
     * A Metric line's {@code thresholds}: each string or object entry decoded by {@link ThresholdDecl} (an object's
     * fields read as plain values); an entry of another kind, or thresholds that are not an array, are skipped.
     */
    private List<ThresholdDecl> thresholds(JsonParser p, JsonToken v) throws IOException, BadLineException {
        List<ThresholdDecl> out = new ArrayList<>();
        if (v != JsonToken.START_ARRAY) {
            p.skipChildren();
            return out;
        }
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            Object entry;
            if (t == JsonToken.VALUE_STRING) {
                entry = p.getText();
            } else if (t == JsonToken.START_OBJECT) {
                Map<String, Object> object = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String f = p.currentName();
                    JsonToken fv = p.nextToken();
                    object.put(f, switch (fv) {
                        case VALUE_STRING -> p.getText();
                        case VALUE_TRUE -> Boolean.TRUE;
                        case VALUE_FALSE -> Boolean.FALSE;
                        case VALUE_NULL -> null;
                        case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getNumberValue();
                        default -> {
                            p.skipChildren();
                            yield fv == JsonToken.START_ARRAY ? List.of() : Map.of();
                        }
                    });
                }
                entry = object;
            } else {
                p.skipChildren();
                continue;
            }
            try {
                out.add(ThresholdDecl.decode(metric != null ? metric : name != null ? name : "its metric", entry));
            } catch (IllegalArgumentException e) {
                throw new BadLineException(e.getMessage());
            }
        }
        return out;
    }

    private String intern(JsonParser p) throws IOException {
        return strings.intern(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
    }


}
