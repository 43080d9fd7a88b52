package io.rigscope.generator.http;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Incremental HTTP/1.1 response framer (RFC 9112) for a client that keeps one request in flight per keep-alive
 * connection. It finds where each response ends, its final status code, its body length and whether the
 * connection may carry another request; it never copies a body.
 *
 * <p>The parser is a state machine over bytes: a response may arrive split at any byte boundary (inside a CRLF,
 * a header name, a chunk size) and the result is the same as when it arrives in one buffer. It holds no channel
 * and no thread; one instance serves one connection, from one thread at a time (not thread-safe).
 *
 * <p>Framing rules:
 * <ul>
 *   <li>Status line {@code HTTP/1.x SP 3DIGIT [SP reason]}; the status is 100-999. Interim responses 100-199 are
 *       skipped entirely (their headers do not count), except 101, which ends the response.</li>
 *   <li>Header names are matched case-insensitively on the bytes; only {@code Content-Length},
 *       {@code Transfer-Encoding} and {@code Connection} are interpreted. Whitespace before the colon, a line
 *       without a colon, or a folded continuation of one of those three headers is malformed; a folded
 *       continuation of any other header is ignored.</li>
 *   <li>Content-Length: optional whitespace trimmed; repeated headers or a comma list must all carry the same
 *       digits-only value, else the response is malformed.</li>
 *   <li>Transfer-Encoding whose final coding is {@code chunked}: chunked framing, which overrides Content-Length
 *       (when both are present, or Transfer-Encoding is on an HTTP/1.0 response, the connection is not reused).
 *       Any other final coding: the body runs until the peer closes. Chunk sizes are hex with optional
 *       {@code ;extensions}; the data of each chunk must be followed by CRLF; trailers after the last chunk are
 *       skipped.</li>
 *   <li>No body for a response to HEAD ({@link #begin(boolean) begin(true)}) or with status 1xx, 204 or 304.</li>
 *   <li>Neither Content-Length nor Transfer-Encoding: the body runs until the peer closes ({@link #closed()}).</li>
 *   <li>Bare LF is accepted wherever CRLF is expected.</li>
 * </ul>
 *
 * <p>Allocation: none per response in the common path. The only retained buffer is the current line (status
 * line, header line, chunk-size line), which starts at 256 bytes and grows, at most to {@code maxHeadBytes},
 * only when a longer line arrives. Strings are built only for exception messages.
 *
 * <p>Usage, per request on a connection:
 * <pre>{@code
 * parser.begin(isHead);
 * // on each inbound ByteBuf:
 * int status = parser.feed(buf);              // advances buf.readerIndex()
 * if (status != ResponseParser.NEED_MORE) {    // complete; parser.bodyBytes(), parser.keepAlive()
 *     ...                                      // bytes left in buf belong to no request: protocol error
 * }
 * // on channelInactive with a request in flight:
 * int status = parser.closed();               // NEED_MORE: the response was truncated
 * }</pre>
 */
public final class ResponseParser {

    /** Returned by {@link #feed} and {@link #closed} while the response is not complete. */
    public static final int NEED_MORE = -1;

    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final byte SP = ' ';
    private static final byte HT = '\t';
    private static final int INITIAL_LINE_BYTES = 256;
    private static final int MESSAGE_LINE_CHARS = 120;

    // Lower-case header names and tokens; matched case-insensitively against the received bytes.
    private static final byte[] CONTENT_LENGTH = ascii("content-length");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding");
    private static final byte[] CONNECTION = ascii("connection");
    private static final byte[] CHUNKED = ascii("chunked");
    private static final byte[] CLOSE = ascii("close");
    private static final byte[] KEEP_ALIVE = ascii("keep-alive");

    // States.
    private static final int IDLE = 0;          // before the first begin(), or after closed()
    private static final int STATUS_LINE = 1;
    private static final int HEADERS = 2;
    private static final int BODY_FIXED = 3;
    private static final int BODY_UNTIL_CLOSE = 4;
    private static final int CHUNK_SIZE = 5;
    private static final int CHUNK_DATA = 6;
    private static final int CHUNK_DATA_CR = 7;
    private static final int CHUNK_DATA_LF = 8;
    private static final int TRAILERS = 9;
    private static final int DONE = 10;
    private static final int FAILED = 11;

    // Which interpreted header the previous header line was (for folded continuation lines).
    private static final int OTHER_HEADER = 0;
    private static final int CONTENT_LENGTH_HEADER = 1;
    private static final int TRANSFER_ENCODING_HEADER = 2;
    private static final int CONNECTION_HEADER = 3;

    private final int maxHeadBytes;
    private byte[] line = new byte[INITIAL_LINE_BYTES];
    private int lineLength;
    /** Bytes of the current section (response head, chunk-size line, trailers), checked against maxHeadBytes. */
    private int sectionBytes;

    private int state = IDLE;
    private boolean headRequest;
    private boolean started;
    private long bodyBytes;
    private boolean keepAlive;

    // Per response head (reset again after an interim 1xx response).
    private int status;
    private boolean http11;
    private long contentLength;
    private boolean transferEncoding;
    private boolean chunked;
    private boolean connectionClose;
    private boolean connectionKeepAlive;
    private int previousHeader;

    // Body.
    private long remainingBytes;
    private int chunkNumber;

    /**
     * @param maxHeadBytes limit on the head of one response (status line, headers and the empty line that ends
     *                     them, e.g. 65536); a longer head is a {@link MalformedResponseException}. The same limit
     *                     applies to one chunk-size line and to the trailers. Must be positive.
     */
    public ResponseParser(int maxHeadBytes) {
        if (maxHeadBytes <= 0) {
            throw new IllegalArgumentException("maxHeadBytes must be positive, got " + maxHeadBytes);
        }
        this.maxHeadBytes = maxHeadBytes;
    }

    /**
     * Starts the next response on this connection and resets all per-response state ({@link #bodyBytes()},
     * {@link #keepAlive()}, {@link #started()}).
     *
     * @param head the request was HEAD: the response has no body whatever its headers say
     */
    public void begin(boolean head) {
        headRequest = head;
        started = false;
        bodyBytes = 0;
        keepAlive = false;
        remainingBytes = 0;
        chunkNumber = 0;
        startHead();
    }

    /**
     * Consumes bytes of {@code buf}, advancing its readerIndex, up to the end of the current response and no
     * further: bytes after the end stay unread in {@code buf}. Never retains or releases {@code buf}.
     *
     * @return the final status code once the response is complete (interim 1xx responses such as 100 Continue
     *         are skipped; 101 ends the response), else {@link #NEED_MORE} (all readable bytes were consumed)
     * @throws MalformedResponseException when the bytes are not a valid response; the parser then refuses
     *                                    further input until {@link #begin}
     * @throws IllegalStateException      when no response is in progress: before {@link #begin}, after the
     *                                    response completed, after {@link #closed()} or a malformed response
     */
    public int feed(ByteBuf buf) {
        if (state == IDLE || state == DONE || state == FAILED) {
            throw new IllegalStateException("no response in progress (state " + stateName() + "): call begin() first");
        }
        int startIndex = buf.readerIndex();
        try {
            return run(buf);
        } finally {
            if (buf.readerIndex() != startIndex) {
                started = true;
            }
        }
    }

    /**
     * The peer closed the connection.
     *
     * @return the status when the current response's head is complete and its body is delimited by the close
     *         (no Content-Length, not chunked, body allowed); else {@link #NEED_MORE}: the response was truncated,
     *         or no response was in progress
     */
    public int closed() {
        if (state == BODY_UNTIL_CLOSE) {
            state = DONE;
            return status;
        }
        if (state != DONE) {
            state = IDLE;
        }
        return NEED_MORE;
    }

    /**
     * After a complete response: true when the connection may carry another request (HTTP/1.1 without
     * {@code Connection: close}; HTTP/1.0 only with {@code Connection: keep-alive}; never after a close-delimited
     * body, a 101, or a response with ambiguous framing). False while no response is complete.
     */
    public boolean keepAlive() {
        return state == DONE && keepAlive;
    }

    /** Body bytes of the last or current response, after de-chunking (chunk-size lines, CRLFs, trailers excluded). */
    public long bodyBytes() {
        return bodyBytes;
    }

    /** True once any byte of the current response has been consumed since {@link #begin}. */
    public boolean started() {
        return started;
    }

    // ---------------------------------------------------------------------------------------------------------

    private int run(ByteBuf buf) {
        for (;;) {
            switch (state) {
                case STATUS_LINE:
                case HEADERS:
                case CHUNK_SIZE:
                case TRAILERS:
                    if (!readLine(buf)) {
                        return NEED_MORE;
                    }
                    onLine();
                    lineLength = 0;
                    break;
                case BODY_FIXED:
                    if (!skipRemaining(buf)) {
                        return NEED_MORE;
                    }
                    state = DONE;
                    break;
                case BODY_UNTIL_CLOSE:
                    skipBody(buf, buf.readableBytes());
                    return NEED_MORE;
                case CHUNK_DATA:
                    if (!skipRemaining(buf)) {
                        return NEED_MORE;
                    }
                    state = CHUNK_DATA_CR;
                    break;
                case CHUNK_DATA_CR:
                case CHUNK_DATA_LF: {
                    int index = buf.readerIndex();
                    if (index == buf.writerIndex()) {
                        return NEED_MORE;
                    }
                    byte b = buf.getByte(index);
                    if (b == CR && state == CHUNK_DATA_CR) {
                        state = CHUNK_DATA_LF;
                    } else if (b == LF) {
                        nextChunk();
                    } else {
                        throw malformed("missing CRLF after the data of chunk " + chunkNumber + " (found "
                                + describeByte(b) + ")");
                    }
                    buf.readerIndex(index + 1);
                    break;
                }
                case DONE:
                    return status;
                default:
                    throw new IllegalStateException("unexpected state " + stateName());
            }
        }
    }

    /**
     * Skips what is readable of the {@code remainingBytes} of a fixed-length body or a chunk; true once none
     * remain (false: wait for more input).
     */
    private boolean skipRemaining(ByteBuf buf) {
        int readable = buf.readableBytes();
        if (readable == 0) {
            return false;
        }
        skipBody(buf, (int) Math.min(remainingBytes, readable));
        return remainingBytes == 0;
    }

    private void skipBody(ByteBuf buf, int bytes) {
        buf.readerIndex(buf.readerIndex() + bytes);
        bodyBytes += bytes;
        remainingBytes -= bytes;
    }

    /**
     * Appends the readable bytes up to the next LF to {@link #line}; true when the line is complete (its LF
     * consumed, a trailing CR dropped).
     */
    private boolean readLine(ByteBuf buf) {
        int reader = buf.readerIndex();
        int writer = buf.writerIndex();
        if (reader == writer) {
            return false;
        }
        int lf = buf.indexOf(reader, writer, LF);
        int end = lf < 0 ? writer : lf;
        int consumed = lf < 0 ? end - reader : end - reader + 1;
        if (consumed > maxHeadBytes - sectionBytes) {
            throw malformed(sectionOverLimit());
        }
        sectionBytes += consumed;
        int length = end - reader;
        if (lineLength + length > line.length) {
            line = Arrays.copyOf(line, Math.max(lineLength + length, Math.min(line.length * 2, maxHeadBytes)));
        }
        buf.getBytes(reader, line, lineLength, length);
        lineLength += length;
        buf.readerIndex(reader + consumed);
        if (lf < 0) {
            return false;
        }
        if (lineLength > 0 && line[lineLength - 1] == CR) {
            lineLength--;
        }
        return true;
    }

    private String sectionOverLimit() {
        switch (state) {
            case CHUNK_SIZE:
                return "chunk-size line of chunk " + chunkNumber + " over " + maxHeadBytes + " bytes";
            case TRAILERS:
                return "trailers over " + maxHeadBytes + " bytes";
            default:
                return "response head over " + maxHeadBytes + " bytes";
        }
    }

    private void onLine() {
        switch (state) {
            case STATUS_LINE:
                parseStatusLine();
                state = HEADERS;
                break;
            case HEADERS:
                if (lineLength == 0) {
                    endOfHead();
                } else {
                    parseHeaderLine();
                }
                break;
            case CHUNK_SIZE:
                parseChunkSize();
                break;
            case TRAILERS:
                if (lineLength == 0) {
                    state = DONE;
                } else if (line[0] != SP && line[0] != HT && indexOf(line, 0, lineLength, (byte) ':') <= 0) {
                    throw malformed("bad trailer line: " + quotedLine());
                }
                break;
            default:
                throw new IllegalStateException("unexpected state " + stateName());
        }
    }

    private void startHead() {
        state = STATUS_LINE;
        lineLength = 0;
        sectionBytes = 0;
        status = 0;
        http11 = false;
        contentLength = -1;
        transferEncoding = false;
        chunked = false;
        connectionClose = false;
        connectionKeepAlive = false;
        previousHeader = OTHER_HEADER;
    }

    private void parseStatusLine() {
        byte[] l = line;
        int n = lineLength;
        if (n < 12 || l[0] != 'H' || l[1] != 'T' || l[2] != 'T' || l[3] != 'P' || l[4] != '/' || l[5] != '1'
                || l[6] != '.' || !isDigit(l[7]) || l[8] != SP
                || !isDigit(l[9]) || !isDigit(l[10]) || !isDigit(l[11]) || l[9] == '0'
                || (n > 12 && l[12] != SP)) {
            throw malformed("bad status line: " + quotedLine());
        }
        http11 = l[7] != '0';
        status = (l[9] - '0') * 100 + (l[10] - '0') * 10 + (l[11] - '0');
    }

    private void parseHeaderLine() {
        byte[] l = line;
        int n = lineLength;
        if (l[0] == SP || l[0] == HT) {
            // obs-fold: a continuation of the previous header's value.
            if (previousHeader != OTHER_HEADER) {
                throw malformed("folded continuation line of the " + headerName(previousHeader) + " header: "
                        + quotedLine());
            }
            return;
        }
        int colon = indexOf(l, 0, n, (byte) ':');
        if (colon < 0) {
            throw malformed("bad header line (no ':'): " + quotedLine());
        }
        if (colon == 0) {
            throw malformed("bad header line (empty name): " + quotedLine());
        }
        if (l[colon - 1] == SP || l[colon - 1] == HT) {
            throw malformed("whitespace before ':' in header line " + quotedLine());
        }
        int from = colon + 1;
        int to = n;
        while (from < to && isOws(l[from])) {
            from++;
        }
        while (to > from && isOws(l[to - 1])) {
            to--;
        }
        if (equalsIgnoreCase(l, 0, colon, CONTENT_LENGTH)) {
            previousHeader = CONTENT_LENGTH_HEADER;
            parseContentLength(from, to);
        } else if (equalsIgnoreCase(l, 0, colon, TRANSFER_ENCODING)) {
            previousHeader = TRANSFER_ENCODING_HEADER;
            parseTransferEncoding(from, to);
        } else if (equalsIgnoreCase(l, 0, colon, CONNECTION)) {
            previousHeader = CONNECTION_HEADER;
            parseConnection(from, to);
        } else {
            previousHeader = OTHER_HEADER;
        }
    }

    /** A comma list of equal digit-only values; each must agree with any earlier Content-Length. */
    private void parseContentLength(int from, int to) {
        int start = from;
        for (;;) {
            int comma = indexOf(line, start, to, (byte) ',');
            int end = comma < 0 ? to : comma;
            int a = start;
            int b = end;
            while (a < b && isOws(line[a])) {
                a++;
            }
            while (b > a && isOws(line[b - 1])) {
                b--;
            }
            if (a == b) {
                throw malformed("bad Content-Length " + quoted(from, to) + ": empty value");
            }
            long value = 0;
            for (int i = a; i < b; i++) {
                byte c = line[i];
                if (!isDigit(c)) {
                    throw malformed("bad Content-Length " + quoted(from, to) + ": not a non-negative integer");
                }
                if (value > (Long.MAX_VALUE - (c - '0')) / 10) {
                    throw malformed("bad Content-Length " + quoted(from, to) + ": too large");
                }
                value = value * 10 + (c - '0');
            }
            if (contentLength >= 0 && contentLength != value) {
                throw malformed("conflicting Content-Length values " + contentLength + " and " + value);
            }
            contentLength = value;
            if (comma < 0) {
                return;
            }
            start = comma + 1;
        }
    }

    /** Only the final coding matters: chunked, or anything else (then the body runs until close). */
    private void parseTransferEncoding(int from, int to) {
        int b = to;
        while (b > from && (isOws(line[b - 1]) || line[b - 1] == ',')) {
            b--;
        }
        if (b == from) {
            throw malformed("empty Transfer-Encoding");
        }
        int a = b;
        while (a > from && line[a - 1] != ',') {
            a--;
        }
        int semicolon = indexOf(line, a, b, (byte) ';');
        if (semicolon >= 0) {
            b = semicolon;
        }
        while (a < b && isOws(line[a])) {
            a++;
        }
        while (b > a && isOws(line[b - 1])) {
            b--;
        }
        transferEncoding = true;
        chunked = equalsIgnoreCase(line, a, b, CHUNKED);
    }

    private void parseConnection(int from, int to) {
        int start = from;
        while (start < to) {
            int comma = indexOf(line, start, to, (byte) ',');
            int end = comma < 0 ? to : comma;
            int a = start;
            int b = end;
            while (a < b && isOws(line[a])) {
                a++;
            }
            while (b > a && isOws(line[b - 1])) {
                b--;
            }
            if (equalsIgnoreCase(line, a, b, CLOSE)) {
                connectionClose = true;
            } else if (equalsIgnoreCase(line, a, b, KEEP_ALIVE)) {
                connectionKeepAlive = true;
            }
            start = end + 1;
        }
    }

    private void endOfHead() {
        if (status < 200 && status != 101) {
            // Interim response (100 Continue, 103 Early Hints): skipped; the final response follows.
            startHead();
            return;
        }
        keepAlive = (http11 ? !connectionClose : connectionKeepAlive && !connectionClose)
                && status != 101
                && !(transferEncoding && (!http11 || contentLength >= 0));
        if (headRequest || status == 101 || status == 204 || status == 304) {
            state = DONE;
        } else if (transferEncoding) {
            if (chunked) {
                chunkNumber = 0;
                nextChunk();
            } else {
                untilClose();
            }
        } else if (contentLength >= 0) {
            remainingBytes = contentLength;
            state = contentLength == 0 ? DONE : BODY_FIXED;
        } else {
            untilClose();
        }
    }

    private void untilClose() {
        keepAlive = false;
        state = BODY_UNTIL_CLOSE;
    }

    private void nextChunk() {
        chunkNumber++;
        sectionBytes = 0;
        state = CHUNK_SIZE;
    }

    /** {@code 1*HEXDIG [BWS ";" chunk-ext]}. */
    private void parseChunkSize() {
        byte[] l = line;
        int n = lineLength;
        long size = 0;
        int i = 0;
        for (; i < n; i++) {
            int digit = hexValue(l[i]);
            if (digit < 0) {
                break;
            }
            if (size > (Long.MAX_VALUE >>> 4)) {
                throw malformed("chunk size " + quotedLine() + " too large in chunk " + chunkNumber);
            }
            size = (size << 4) | digit;
        }
        int digitsEnd = i;
        while (i < n && isOws(l[i])) {
            i++;
        }
        if (digitsEnd == 0 || (i < n && l[i] != ';')) {
            throw malformed("bad chunk size " + quotedLine() + " in chunk " + chunkNumber);
        }
        if (size == 0) {
            sectionBytes = 0;
            state = TRAILERS;
        } else {
            remainingBytes = size;
            state = CHUNK_DATA;
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    private MalformedResponseException malformed(String message) {
        state = FAILED;
        return new MalformedResponseException(message);
    }

    private String quotedLine() {
        return quoted(0, lineLength);
    }

    /** The line's bytes {@code [from, to)} in single quotes, non-printable bytes escaped, long lines cut. */
    private String quoted(int from, int to) {
        StringBuilder s = new StringBuilder(Math.min(to - from, MESSAGE_LINE_CHARS) + 8).append('\'');
        int end = Math.min(to, from + MESSAGE_LINE_CHARS);
        for (int i = from; i < end; i++) {
            int c = line[i] & 0xff;
            if (c >= 0x20 && c < 0x7f) {
                s.append((char) c);
            } else {
                s.append(String.format("\\x%02x", c));
            }
        }
        s.append('\'');
        if (end < to) {
            s.append("... (").append(to - from).append(" bytes)");
        }
        return s.toString();
    }

    private static String describeByte(byte b) {
        int c = b & 0xff;
        return c >= 0x20 && c < 0x7f ? "'" + (char) c + "'" : String.format("byte 0x%02x", c);
    }

    private static String headerName(int header) {
        switch (header) {
            case CONTENT_LENGTH_HEADER:
                return "Content-Length";
            case TRANSFER_ENCODING_HEADER:
                return "Transfer-Encoding";
            case CONNECTION_HEADER:
                return "Connection";
            default:
                return "other";
        }
    }

    private String stateName() {
        switch (state) {
            case IDLE:
                return "idle";
            case DONE:
                return "done";
            case FAILED:
                return "failed";
            default:
                return "parsing";
        }
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean isOws(byte b) {
        return b == SP || b == HT;
    }

    private static int hexValue(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    private static int indexOf(byte[] bytes, int from, int to, byte value) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /** {@code bytes[from, to)} equals {@code lower} (lower-case letters, digits, '-') ignoring ASCII case. */
    private static boolean equalsIgnoreCase(byte[] bytes, int from, int to, byte[] lower) {
        if (to - from != lower.length) {
            return false;
        }
        for (int i = 0; i < lower.length; i++) {
            byte b = bytes[from + i];
            byte expected = lower[i];
            if (b != expected && !(expected >= 'a' && expected <= 'z' && b == expected - ('a' - 'A'))) {
                return false;
            }
        }
        return true;
    }

    private static byte[] ascii(String s) {
        byte[] bytes = new byte[s.length()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) s.charAt(i);
        }
        return bytes;
    }
}
